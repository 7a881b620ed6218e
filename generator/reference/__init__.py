"""The reference interpreter: the tests' oracle, written apart from the compiler in
python-jsonschema's shape. Schemas are walked at validation time (validator.py), calling one small
function per keyword (keywords.py) named by a table per draft and seed profile (drafts.py). It
shares leaf primitives and the resolver with the compiler, nothing of keywords/, lower, plan, emit
or render (tests/reference/test_isolation.py). `DraftReference` interprets a draft (or a seed
profile); `Reference` a named profile, after the profile's preflight.
"""

from __future__ import annotations

from .profiles import Reference
from .results import Error, Evaluated
from .validator import DraftReference

__all__ = ["DraftReference", "Error", "Evaluated", "Reference"]
