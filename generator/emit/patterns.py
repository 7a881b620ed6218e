"""How emitted code runs an ECMA-262 pattern, as its plan says (generator/regex/plan.py):

* "re" (the risk analysis shows Python's `re` is linear on it): str tests where the pattern is
  one of the shapes of regex/simple.py and the value is a plain name (`x.startswith("x-")`,
  `x in _K0`, `x.isascii() and x.isdigit()`), else the compiled pattern's `search`, a module
  constant, after str tests that accept the ASCII strings it surely matches where it is one run
  of a wide class (`^[ \\r\\n\\t\\S]+$`: `x.isascii() and "\\x0b" not in x and "\\x0c" not in x`;
  `^\\S*$`: `x.isascii() and x.isprintable() and " " not in x`);
* "automaton": the copied matcher (`_dfa_search`/`_nfa_search`, regex/matcher.py) on a table,
  a module constant; linear in the length of the string;
* "unsafe" (no linear engine; the profile has let it through, see preflight): `re`, as "re".

A pattern with a negative lookahead that scans for a text (`(?!.*\\.\\.)`) is tested without it,
and with it only where the text is in the string (regex/guard.py), in either plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..regex import plan_pattern
from ..regex.guard import literal_guard
from ..regex.simple import (
    AsciiAccept,
    CaselessTest,
    LiteralTest,
    RunTest,
    SimpleTest,
    always_matches,
    ascii_accept,
    simple_tests,
)
from .tree import (
    NONE,
    TRUE,
    BoolOp,
    Call,
    Comment,
    Compare,
    Expr,
    Name,
    Paren,
    Stmt,
    Tuple,
    and_,
    call,
    lit,
    literal_expr,
    method,
    or_,
)

if TYPE_CHECKING:
    from .module import ModuleEmitter

# The annotation of each matcher's table constant (the type aliases regex/matcher.py defines).
_TABLE_TYPES = {"_dfa_search": "_DfaTable", "_nfa_search": "_NfaTable"}


def pattern_test(m: ModuleEmitter, source: str, value: Expr) -> Expr:
    """True when the pattern matches the string `value`: the constant True for a pattern every
    string matches (`.*`; and/or fold it away: tree.truth)."""
    if always_matches(source):
        return TRUE
    plan = plan_pattern(source)
    guard = literal_guard(source) if plan.kind != "automaton" and isinstance(value, Name) else None
    if guard is not None:
        # the pattern without its scanning lookaheads, and the pattern itself only where the
        # text they look for is there (regex/guard.py)
        absent = and_(*(Compare(lit(text), "not in", value) for text in guard.texts))
        whole = Compare(Call(m.regex(plan.python, source), (value,)), "is not", NONE)
        return and_(pattern_test(m, guard.reduced, value), Paren(or_(absent, whole)))
    if plan.kind == "automaton":
        assert plan.function is not None and plan.table is not None
        m.matchers.add(plan.function)
        table = m.constant("M", literal_expr(plan.table), annotation=_TABLE_TYPES[plan.function])
        m.pattern_sources.setdefault(table.id, source)
        return call(plan.function, value, table)
    tests = simple_tests(source) if plan.kind == "re" and isinstance(value, Name) else None
    if tests:
        return str_tests(m, tests, value)
    search = Compare(Call(m.regex(plan.python, source), (value,)), "is not", NONE)
    accept = ascii_accept(source) if plan.kind == "re" and isinstance(value, Name) else None
    if accept is not None:  # ASCII first, as str tests; any other string asks re
        return or_(Paren(ascii_test(accept, value)), search)
    return search


def pattern_notes(m: ModuleEmitter, sources: Iterable[str]) -> list[Stmt]:
    """The comments that say how the code runs these patterns, where it is not with `re`."""
    kinds = {_how(source) for source in sources}
    return [
        Comment(note)
        for note in ("automaton", "guarded", "str-tests", "ascii-first")
        if note in kinds
    ]


def _how(source: str) -> str:
    if always_matches(source):
        return "always"  # (no code, so no comment)
    plan = plan_pattern(source)
    if plan.kind == "automaton":
        return "automaton"
    if literal_guard(source) is not None:
        return "guarded"
    if plan.kind != "re":
        return "re"
    return "str-tests" if simple_tests(source) else "ascii-first" if ascii_accept(source) else "re"


def str_tests(m: ModuleEmitter, tests: tuple[SimpleTest, ...], s: Expr) -> Expr:
    """Any of the tests holds for `s`: equal texts as one set lookup, prefixes as one
    startswith (suffixes likewise), each contained text and each run on its own, texts in any
    ASCII case as one lookup of the lowered string."""
    literals = [t for t in tests if isinstance(t, LiteralTest)]
    equal = sorted({t.text for t in literals if t.start and t.end})
    prefixes = sorted({t.text for t in literals if t.start and not t.end})
    suffixes = sorted({t.text for t in literals if t.end and not t.start})
    inside = sorted({t.text for t in literals if not t.start and not t.end})
    found: list[Expr] = []
    if len(equal) == 1:
        found.append(Compare(s, "==", lit(equal[0])))
    elif equal:
        found.append(Compare(s, "in", m.constant("K", literal_expr(frozenset(equal)))))
    for name, texts in (("startswith", prefixes), ("endswith", suffixes)):
        if texts:
            found.append(
                method(
                    s,
                    name,
                    lit(texts[0]) if len(texts) == 1 else Tuple(tuple(lit(t) for t in texts)),
                )
            )
    found += [Compare(lit(text), "in", s) for text in inside]
    found += [_run(t, s) for t in tests if isinstance(t, RunTest)]
    caseless = sorted({t.text for t in tests if isinstance(t, CaselessTest)})
    if caseless:  # (isascii first: lower() maps the Kelvin sign to k)
        lowered = method(s, "lower")
        one = (
            Compare(lowered, "==", lit(caseless[0]))
            if len(caseless) == 1
            else Compare(lowered, "in", m.constant("K", literal_expr(frozenset(caseless))))
        )
        found.append(and_(method(s, "isascii"), one))
    return found[0] if len(found) == 1 else or_(*(Paren(f) if _is_and(f) else f for f in found))


def ascii_test(accept: AsciiAccept, s: Expr) -> Expr:
    """`s` has the run's length, is ASCII (printable ASCII, where the accept says so) and holds
    none of the excluded characters (the length first: it reads no character; isascii() reads a
    flag of the string)."""
    tests: list[Expr] = []
    if accept.most is not None and accept.most == accept.least:
        tests.append(Compare(call("len", s), "==", lit(accept.least)))
    else:
        if accept.least == 1:
            tests.append(Compare(s, "!=", lit("")))
        elif accept.least > 1:
            tests.append(Compare(call("len", s), ">=", lit(accept.least)))
        if accept.most is not None:
            tests.append(Compare(call("len", s), "<=", lit(accept.most)))
    tests.append(method(s, "isascii"))
    if accept.printable:
        tests.append(method(s, "isprintable"))
    tests += [Compare(lit(c), "not in", s) for c in accept.excluded]
    return and_(*tests)


def _is_and(expr: Expr) -> bool:
    return isinstance(expr, BoolOp) and expr.op == "and"


def _run(test: RunTest, s: Expr) -> Expr:
    """`s` is `least` to `most` characters of the class: length, then ASCII, then the methods."""
    length = call("len", s)
    tests: list[Expr] = []
    if test.most is not None and test.most == test.least:
        tests.append(Compare(length, "==", lit(test.least)))
    else:
        if test.least > 1:
            tests.append(Compare(length, ">=", lit(test.least)))
        if test.most is not None:
            tests.append(Compare(length, "<=", lit(test.most)))
    tests += [method(s, "isascii")] + [method(s, name) for name in test.methods]
    whole = and_(*tests)
    return or_(Compare(s, "==", lit("")), Paren(whole)) if test.least == 0 else whole
