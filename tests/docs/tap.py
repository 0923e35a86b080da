# SPDX-License-Identifier: MIT
"""TAP lines for the docs suite's scripts: ok/not ok, a reason as '# '
lines after a failure, and an exit status that says whether all passed."""
import sys


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, text, why=""):
        self.n += 1
        print(f"{'' if ok else 'not '}ok {self.n} - {text}")
        if not ok:
            self.failed += 1
            for line in str(why).splitlines() or [""]:
                print(f"# {line}")
        return ok

    def done(self):
        sys.stdout.flush()
        sys.exit(1 if self.failed else 0)
