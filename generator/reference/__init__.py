"""The reference interpreters: schemas walked at validation time, one small function per keyword,
written for clarity and used by the tests as the oracle the generated modules are held against.
`DraftReference` implements the five drafts (drafts), `Reference` the seed profiles (profiles)."""

from .drafts import DraftReference
from .profiles import Error, Reference

__all__ = ["DraftReference", "Error", "Reference"]
