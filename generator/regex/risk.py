"""Can Python's backtracking ``re`` take super-linear time on a pattern?  Decided at compile time.

The answer must be sound: a pattern reported safe runs in time linear in the input for every
input (``re.search`` of the translation, the unanchored search JSON Schema's ``pattern`` is).
Anything not shown safe is risky, and gets the linear-time automaton instead (automaton.py).

The model.  Python's ``re`` explores the paths of the pattern depth-first: at each start position
in turn, every way the pattern can read the input from there, until one reaches the end of the
pattern.  Each step of a path (one character read, or one epsilon route with its assertions
checked) costs a bounded amount of work, so the time is the number of (state, input position)
nodes visited, counted with repetition.  A node can be visited more than once for two reasons:
two different paths of one match attempt read the same text to the same state (nested or
overlapping repetitions, overlapping alternatives under repetition: ``(a+)+``, ``(a|a)*``,
``\\w+\\s?\\w+``), or attempts from two start positions reach the same node (``a+b`` searched in
``aaaa...``: every start re-reads the same run, quadratic).  Both are the same thing in the
automaton of the whole search (a self-looping search state in front of the pattern, with ``^``
passable only before the first character): two distinct paths reading the same text to the same
state.  If there is no such pair, every node is visited at most once per state, so the work is at
most (states x input length).

Two refinements keep common patterns safe without losing soundness.  (1) A state from which the
match can end whatever follows ("sure": a route to the end of the pattern with no assertion or
look-around on it) ends the whole search the first time it is reached: nothing after it is
explored except the failing branches below it.  So the search is safe if (A) paths from the
start that avoid sure states never meet, and (B) paths from any one sure state never meet at a
state that is not sure.  ``[a-z]+`` unanchored is safe by (1), ``^[a-z]+$`` because ``^`` fails
at every later start.  (2) Word boundaries, ``^`` and ``$`` are decided on the states (positions
split by the kind of character they read), so ``\\b\\w+\\b`` is not mistaken for ambiguous.

Ambiguity is found with the classic product construction: pairs of states reached by two paths
reading the same text, and a flag for "the paths have differed"; a flagged pair that is one state
twice is ambiguity.  Routes that themselves come in two ways (``(a|a)``-free but ``(?:a?)?``-like
epsilon duplicates) count as two paths.  An unbounded repetition of a body that can match the
empty string is risky outright (Python runs an empty iteration, and nested ones compound).

What else costs more than a bounded step, and the rule for each:

* a look-around runs its body at every node it is tried: its body must itself be unambiguous
  (one match attempt, no search), and either bounded in width (at most ``LOOKAROUND_WIDTH``
  characters) or tried once (right after a ``^`` opening a top-level alternative:
  ``^(?=.*\\d)(?!.*\\.\\.)...``);
* a look-around runs once per copy of each counted repetition around it, and each run runs its
  body's look-arounds as often again: a look-around inside another is risky past
  ``LOOKAROUND_EVALUATIONS`` runs per attempt (``^(?:(?=(?:(?=(?:(?=(?:(?=a)a){20})a){20})a){20})a){20}`` runs the innermost 20**4
  times);
* a back-reference compares the captured text: the group must be bounded in width (at most
  ``BACKREF_WIDTH``), and the path analysis sees the reference as an optional copy of the group;
* a repetition too large to expand (more than ``FOLD_ABOVE`` positions) is folded into one copy
  with a back edge, which can only add ambiguity;
* a repetition of a part that reads nothing runs all its minimum iterations each time it is
  met (``(?:\\b){4294967294}`` never ends): risky past ``nfa.ZERO_WIDTH_REPEATS``;
* the analysis itself is bounded (``MAX_POSITIONS`` positions, ``BUDGET`` product steps): a
  pattern too large to analyse is risky.

The rule is conservative: ``\\w+\\s?\\w+`` unanchored, for example, is linear in Python (any two
word characters match) but is reported risky, and so gets the automaton, which is also linear.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

from .ecma import ParsedPattern, _Disjunction, _Group, _width, parse
from .nfa import Automaton, Builder, TooLarge, group_body, split_automaton

__all__ = ["Risk", "assess_risk", "assess_parsed", "MAX_POSITIONS", "FOLD_ABOVE", "BUDGET"]

MAX_POSITIONS = 20_000
"""Most automaton positions the analysis builds (after folding; nfa.MAX_EDGES bounds the
routes between them)."""
FOLD_ABOVE = 256
"""A counted repetition whose expansion would need more positions than this is folded."""
BUDGET = 400_000
"""Most steps of the product construction; beyond it the pattern is reported risky."""
LOOKAROUND_WIDTH = 64
"""Widest look-around body tried at many positions that is still a bounded step."""
LOOKAROUND_EVALUATIONS = 10_000
"""Most runs of one look-around per attempt of the whole pattern: a look-around in a counted
repetition runs once per copy, and each run runs its body's look-arounds as often again."""
BACKREF_WIDTH = 64
"""Widest group a back-reference may refer to and still be a bounded step."""


@dataclass(frozen=True)
class Risk:
    """The verdict: ``risky`` with a ``reason`` naming the construct (and its source
    ``position``), or safe (``reason`` empty)."""

    risky: bool
    reason: str = ""
    position: Optional[int] = None


_SAFE = Risk(False)


class _OverBudget(Exception):
    pass


def assess_risk(source: str) -> Risk:
    """The risk verdict for an ECMA-262 pattern source (raises RegexTranslationError if it is
    not a valid pattern, as :func:`ecma.translate` would)."""
    return _assess_source(source)


@functools.lru_cache(maxsize=512)
def _assess_source(source: str) -> Risk:
    return assess_parsed(parse(source))


def assess_parsed(parsed: ParsedPattern) -> Risk:
    """The risk verdict for a parsed pattern, searched unanchored as ``re.search`` does."""
    return _assess_body(parsed, parsed.body, search=True)


def _assess_body(
    parsed: ParsedPattern, body: _Disjunction, search: bool, evaluations: int = 1
) -> Risk:
    """The verdict for ``body`` (the whole pattern, searched, or a look-around's body, not),
    itself evaluated ``evaluations`` times per attempt of the whole pattern (more than once
    inside look-arounds that repetitions copy)."""
    builder = Builder(
        parsed,
        "sre",
        max_positions=MAX_POSITIONS,
        fold_above=FOLD_ABOVE,
        backref_width=BACKREF_WIDTH,
    )
    try:
        fragment = builder.pattern(body)
    except TooLarge as exc:
        return Risk(True, f"the pattern is too large to analyse ({exc})")
    if builder.flags:
        reason, position = builder.flags[0]
        return Risk(True, reason, position)
    automaton = split_automaton(builder, fragment)
    try:
        verdict = _paths(automaton, search)
    except _OverBudget:
        return Risk(True, "the pattern is too complex to analyse for backtracking")
    if verdict.risky:
        return verdict
    # one verdict per node, however many copies meet it (assessing each copy again made nested
    # ones exponential in depth); the copies multiply how often its body's own look-arounds run
    for (node, once), times in builder.lookarounds.items():
        verdict = _assess_lookaround(parsed, node, once, evaluations * times, not search)
        if verdict.risky:
            return verdict
    return _SAFE


def _assess_lookaround(
    parsed: ParsedPattern, node: _Group, once: bool, evaluations: int, nested: bool
) -> Risk:
    what = "look-ahead" if node.kind in ("ahead", "nahead") else "look-behind"
    # (at the top level each copy of a counted repetition reads on, as any repetition does:
    # only nesting in look-arounds, which read nothing, multiplies the runs at one place)
    if nested and evaluations > LOOKAROUND_EVALUATIONS:
        return Risk(
            True,
            f"the {what} at position {node.pos} runs {evaluations} times each time the pattern "
            "is tried (look-arounds in counted repetitions, nested in look-arounds)",
            node.pos,
        )
    widest = _width(group_body(node))[1]
    if not once and (widest is None or widest > LOOKAROUND_WIDTH):
        return Risk(
            True,
            f"the {what} at position {node.pos} can scan "
            + ("unboundedly far" if widest is None else f"{widest} characters")
            + " each time it is tried, at every position",
            node.pos,
        )
    inner = _assess_body(parsed, group_body(node), search=False, evaluations=evaluations)
    if inner.risky:
        return Risk(True, f"inside the {what} at position {node.pos}: {inner.reason}", node.pos)
    return _SAFE


# ---------------------------------------------------------------------------------------------
# Ambiguity: two distinct paths reading the same text to the same state.


def _paths(a: Automaton, search: bool) -> Risk:
    for edges in a.edges:
        for t, count in edges.items():
            if count > 1:
                return _ambiguous(a, t, t)
    sure = a.sure
    if sure[a.init0]:
        # The first attempt succeeds: only paths from the start (without moving on) matter.
        return _product(a, [a.init0], cut=False, restart=False) or _SAFE
    # (A) without and then with the search moving on (the first finds ambiguity within one
    # attempt, the worse risk, so it is the one reported), then (B).
    roots = [s for s in range(len(sure)) if sure[s]]
    return (
        _product(a, [a.init0], cut=True, restart=False)
        or _product(a, roots, cut=False, restart=False)
        or (_product(a, [a.init0], cut=True, restart=True) if search else None)
        or _SAFE
    )


def _product(a: Automaton, roots: list[int], cut: bool, restart: bool) -> Optional[Risk]:
    """Explore pairs of paths from each root reading the same text; ``cut`` drops paths that
    reach a sure state (the search ends below it).  Returns the risk found, if any."""
    successors = a.successors_by_class(restart)
    sure = a.sure
    seen: set[tuple[int, int, bool]] = set()
    stack: list[tuple[int, int, bool, Optional[tuple[int, int]]]] = []
    for r in roots:
        key = (r, r, False)
        seen.add(key)
        stack.append((r, r, False, None))
    steps = 0
    while stack:
        x, y, differ, how = stack.pop()
        sx, sy = successors[x], successors[y]
        if len(sy) < len(sx):
            sx, sy = sy, sx
        for k, xs in sx.items():
            ys = sy.get(k)
            if not ys:
                continue
            steps += len(xs) * len(ys)
            if steps > BUDGET:
                raise _OverBudget
            for tx in xs:
                if cut and sure[tx]:
                    continue
                for ty in ys:
                    if cut and sure[ty]:
                        continue
                    now = differ or tx != ty
                    if now and tx == ty and not sure[tx]:
                        return _ambiguous(a, *(how or (tx, ty)))
                    origin = how if differ else ((tx, ty) if now else None)
                    key = (tx, ty, now) if tx <= ty else (ty, tx, now)
                    if key not in seen:
                        seen.add(key)
                        stack.append((key[0], key[1], now, origin))
    return None


def _ambiguous(a: Automaton, x: int, y: int) -> Risk:
    """The risk of two paths that went apart at states ``x`` and ``y``."""
    if a.is_search_state(x) or a.is_search_state(y):
        other = y if a.is_search_state(x) else x
        where = _innermost(a.origin[other])
        what = f"the repetition at position {where}" if where is not None else "its text"
        return Risk(
            True,
            f"when the pattern fails to match, the unanchored search re-reads {what} from every "
            "start position (quadratic time)",
            where,
        )
    ox, oy = a.origin[x], a.origin[y]
    common = 0
    while common < min(len(ox), len(oy)) and ox[common] == oy[common]:
        common += 1
    where = ox[common - 1] if common else _innermost(ox) if ox else _innermost(oy)
    near = f" (the repetition at position {where})" if where is not None else ""
    return Risk(
        True,
        f"the pattern can match the same text in more than one way{near}, so a failing match "
        "backtracks through every way (exponential or polynomial time)",
        where,
    )


def _innermost(origin: tuple[int, ...]) -> Optional[int]:
    return origin[-1] if origin else None
