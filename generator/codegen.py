"""Typed pieces of emitted code, so that schema text can never become code.

Everything the emitter writes is a `Code`. Compiler-written syntax enters through `code(fmt, ...)`,
whose arguments must themselves be `Code`: a `Name` (an identifier the compiler made) or a value
rendered by `literal`, the one escaping function. A raw `str` is refused everywhere, including by
the Jinja environment (see emit.py), so a template cannot splice schema text by accident.
"""

from __future__ import annotations

import functools
import keyword
import math
import re
from decimal import Decimal
from typing import Any


class Code:
    """A fragment of emitted Python source."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError("Code wraps text")
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Code({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.text == self.text

    def __hash__(self) -> int:
        return hash((type(self), self.text))


class Name(Code):
    """An identifier made by the compiler: checked, never taken from a schema."""

    __slots__ = ()

    def __init__(self, text: str) -> None:
        if not text.isidentifier() or keyword.iskeyword(text) or not text.isascii():
            raise ValueError(f"not a safe identifier: {text!r}")
        super().__init__(text)


def code(fmt: str, *parts: Code) -> Code:
    """Compiler syntax with typed holes: `code("if {} < {}:", name, literal(3))`."""
    for part in parts:
        if not isinstance(part, Code):
            raise TypeError(f"code() takes Code parts only, not {type(part).__name__}")
    return Code(fmt.format(*(p.text for p in parts)))


def join(separator: str, parts: list[Code]) -> Code:
    """`parts` with compiler-written `separator` text between them (its braces are text too)."""
    escaped = separator.replace("{", "{{").replace("}", "}}")
    return code(escaped.join("{}" for _ in parts), *parts)


# Integers from here on are written in hex (a name: 10**4000 written in a function is computed at
# every call, Python folds no constant that large).
_HEX_FROM = 10**4000


def _sort_key(rendered: str) -> tuple[int, str]:
    return (len(rendered), rendered)


def literal(value: Any) -> Code:
    """The one escaping function: a JSON value (or a tuple/frozenset of them) as a Python literal.

    Strings are rendered with ascii(), so the source is ASCII-only and quotes, backslashes,
    newlines and U+2028 are all escaped. Sets are emitted in a fixed order, so output does not
    depend on PYTHONHASHSEED.
    """
    if value is None or value is True or value is False:
        return Code(repr(value))
    # Subclasses are read through the base type's own methods: a subclass's __repr__ or __str__
    # (a schema given as Python objects may hold one) never writes the emitted text.
    if isinstance(value, str):
        return Code(_string(str.__str__(value)))
    if isinstance(value, int):
        number = int.__int__(value)
        if abs(number) >= _HEX_FROM:  # decimal literals that long hit Python's int digit limit
            return Code(("-" if number < 0 else "") + "0x" + format(abs(number), "X"))
        return Code(int.__repr__(number))
    if isinstance(value, float):
        real = float.__float__(value)
        if not math.isfinite(real):
            raise ValueError("non-finite numbers are not JSON")
        return Code(float.__repr__(real).replace("e+", "e"))  # black writes 1e16, not 1e+16
    if isinstance(value, Decimal):
        text = Decimal.__str__(value)
        if not Decimal(text).is_finite():
            raise ValueError("non-finite numbers are not JSON")
        return Code("_Decimal(" + _string(text) + ")")
    if isinstance(value, list):
        return Code("[" + ", ".join(literal(v).text for v in value) + "]")
    if isinstance(value, tuple):
        inner = [literal(v).text for v in value]
        return Code("(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")")
    if isinstance(value, frozenset):
        inner = sorted((literal(v).text for v in value), key=_sort_key)
        return Code("frozenset({" + ", ".join(inner) + "})" if inner else "frozenset[str]()")
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            if not isinstance(k, str):
                raise ValueError("object keys must be strings")
            items.append(literal(k).text + ": " + literal(v).text)
        return Code("{" + ", ".join(items) + "}")
    raise TypeError(f"not a JSON value: {type(value).__name__}")


# Every str literal written that holds a lone surrogate (JSON allows "\\ud83d"), by its text: the
# mypyc build writes such literals otherwise (mypyc refuses them; generator/native/source.py) and
# learns here which they are. Only grows; such strings are rare.
_LONE_SURROGATES: dict[str, str] = {}
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate_literals(text: str) -> dict[str, str]:
    """The str literals written by literal() that hold a lone surrogate and occur in `text`, by
    their text, with their values. (Every module holds a `\\u` escape, the JSON escapes' table
    among its primitives: no test of the text for one first.)"""
    return {written: value for written, value in list(_LONE_SURROGATES.items()) if written in text}


@functools.lru_cache(maxsize=1 << 16)
def _string(text: str) -> str:
    """A str literal, ASCII-only (ascii() escapes quotes, backslashes, newlines, U+2028, lone
    surrogates...), in the quotes black prefers: double, unless that needs more escapes. So the
    emitted text is already what black would make of it. Cached: a compile writes the same names
    and messages many times."""
    written = _quoted(text)
    if _SURROGATE.search(text):
        _LONE_SURROGATES[written] = text
    return written


def _quoted(text: str) -> str:
    value = ascii(text)
    if value[0] == '"':
        return value  # ascii() chose double quotes: the string holds ' and no "
    body = value[1:-1]
    if '"' not in body and "'" not in body:
        return '"' + body + '"'  # (no quote either way: the same escapes in double quotes)
    # In the single-quoted body, \' escapes a quote; double quotes appear bare.
    unescaped = body.replace("\\'", "'")
    double = _escape_double_quotes(unescaped)
    if double.count("\\") > body.count("\\"):
        return value  # more escaping with double quotes: black keeps single ones
    return '"' + double + '"'


def _escape_double_quotes(body: str) -> str:
    """Escape every `"` not already escaped in a body taken from a single-quoted literal (one
    that holds a `"`: ascii() quotes any other string with a `'` in double quotes)."""
    out = []
    backslashes = 0
    for char in body:
        if char == '"' and backslashes % 2 == 0:
            out.append('\\"')
        else:
            out.append(char)
        backslashes = backslashes + 1 if char == "\\" else 0
    return "".join(out)


def uses_decimal(value: Any) -> bool:
    """Whether literal(value) refers to _Decimal."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:  # (most values: no walk)
        return False
    if isinstance(value, Decimal):
        return True
    if isinstance(value, (list, tuple, frozenset)):
        return any(uses_decimal(v) for v in value)
    if isinstance(value, dict):
        return any(uses_decimal(v) for v in value.values())
    return False


def comment(text: str) -> Code:
    """A one-line comment of compiler-made text (versions, hashes, options)."""
    if any(c in text for c in "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029") or not text.isascii():
        raise ValueError("comment text must be one ASCII line")
    return Code("# " + text)
