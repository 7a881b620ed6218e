"""`python -m bench.worker NAME [--quick] [--quiet] [--native | --no-native] [--mypyc]`: run one
case, print its result as JSON.

The harness runs each case in a fresh interpreter of its own, so a case's figures do not depend on
which cases ran before it in the same process (their garbage, the heap they fragmented, the
modules they imported); see runner.run.
"""

from __future__ import annotations

import json
import sys

from . import runner


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("--")]
    if len(names) != 1:
        print(
            "usage: python -m bench.worker NAME [--quick] [--quiet] [--native | --no-native] "
            "[--mypyc]",
            file=sys.stderr,
        )
        return 2
    out, sys.stdout = sys.stdout, sys.stderr  # stdout carries the result alone
    try:
        log = runner.silent if "--quiet" in argv else None
        native = True if "--native" in argv else False if "--no-native" in argv else None
        mypyc = "--mypyc" in argv
        result = runner.run_one(
            names[0], quick="--quick" in argv, log=log, native=native, mypyc=mypyc
        )
    finally:
        sys.stdout = out
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
