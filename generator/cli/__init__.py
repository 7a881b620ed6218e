"""The `straightline` command line: main (the parser), commands (compile, check, preflight,
catalog), validate (data against a schema or a compiled module), files (module paths, atomic
writes)."""

from .main import main

__all__ = ["main"]
