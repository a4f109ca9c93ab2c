// Runs Debian's /usr/bin/python3 (with python3-numpy; the path comes from CMake as SWARM_PYTHON)
// as an independent reference for the tests, and collects what it prints.
#pragma once

#include <cstdio>
#include <string>

namespace swarm::test {

struct PythonRun {
  int status = -1;     // as pclose returns it: 0 when the script exited 0
  std::string output;  // standard output (and standard error when `arguments` redirects it)
};

// `arguments` follow the interpreter on a shell command line (a script path and its arguments).
inline PythonRun RunPython(const std::string& arguments) {
  PythonRun run;
  std::FILE* pipe = popen((std::string(SWARM_PYTHON) + " " + arguments).c_str(), "r");
  if (pipe == nullptr) return run;
  char chunk[4096];
  while (size_t read = std::fread(chunk, 1, sizeof(chunk), pipe)) run.output.append(chunk, read);
  run.status = pclose(pipe);
  return run;
}

}  // namespace swarm::test
