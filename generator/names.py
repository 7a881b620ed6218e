"""Names known before the compiler loads: the profiles, the limit options, the unsafe-pattern
policies, and the module names
made from file names. The command line, the project config and `straightline validate --module`
use them without importing the compiler (profiles.py checks the profile names against these)."""

from __future__ import annotations

import keyword
import re

PROFILE_NAMES = (
    "draft2019-09",
    "draft2020-12",
    "draft4",
    "draft6",
    "draft7",
    "lenient",
    "octoscript",
    "strict",
)

# Options that set a profile's limits.
LIMIT_OPTIONS = ("max_source_bytes", "max_depth", "max_properties", "max_enum_values")
# Recursion in the compiler and in the error path grows with schema depth; this bound keeps every
# stage well inside Python's default recursion limit.
HARD_MAX_DEPTH = 200


def limit_problem(option: str, value: object) -> str | None:
    """Why `value` cannot be the limit `option` (one of LIMIT_OPTIONS), or None: a limit is a
    positive integer, and max_depth at most HARD_MAX_DEPTH (the API, the project configuration and
    the command line's flags say the same)."""
    if type(value) is not int or value < 1:
        return f"must be a positive integer, not {value!r}"
    if option == "max_depth" and value > HARD_MAX_DEPTH:
        return f"may be at most {HARD_MAX_DEPTH}, not {value}"
    return None


# What a profile that is not fail-closed does with a pattern that has no linear-time engine
# (generator/regex/plan.py's "unsafe"): run it in `re` silently, with a warning, or refuse it.
# The fail-closed profiles (strict) always refuse it.
UNSAFE_PATTERN_POLICIES = ("allow", "warn", "error")

# The backends of a native build (generator/native): the fast path rendered as C, or mypyc.
NATIVE_BACKENDS = ("c", "mypyc")


def module_name_for(text: str) -> str:
    """A safe module name from a file name: letters, digits and underscores, not a keyword."""
    name = re.sub(r"[^0-9A-Za-z_]", "_", text)
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        name = "contract_" + name
    return name
