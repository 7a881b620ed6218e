"""Every checker finishes quickly on hostile inputs of 100,000 characters: long runs of the
characters each grammar repeats, and of near-misses that fail only at the end (a backtracking
regular expression would take minutes or hours on several of them). The bound is generous; it
only catches a hang or a quadratic step."""

from __future__ import annotations

import time

import pytest

from generator.formats import checkers

N = 100_000

HOSTILE = {
    "digits": "1" * N,
    "letters": "a" * N,
    "hyphens": "-" * N,
    "dots": "." * N,
    "colons": ":" * N,
    "slashes": "/" * N,
    "tildes": "~" * N,
    "percents": "%" * N,
    "braces": "{" * N,
    "parens": "(" * N,
    "brackets": "[" * N,
    "backslashes": "\\" * N,
    "ats": "@" * N,
    "quotes": '"' * N,
    "label-dots": "a." * (N // 2),
    "label-hyphens": "a-" * (N // 2),
    "hex-colons": "1:" * (N // 2),
    "a-labels": ("xn--" + "a" * 59 + ".") * (N // 64),
    "duration-digits": "P" + "1" * N,
    "duration-late-failure": "PT" + "1" * N + "X",
    "long-fraction": "2020-01-01T00:00:00." + "1" * N,
    "long-fraction-bad": "00:00:00." + "1" * N,
    "arabic-zwnj": "\u0628\u200c" * (N // 2),
    "hebrew-geresh": "\u05d0\u05f3" * (N // 2),
    "non-ascii": "\u00e9" * N,
    "han": "\u5b9f" * N,
    "latin-zwnj": "a\u200c" * (N // 2),
    "combining": "a" + "\u0301" * N,
    "katakana-dots": "\u30fb" * N,
    "optional-atoms": "a?" * (N // 2),
    "stars": "a*" * (N // 2),
    "alternations": "(a|" * (N // 3),
    "class-ranges": "[a-" * (N // 3),
    "unicode-escapes": "\\u{" * (N // 3),
    "named-refs": "\\k<" * (N // 3),
    "groups": "(?<a>a)" * (N // 7),
    "back-refs": "\\1" * (N // 2),
    "long-ref": "\\" + "9" * N,
    "quantifiers": "a{1,2}" * (N // 6),
    "dot-atoms": "a." * (N // 2) + "@x",
    "quoted-pairs": '"' + "\\a" * (N // 2) + '"@x',
    "userinfo": "http://" + "a@" * (N // 2),
    "pct-encoded": "a:" + "%41" * (N // 3),
    "pct-near-miss": "/" + "%4" * (N // 2),
    "template-names": "{" + "a." * (N // 2) + "}",
    "template-vars": "{a" + ",a" * (N // 2),
    "template-bad-end": "{" + "a" * N,
    "base64": "AAAA" * (N // 4) + "A",
    "base64-pad": "AAAA" * (N // 4) + "A===",
    "json-nesting": "[" * N + "]" * N,
    "json-open": "[" * N,
    "pointer-late-tilde": "/~0" * (N // 3) + "~",
    "relative-pointer": "1" * N + "/",
    "ipv6-long": "1::" + "1:" * (N // 2),
    "email-long-domain": "a@" + "a." * (N // 2) + "a",
}

CHECKERS = sorted(name for name in dir(checkers) if name.startswith(("_format_", "_content_")))


@pytest.mark.parametrize("name", CHECKERS)
def test_checker_is_fast_on_hostile_input(name: str) -> None:
    check = getattr(checkers, name)
    for shape, text in HOSTILE.items():
        started = time.perf_counter()
        check(text)
        elapsed = time.perf_counter() - started
        assert elapsed < 2.0, f"{name} took {elapsed:.2f}s on {shape}"
