"""The classic ReDoS patterns run through the linear automaton: each decides a 10,000-character
adversarial input in well under a second (Python's `re` takes seconds to forever on them)."""

from __future__ import annotations

import time

import pytest

from generator.regex import compile_pattern, plan_pattern, plan_search

from .test_risk import EMAIL

# (pattern, adversarial input of 10,000 characters, its answer, a short version re can decide)
CASES = [
    (r"^(a+)+$", "a" * 10_000 + "!", False, "a" * 12 + "!"),
    (r"(a|a)*b", "a" * 10_000, False, "a" * 12),
    (r"(\w+\s?)*$", "a " * 5_000 + "!", True, "a " * 6 + "!"),
    (r"^(\w+\s?)*$", "a " * 5_000 + "!", False, "a " * 6 + "!"),
    (r"^(([a-z])+.)+[A-Z]([a-z])+$", "a" * 10_000, False, "a" * 12),
    (EMAIL, "a" * 10_000 + "!", False, "a" * 12 + "!"),
    (EMAIL, "a" + "-a" * 4_999 + "@example.com", True, "a-a-a@example.com"),
    (
        r"^([a-zA-Z0-9_\.\-])+@(([a-zA-Z0-9\-])+\.)+([a-zA-Z0-9]{2,4})+$",
        "a@" + "a" * 9_998 + "!",
        False,
        "a@" + "a" * 12 + "!",
    ),
    (r"^\S+@\S+\.\S+$", "a@" + "b." * 4_999 + " ", False, "a@b.b.b.b. "),
    (r"^(a|aa)+$", "a" * 10_000 + "b", False, "a" * 12 + "b"),
    (r"^(a?){25}a{25}$", "a" * 10_000, False, "a" * 26),
    (r"(.*a){12}", "a" * 10 + "b" * 9_990, False, "a" * 10 + "b" * 3),
    (r"\w+\s?\w+$", "a" * 10_000 + "!", False, "a" * 12 + "!"),
    (r"\d+\.\d+", "1" * 10_000, False, "1" * 12),
    (r"\s+$", " " * 10_000 + "x", False, " " * 12 + "x"),
]


@pytest.mark.parametrize(
    "pattern,text,answer,short", CASES, ids=[f"{c[0][:30]}|{c[1][:8]}" for c in CASES]
)
def test_redos_patterns_run_in_linear_time(
    pattern: str, text: str, answer: bool, short: str
) -> None:
    plan = plan_pattern(pattern)
    assert plan.kind == "automaton", plan.reason
    assert plan.reason.startswith("backtracking can take super-linear time: ")
    search = plan_search(plan)
    started = time.perf_counter()
    got = search(text)
    elapsed = time.perf_counter() - started
    print(f"{pattern[:60]!r} on {len(text)} characters: {elapsed * 1000:.2f} ms ({plan.function})")
    assert len(text) >= 10_000
    assert got is answer
    assert elapsed < 2.0  # "well under a second": a generous bound that only catches a blow-up
    # the same answer as Python's re where re can still decide (a short input)
    assert search(short) is (compile_pattern(pattern).search(short) is not None)
