#!/usr/bin/env bash
# Runs a command and checks its exit status and output; the command-line tests' add_test driver.
#
#   expect_exit.sh [--stderr] [--absent <regex>]... <expected status> <regex> [<regex>...] --
#                  <command> [args...]
#
# Passes when the command exits with exactly <expected status> and every extended regex
# (grep -E) matches somewhere in its stdout+stderr, or in its stderr alone with --stderr (a
# refused command line must explain itself on stderr), and no --absent regex matches anywhere in
# stdout+stderr (e.g. a third-party library's "error:" line before a working fallback). On failure prints the command, the status
# and both outputs.
set -u

usage() {
  echo "usage: $0 [--stderr] [--absent <regex>]... <expected status> <regex>... -- <command>" \
    "[args...]" >&2
  exit 64
}

stderr_only=0
absent=()
while [[ ${1:-} == --stderr || ${1:-} == --absent ]]; do
  if [[ $1 == --stderr ]]; then
    stderr_only=1
    shift
  else
    [[ $# -ge 2 ]] || usage
    absent+=("$2")
    shift 2
  fi
done
[[ $# -ge 4 ]] || usage
expected_status=$1
shift
[[ $expected_status =~ ^[0-9]+$ ]] || usage
patterns=()
while [[ $# -gt 0 && $1 != "--" ]]; do
  patterns+=("$1")
  shift
done
[[ $# -ge 2 && ${#patterns[@]} -gt 0 ]] || usage
shift  # the --

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$@" >"$work/stdout" 2>"$work/stderr"
status=$?
if [[ $stderr_only -eq 1 ]]; then
  where=stderr
  cp "$work/stderr" "$work/searched"
else
  where=stdout+stderr
  cat "$work/stdout" "$work/stderr" >"$work/searched"
fi

problems=()
if [[ $status -ne $expected_status ]]; then
  problems+=("exit status $status, expected $expected_status")
fi
for pattern in "${patterns[@]}"; do
  if ! grep -Eq -e "$pattern" "$work/searched"; then
    problems+=("no match for /$pattern/ in $where")
  fi
done

for pattern in "${absent[@]}"; do
  if cat "$work/stdout" "$work/stderr" | grep -Eq -e "$pattern"; then
    problems+=("/$pattern/ matched in stdout+stderr, where it must not appear")
  fi
done

if [[ ${#problems[@]} -gt 0 ]]; then
  for problem in "${problems[@]}"; do echo "FAILED: $problem" >&2; done
  echo "command: $*" >&2
  echo "--- stdout:" >&2
  cat "$work/stdout" >&2
  echo "--- stderr:" >&2
  cat "$work/stderr" >&2
  exit 1
fi
echo "ok: exit status $status; matched ${patterns[*]} in $where"
exit 0
