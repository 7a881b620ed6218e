"""The risk analysis (generator/regex/risk.py): the shapes whose backtracking blows up are risky,
the common safe shapes are safe, and "safe" holds up: Python's `re` stays fast on long
adversarial inputs for every pattern reported safe (the listed ones and generated ones)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings

from generator.regex import RegexTranslationError, assess_risk, compile_pattern

from .patterns import adversarial_inputs, regular_patterns

EMAIL = (
    r"^([a-zA-Z0-9])(([\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}"
    r"(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$"
)

# (pattern, why it is risky)
RISKY = [
    (r"^(a+)+$", "nested quantifiers over the same text"),
    (r"(a|a)*b", "overlapping alternatives under repetition"),
    (r"(\w+\s?)*$", "a repeated part that splits the same text in many ways"),
    (r"^(([a-z])+.)+[A-Z]([a-z])+$", "`.` overlaps [a-z] inside a nested repetition"),
    (EMAIL, "e-mail pattern: optional separator, nested repetition"),
    (r"^\S+@\S+\.\S+$", "e-mail pattern: \\S overlaps the dot"),
    (
        r"^([a-zA-Z0-9_\.\-])+@(([a-zA-Z0-9\-])+\.)+([a-zA-Z0-9]{2,4})+$",
        "e-mail pattern (OWASP's ReDoS list): ([a-zA-Z0-9]{2,4})+ splits the same text",
    ),
    (r"^(a|aa)+$", "alternatives that split the same text"),
    (r"^(a?){25}a{25}$", "optional copies that match the same a"),
    (r"(.*a){12}", "repeated .* before the same character"),
    (r"^(\w+)*$", "nested quantifiers"),
    (r"^(a*)*$", "a repetition of a part that can match empty"),
    (r"^(?:a|b?)+c$", "a repetition of a part that can match empty"),
    (r"\w+\s?\w+$", "adjacent quantifiers over overlapping sets, re-split by a failing end"),
    (r"^\d+\d+x$", "adjacent quantifiers over the same set"),
    (r"a+b", "unanchored: the search re-scans the run from every start (quadratic)"),
    (r"\d+\.\d+", "unanchored: quadratic"),
    (r"\s+$", "the Stack Overflow outage of 2016: quadratic on a run of spaces"),
    (r"f.*o", "unanchored .* then a failing character"),
    (r"^(?=(a+)+b)", "a look-ahead whose body backtracks exponentially"),
    (r"(?=.*x)y", "an unbounded look-ahead tried at every position"),
    (r"^(\w+)\s\1$", "a back-reference to an unbounded group"),
    (r"(?:\b){4294967294}a", "Python runs every one of the empty iterations (it never ends)"),
]

SAFE = [
    r"^[a-z]+$",
    r"^x-",
    r"^[0-9a-f]{64}$",
    r"^\d{4}-\d{2}-\d{2}$",
    r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$",
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$",
    r"^[A-Z][a-z]*$",
    r"^[a-z][a-z0-9_]*$",
    r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$",
    r"^[\w.+-]+@([\w-]+\.)+[\w-]+$",
    r"^(\d{1,3}\.){3}\d{1,3}$",
    r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$",
    r"^[^\s]+(\s[^\s]+)*$",
    r"^[A-Za-z0-9\-\.]{1,64}$",
    r"^(?:[a-z0-9-]+\.)+[a-z]{2,}$",
    r"^https?://[^\s/$.?#].[^\s]*$",
    r"^(\+\d{1,3}\s?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}$",
    r"^\d+(\.\d+)?$",
    r"^.*bar$",
    r"^[a-z]{1,1000}$",
    r"^a{2}a*$",
    r"[a-z]+",
    r"[0-9]{2,}",
    r"foo",
    r"\bfoo\b",
    r"\b\w+\b",
    r"^$",
    r"",
    r"a*",
    r"(a|a)*",
    r"^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{8,}$",
    r"^(?!.*\.\.)[a-z./]+$",
    r"(?<=\$)\d+",
    r"^(a|b)\1$",
]


@pytest.mark.parametrize("pattern,why", RISKY, ids=[r[0][:40] for r in RISKY])
def test_known_risky_shapes_are_risky(pattern: str, why: str) -> None:
    risk = assess_risk(pattern)
    assert risk.risky, why
    assert risk.reason
    if risk.position is not None:
        assert 0 <= risk.position < len(pattern)
        assert f"position {risk.position}" in risk.reason


@pytest.mark.parametrize("pattern", SAFE)
def test_common_safe_shapes_are_safe(pattern: str) -> None:
    risk = assess_risk(pattern)
    assert not risk.risky, risk.reason
    assert risk.reason == "" and risk.position is None


def test_reasons_name_the_construct() -> None:
    assert "quadratic" in assess_risk(r"a+b").reason
    assert "more than one way" in assess_risk(r"^(a+)+$").reason
    assert "empty string" in assess_risk(r"^(a*)*$").reason
    assert "back-reference at position 8" in assess_risk(r"^(\w+)\s\1$").reason
    assert "look-ahead at position 0" in assess_risk(r"(?=.*x)y").reason
    assert "inside the look-ahead at position 1" in assess_risk(r"^(?=(a+)+b)").reason
    # positions point at the repetition involved
    assert assess_risk(r"^(a+)+$").position == 2
    assert assess_risk(r"-?\d+\.\d+").position == 2
    assert not assess_risk(r"xy\d+\.\d+").risky  # a literal start pins each run to one start


def test_invalid_patterns_raise_as_the_translation_does() -> None:
    with pytest.raises(RegexTranslationError):
        assess_risk("a**")
    with pytest.raises(RegexTranslationError):
        assess_risk(r"\p{Alphabetic}")


def test_size_bounds_make_a_pattern_risky_not_slow() -> None:
    started = time.perf_counter()
    huge = assess_risk("(?:" + "|".join(f"x{i}y" for i in range(1500)) + ")*z")
    assert huge.risky and "too" in huge.reason
    assert time.perf_counter() - started < 30  # a bound against a hang, not a benchmark


# ---------------------------------------------------------------------------------------------
# "Safe" holds up: `re` runs in linear time.  A quadratic search of these inputs takes seconds
# (`a+b` on 50,000 a's: about 4 s here; exponential ones never finish); a linear one takes
# milliseconds.  The limit only catches the blow-up, it is not a benchmark.

LONG = 50_000
LIMIT_SECONDS = 2.0


def _slowest_search(pattern: str, length: int) -> tuple[float, str]:
    search = compile_pattern(pattern).search
    worst = (0.0, "")
    for text in adversarial_inputs(length):
        started = time.perf_counter()
        search(text)
        elapsed = time.perf_counter() - started
        worst = max(worst, (elapsed, text[:20]))
    return worst


@pytest.mark.parametrize("pattern", SAFE)
def test_safe_shapes_run_fast_in_re_on_adversarial_input(pattern: str) -> None:
    elapsed, text = _slowest_search(pattern, LONG)
    assert elapsed < LIMIT_SECONDS, (pattern, text, elapsed)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(regular_patterns)
def test_generated_patterns_reported_safe_run_fast_in_re(pattern: str) -> None:
    try:
        compile_pattern(pattern)
    except RegexTranslationError:
        return
    if assess_risk(pattern).risky:
        return
    elapsed, text = _slowest_search(pattern, 20_000)
    assert elapsed < LIMIT_SECONDS, (pattern, text, elapsed)
