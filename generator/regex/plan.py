"""How a generated module should run one ECMA-262 pattern, decided at compile time.

:func:`plan_pattern` gives a :class:`PatternPlan` of one of three kinds:

* ``"re"``: Python's ``re`` on the translation (``plan.python``) runs in linear time (risk.py
  shows it); keep the fast path.
* ``"automaton"``: backtracking could take super-linear time (``plan.reason`` says where), so
  the module runs ``plan.function`` (``_dfa_search`` or ``_nfa_search``, from matcher.py) with
  ``plan.table`` (a plain literal to emit as a module constant): ``function(s, table)`` is
  ``new RegExp(source, "u").test(s)``, in time linear in ``len(s)``.
* ``"unsafe"``: backtracking could take super-linear time and no linear-time engine exists for
  the pattern (a back-reference or look-around in it, or an automaton beyond the size bounds);
  ``plan.reason`` names both.  The profile decides: refuse the schema, or keep ``re`` and
  document the risk (docs/regex.md).

:func:`matcher_sources` gives the source the module needs for the automaton plans it uses, in
the manner of generator/primitives.py: import lines, type aliases and function definitions.
:func:`plan_search` gives a plan's answer as a Python callable (for reference interpreters and
tests).
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Union

from . import matcher
from .automaton import compile_automaton
from .ecma import compile_pattern, parse
from .matcher import _DfaTable, _NfaTable
from .nfa import TooLarge, Unsupported
from .risk import assess_parsed

__all__ = ["PatternPlan", "plan_pattern", "plan_search", "matcher_sources", "MATCHER_FUNCTIONS"]

RE, AUTOMATON, UNSAFE = "re", "automaton", "unsafe"
MATCHER_FUNCTIONS = tuple(matcher.FUNCTIONS)
"""Every matcher function name a plan can name."""


@dataclass(frozen=True)
class PatternPlan:
    """See the module docstring.  ``position`` is the index in ``source`` that ``reason``
    points at (None when it names no one place)."""

    kind: str
    source: str
    python: str
    reason: str = ""
    position: Optional[int] = None
    function: Optional[str] = None
    table: Optional[Union[_DfaTable, _NfaTable]] = None


def plan_pattern(source: str) -> PatternPlan:
    """The plan for an ECMA-262 (u-mode) pattern source.  Raises
    :class:`~generator.regex.RegexTranslationError` exactly when :func:`compile_pattern`
    does (the pattern is not valid, or Python cannot express it)."""
    return _plan(source)


@functools.lru_cache(maxsize=512)
def _plan(source: str) -> PatternPlan:
    python = compile_pattern(source).pattern  # the translation's errors, whatever the plan
    parsed = parse(source)
    risk = assess_parsed(parsed)
    if not risk.risky:
        return PatternPlan(RE, source, python)
    why = f"backtracking can take super-linear time: {risk.reason}"
    try:
        compiled = compile_automaton(parsed)
    except Unsupported as exc:
        engine = (
            "for which no linear-time engine exists"
            if "back-reference" in exc.what
            else "which the linear-time engine does not support"
        )
        return PatternPlan(
            UNSAFE,
            source,
            python,
            f"{why}; and it has {exc.what} (at position {exc.position}), {engine}",
            risk.position if risk.position is not None else exc.position,
        )
    except TooLarge as exc:
        return PatternPlan(
            UNSAFE,
            source,
            python,
            f"{why}; and its linear-time automaton would be too large ({exc})",
            risk.position,
        )
    return PatternPlan(
        AUTOMATON, source, python, why, risk.position, compiled.function, compiled.table
    )


def plan_search(plan: PatternPlan) -> Callable[[str], bool]:
    """``s -> bool``: the plan's answer to ``new RegExp(source, "u").test(s)`` (an "unsafe"
    plan answers through Python's ``re``, with its risk)."""
    if plan.kind == AUTOMATON:
        function = matcher.FUNCTIONS[plan.function or ""]
        table = plan.table
        return lambda s: function(s, table)
    search = compile_pattern(plan.source).search
    return lambda s: search(s) is not None


@functools.cache
def _function_source(function: Callable[..., object]) -> str:
    """A matcher's source, read once per process (inspect re-reads its file at every call)."""
    return inspect.getsource(function)


def matcher_sources(
    functions: Iterable[str] = MATCHER_FUNCTIONS,
) -> tuple[list[str], list[str], list[str]]:
    """(import lines, type-alias lines, function sources) that a generated module needs to call
    the given matcher functions; each list in a fixed order, without duplicates."""
    wanted = [name for name in MATCHER_FUNCTIONS if name in set(functions)]
    unknown = set(functions) - set(MATCHER_FUNCTIONS)
    if unknown:
        raise ValueError(f"unknown matcher functions: {sorted(unknown)}")
    imports = sorted(set(matcher.IMPORTS.values())) if wanted else []
    aliases = [matcher.ALIASES[name][1] for name in wanted]
    sources = [_function_source(matcher.FUNCTIONS[name]) for name in wanted]
    return imports, aliases, sources
