"""`python .../generator/native/worker.py`: one mypyc build, run by build_native in a process of its
own (mypy, setuptools and the C compiler print freely, and setuptools changes process state), in a
temporary directory that holds a copy of the module in its package layout.

    python generator/native/worker.py --opt-level 3 --build DIR --lib DIR PACKAGE/PATH/MODULE.py

The extension lands in the --lib directory under the module's package path. Exit status 0 on
success; otherwise mypy's or the compiler's messages are on the output and the status is not 0
(mypyc exits with 1 when mypy refuses the module, which the parent recognises by its messages).
It is run as a script, so it imports nothing of straightline (a package of the user's named
`generator` cannot get in the way), and mypy reads only the empty configuration made for it
(`mypy.ini` in the current directory), never the user's own.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="worker.py")
    parser.add_argument("--opt-level", default="3", choices=("0", "1", "2", "3"))
    parser.add_argument("--build", required=True, help="directory for the C sources and objects")
    parser.add_argument("--lib", required=True, help="directory the extension is written to")
    parser.add_argument("module", help="the module file, relative to the current directory")
    args = parser.parse_args(argv)

    from mypyc.build import mypycify
    from setuptools import setup

    extensions = mypycify(["--config-file", "mypy.ini", args.module], opt_level=args.opt_level, debug_level="0",
                          target_dir=args.build)
    setup(name="straightline-native", ext_modules=extensions, script_name="setup.py",
          script_args=["--quiet", "build_ext", "--build-lib", args.lib, "--build-temp", args.build])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
