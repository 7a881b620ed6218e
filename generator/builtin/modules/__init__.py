"""The built-in schemas, compiled by generator/builtin/build.py (do not edit: `make builtin`)."""
