"""Contexts shared by Python threads, and contexts whose threads cannot start: closing a context
while another thread's call runs in it neither hangs nor crashes (the call holds its own
reference and finishes; later calls raise "use of a closed context"), and a context of more
threads than the system can start raises SwarmError "unavailable" naming the request and the
reason."""

import os
import resource
import subprocess
import sys
import threading
import unittest

import numpy as np

from swarm_test_support import library, main
import swarm


def under_address_sanitizer():
    """Whether this process runs with ASan (the sanitized tree's launcher)."""
    with open("/proc/self/maps") as maps:
        return "libasan" in maps.read()


class ClosingWhileInUse(unittest.TestCase):
    def test_close_while_other_threads_evaluate(self):
        lib = library()
        ctx = lib.context(threads=4)
        a = np.arange(1 << 18, dtype=np.float32)
        outcomes = []
        started = threading.Event()

        def worker():
            out = np.zeros_like(a)
            done = 0
            try:
                for _ in range(10_000):
                    ctx.evaluate("a * 2 + 1", out=out, a=a)
                    done += 1
                    started.set()
            except swarm.SwarmError as error:
                outcomes.append((done, str(error), bool(np.all(out == a * 2 + 1))))
            started.set()

        threads = [threading.Thread(target=worker) for _ in range(3)]
        for thread in threads:
            thread.start()
        started.wait(timeout=30)
        ctx.close()
        for thread in threads:
            thread.join(timeout=60)
            self.assertFalse(thread.is_alive(), "a call hung after close")
        self.assertEqual(len(outcomes), 3)
        for done, message, correct in outcomes:
            self.assertEqual(message, "use of a closed context: the context is closed")
            if done:  # a thread may reach close() before its first call
                self.assertTrue(correct)  # every call that ran finished its work
        self.assertGreater(sum(done for done, _, _ in outcomes), 0)

    def test_objects_of_a_context_closed_by_another_thread_keep_working(self):
        lib = library()
        ctx = lib.context(threads=2)
        buffer = ctx.vec4(1000)
        closer = threading.Thread(target=ctx.close)
        closer.start()
        closer.join()
        view = buffer.numpy()
        view[:] = 1.5
        self.assertEqual(buffer.tensor().sum(), 1.5 * 4000)


THREADS_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[2])
import swarm
lib = swarm.load(sys.argv[1])
try:
    lib.context(threads=1024)
    print("created")
except swarm.SwarmError as error:
    print(error.status + ": " + str(error))
lib.context(threads=2).close()
print("a context of 2 threads works")
"""


class ThreadsThatCannotStart(unittest.TestCase):
    @unittest.skipIf(under_address_sanitizer(),
                     "an address-space limit breaks AddressSanitizer's shadow memory")
    def test_a_context_of_1024_threads_under_4_gib_is_unavailable(self):
        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

        package = os.path.dirname(os.path.dirname(os.path.abspath(swarm.__file__)))
        run = subprocess.run([sys.executable, "-c", THREADS_SCRIPT, library().path, package],
                             capture_output=True, text=True, preexec_fn=limit, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertRegex(lines[0], r"^unavailable: swarm_context_create: could not start a pool "
                                   r"of 1024 threads: thread \d+ failed to start: Resource "
                                   r"temporarily unavailable$")
        self.assertEqual(lines[1], "a context of 2 threads works")


if __name__ == "__main__":
    main()
