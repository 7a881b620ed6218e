"""The reference interpreter: schemas walked at validation time, one small function per keyword
(each keyword unit in generator/keywords/ holds its reading), written for clarity and used by the
tests as the oracle the generated modules are held against. `DraftReference` interprets the five
drafts (drafts.py); `Reference` a seed profile (profiles.py), through the same walk.

The names below are imported on first use, so that keyword units can import results.py alone.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "DraftReference": ".drafts",
    "Reference": ".profiles",
    "Error": ".results",
    "Evaluated": ".results",
}
__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
