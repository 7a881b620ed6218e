"""The IDNA 2008 rules computed from unicodedata (derived property, scripts, joining types,
context rules, Bidi) against the `idna` package, which ships Unicode's tables: for every code
point assigned in this Python's Unicode, a label built around it is valid for both or for
neither. By default the BMP below U+3400 (every script with context or joining rules) and a
stride through the rest; STRAIGHTLINE_EXHAUSTIVE=1 checks every code point (about a minute)."""

from __future__ import annotations

import os
import unicodedata

import pytest

from generator.formats import checkers

idna = pytest.importorskip("idna")

# Labels around one code point: alone after a letter; before and after a ZERO WIDTH NON-JOINER
# next to the dual-joining BEH (joining types L, D, R); between BEH and the joiner (type T);
# after KATAKANA MIDDLE DOT and GREEK KERAIA, before HEBREW GERESH (scripts).
TEMPLATES = (
    "a{}",
    "{}\u200c\u0628",
    "\u0628\u200c{}",
    "\u0628{}\u200c\u0628",
    "\u30fb{}",
    "\u0375{}",
    "{}\u05f3",
)


def _code_points() -> list[int]:
    exhaustive = os.environ.get("STRAIGHTLINE_EXHAUSTIVE") == "1"
    chosen = [cp for cp in range(0x110000) if exhaustive or cp < 0x3400 or cp % 97 == 0]
    return [cp for cp in chosen if unicodedata.category(chr(cp)) not in ("Cn", "Cs")]


def _idna_accepts(label: str) -> bool:
    try:
        idna.check_label(label)
    except (idna.IDNAError, ValueError):
        return False
    return True


@pytest.mark.parametrize("template", TEMPLATES)
def test_label_rules_agree_with_the_idna_package(template: str) -> None:
    disagreements = []
    for cp in _code_points():
        label = template.format(chr(cp))
        ours = checkers._fmt_ulabel_ok(label) and checkers._fmt_bidi_ok([label])
        if ours != _idna_accepts(label):
            disagreements.append(f"U+{cp:04X} {unicodedata.name(chr(cp), '?')}: ours {ours}")
    assert disagreements == []


def test_the_labels_exercise_every_outcome() -> None:
    """Each template has code points on both sides, so agreement is not trivial."""
    sample = [cp for cp in _code_points() if cp < 0x3400]
    for template in TEMPLATES:
        answers = {checkers._fmt_ulabel_ok(template.format(chr(cp))) for cp in sample}
        assert answers == {True, False}, template


# The ends of the ranges RFC 5892 names (IgnorableBlocks, OldHangulJamo, the Arabic-Indic digits
# of A.8 and A.9) and labels for the Bidi rule's last-character and NSM cases (RFC 5893 2, rules
# 3 and 6): the stride above reaches few of them.
EDGE_CODE_POINTS = [
    cp + step
    for cp in (0x20D0, 0x20FF, 0x1D100, 0x1D24F, 0xA960, 0xA97F, 0xD7B0, 0xD7FF, 0x1100, 0x11FF)
    for step in (-1, 0, 1)
]
EDGE_LABELS = [
    "\u0660\u0669",
    "\u0669\u06f9",
    "\u06f0\u06f9",
    "\u0669\u0628",
    "\u06f9\u0628",
    "\u0628\u0669",
    "\u0628\u06f9",
    "\u0628\u0660",
    "\u05d0\u0660",  # R ... AN
    "\u05d0\u0031",  # R ... EN
    "\u05d0\u0300",  # R then NSM
    "\u05d0\u0300\u0300",
    "a\u0300",  # L then NSM
    "a1",  # L ... EN
    "a\u0660",
    "\u05d0\u05d1\u0300\u05d2",
    "\u0628\u200c\u064b\u0628",  # ZWNJ, then a transparent mark, then a dual-joining letter
    "\u0628\u064b\u200c\u0628",
    "\u0628\u200c\u064b\u064b\u0627",
    "\u0915\u094d\u200d",
    "\u094d\u200d",
    "\u200c\u0915\u094d",  # ZWNJ first: no Virama before it (the last character is one)
    "\u0628\u200d\u0628",  # ZWJ between joining letters, with no Virama before it
    "\ua872\u200c\ua840",  # ZWNJ after a left-joining letter (PHAGS-PA SUPERFIXED RA)
    "\u05d0\u02b9",  # R ... ON: rule 3
]


@pytest.mark.parametrize("cp", EDGE_CODE_POINTS)
def test_range_ends_agree_with_the_idna_package(cp: int) -> None:
    for template in TEMPLATES:
        label = template.format(chr(cp))
        ours = checkers._fmt_ulabel_ok(label) and checkers._fmt_bidi_ok([label])
        assert ours == _idna_accepts(label), (hex(cp), template)


@pytest.mark.parametrize("label", EDGE_LABELS)
def test_context_and_bidi_edges_agree_with_the_idna_package(label: str) -> None:
    ours = checkers._fmt_ulabel_ok(label) and checkers._fmt_bidi_ok([label])
    assert ours == _idna_accepts(label)
