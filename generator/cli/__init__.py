"""The `straightline` command line: main (the parser), commands (compile, check, preflight,
catalog), files (module paths, atomic writes)."""

from .main import main

__all__ = ["main"]
