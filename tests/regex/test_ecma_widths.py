"""Look-behinds that read nothing (generator/regex/ecma.py's `_width`): a body of assertions only,
or empty, has width 0 to 0, a fixed width Python accepts."""

from __future__ import annotations

import pytest

from generator.regex import compile_pattern


@pytest.mark.parametrize(
    "pattern, matching, failing",
    [
        (r"(?<=\b)a", "a", "ba"),
        (r"(?<=(?:\b|^))a", "-a", "ba"),
        (r"(?<=)a", "ba", "b"),
        # a repetition of a part that reads nothing reads nothing, however often it runs
        (r"(?<=(?:\b)*a)b", "ab", "cb"),
        (r"(?<=a(?:){3,})b", "ab", "cb"),
    ],
)
def test_a_look_behind_of_width_zero_is_translated(
    pattern: str, matching: str, failing: str
) -> None:
    search = compile_pattern(pattern).search
    assert search(matching) is not None
    assert search(failing) is None
