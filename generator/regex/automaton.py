"""Compile an ECMA-262 pattern into the tables of a linear-time matcher (matcher.py).

The pattern's exact position automaton (nfa.py, ``exact`` mode: the ECMA meaning of
``new RegExp(source, "u").test(s)``, an unanchored search over code points with ``^``/``$`` at
the input's ends and ``\\b``/``\\B`` on the ASCII word set) is determined by subset construction
over its character classes.  If the DFA fits ``MAX_DFA_CELLS`` (states x classes, counted while
it is built), it is minimised (Moore), classes that every state treats alike are merged, and it
is encoded for ``_dfa_search``; otherwise the automaton itself is encoded for ``_nfa_search``.
Either way the tables are plain literals: a tuple of strings and ints, states and classes
written as characters (compact in source, and black leaves long strings on one line).

Patterns with a back-reference that can match text, or a look-around, have no such automaton
(:class:`nfa.Unsupported`); a pattern whose counted repetitions expand to more than
``MAX_POSITIONS`` positions is too large (:class:`nfa.TooLarge`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterable, Optional, Union

from .ecma import ParsedPattern
from .matcher import _DfaTable, _NfaTable
from .nfa import Automaton, Builder, TooLarge, split_automaton

__all__ = [
    "MAX_POSITIONS",
    "MAX_DFA_CELLS",
    "MAX_NFA_STATES",
    "CompiledAutomaton",
    "compile_automaton",
]

MAX_POSITIONS = 2000
"""Most positions of the exact automaton (each counted repetition is expanded into copies)."""
MAX_DFA_CELLS = 4096
"""Most cells (states x classes) of a DFA built at compile time; beyond it, the NFA is used."""
MAX_NFA_STATES = 600
"""Most states of an automaton run as an NFA (its time per character grows with them: about
0.4 s for 10,000 characters at this bound in the worst case, docs/regex.md)."""

_ACCEPT = -1
_DEAD = -2


@dataclass(frozen=True)
class CompiledAutomaton:
    """The matcher function's name (``_dfa_search`` or ``_nfa_search``) and its table."""

    function: str
    table: Union[_DfaTable, _NfaTable]
    states: int
    classes: int


def compile_automaton(
    parsed: ParsedPattern,
    max_positions: int = MAX_POSITIONS,
    max_dfa_cells: int = MAX_DFA_CELLS,
    max_nfa_states: int = MAX_NFA_STATES,
) -> CompiledAutomaton:
    """The linear-time matcher table of a parsed pattern; raises nfa.Unsupported or
    nfa.TooLarge when there is none."""
    builder = Builder(parsed, "exact", max_positions=max_positions)
    fragment = builder.pattern(parsed.body)
    automaton = split_automaton(builder, fragment)
    dfa = _determinize(automaton, max_dfa_cells)
    if dfa is not None:
        return _encode_dfa(automaton, *dfa)
    if len(automaton.edges) > max_nfa_states:
        raise TooLarge(
            len(automaton.edges),
            max_nfa_states,
            f"its DFA needs more than {max_dfa_cells} cells and its NFA has "
            f"{len(automaton.edges)} states (the bound is {max_nfa_states})",
        )
    return _encode_nfa(automaton)


# ---------------------------------------------------------------------------------------------
# Subset construction, minimisation, class merging.


def _determinize(a: Automaton, max_cells: int) -> Optional[tuple[int, list[list[int]], list[bool]]]:
    """(start, rows, at_end) of the DFA, or None if it needs more than ``max_cells`` cells.
    Row entries are state numbers, _ACCEPT (a match is found) or _DEAD (none can be)."""
    if a.sure[a.init0]:  # every input matches: a table of one cell, the start
        return (_ACCEPT, [], []) if max_cells >= 1 else None
    width = a.n_classes
    successors = a.successors_by_class(restart=False)
    restarts = any(r is not None for r in a.restart)
    start = frozenset((a.init0,))
    index = {start: 0}
    subsets = [start]
    rows: list[list[int]] = []
    while len(rows) < len(subsets):
        subset = subsets[len(rows)]
        row = []
        for k in range(width):
            if any(k in a.accept[s] for s in subset):
                row.append(_ACCEPT)
                continue
            targets: set[int] = set()
            for s in subset:
                targets.update(successors[s].get(k, ()))
            again = a.restart[k]
            if again is not None:
                targets.add(again)
            if not targets and not restarts:  # (else the search may start again later)
                row.append(_DEAD)
            elif any(a.sure[t] for t in targets):
                row.append(_ACCEPT)
            else:
                key = frozenset(targets)
                number = index.get(key)
                if number is None:
                    number = index[key] = len(subsets)
                    subsets.append(key)
                    if len(subsets) * width > max_cells:
                        return None
                row.append(number)
        rows.append(row)
    at_end = [any(a.end_class in a.accept[s] for s in subset) for subset in subsets]
    return 0, rows, at_end


def _settle(
    start: int, rows: list[list[int]], at_end: list[bool]
) -> tuple[int, list[list[int]], list[bool]]:
    """States from which every input ends in a match become _ACCEPT, and states from which none
    does become _DEAD, so the matcher stops there instead of reading the rest of the input
    (``(\\w+\\s?)*$`` matches every string); then the states left unreachable are dropped."""
    n = len(rows)
    for outcome, final in ((_ACCEPT, True), (_DEAD, False)):
        settled = {i for i in range(n) if at_end[i] == final}
        changed = True
        while changed:
            changed = False
            for i in list(settled):
                if any(t != outcome and t not in settled for t in rows[i]):
                    settled.discard(i)
                    changed = True
        if settled:
            rows = [[outcome if t in settled else t for t in row] for row in rows]
            if start in settled:
                return outcome, [], []
    order = {start: 0}
    stack = [start]
    while stack:
        for t in rows[stack.pop()]:
            if t >= 0 and t not in order:
                order[t] = len(order)
                stack.append(t)
    kept = sorted(order, key=order.__getitem__)
    new_rows = [[order[t] if t >= 0 else t for t in rows[i]] for i in kept]
    return 0, new_rows, [at_end[i] for i in kept]


def _minimize(
    start: int, rows: list[list[int]], at_end: list[bool]
) -> tuple[int, list[list[int]], list[bool]]:
    """Moore's partition refinement: states no input tells apart become one."""
    block = [1 if e else 0 for e in at_end]
    count = len(set(block))
    while True:
        signatures: dict[tuple[int, ...], int] = {}
        refined: list[int] = []
        for i, row in enumerate(rows):
            signature = (block[i],) + tuple(block[t] if t >= 0 else t for t in row)
            refined.append(signatures.setdefault(signature, len(signatures)))
        block = refined
        if len(signatures) == count:
            break
        count = len(signatures)
    merged: list[Optional[list[int]]] = [None] * count
    ends = [False] * count
    for i, row in enumerate(rows):
        b = block[i]
        if merged[b] is None:
            merged[b] = [block[t] if t >= 0 else t for t in row]
            ends[b] = at_end[i]
    return (block[start] if start >= 0 else start), [r for r in merged if r is not None], ends


def _merge_columns(rows: list[list[int]], width: int) -> tuple[list[int], list[list[int]]]:
    """Classes every state treats alike become one: (old class -> new class, new rows)."""
    columns: dict[tuple[int, ...], int] = {}
    remap: list[int] = []
    for k in range(width):
        column = tuple(row[k] for row in rows)
        remap.append(columns.setdefault(column, len(columns)))
    keep = [0] * len(columns)
    for k, new in enumerate(remap):
        keep[new] = k
    return remap, [[row[k] for k in keep] for row in rows]


# ---------------------------------------------------------------------------------------------
# Encoding.


_BASE = 48  # numbers in tables are characters from "0" up (see matcher.py)


def _chars(values: Iterable[int]) -> str:
    return "".join(chr(_BASE + v) for v in values)


def _class_strings(a: Automaton, remap: list[int]) -> tuple[str, str, str]:
    """(ascii_classes, bounds, classes) for the matcher's character lookup."""

    def class_of(cp: int) -> int:
        return remap[a.interval_class[bisect_right(a.bounds, cp) - 1]]

    ascii_classes = _chars(class_of(cp) for cp in range(128))
    bounds = [128]
    classes = [class_of(128)]
    for lo, cls in zip(a.bounds, a.interval_class):
        if lo <= 128 or remap[cls] == classes[-1]:
            continue
        bounds.append(lo)
        classes.append(remap[cls])
    return ascii_classes, "".join(map(chr, bounds)), _chars(classes)


def _encode_dfa(
    a: Automaton, start: int, rows: list[list[int]], at_end: list[bool]
) -> CompiledAutomaton:
    if rows:
        start, rows, at_end = _settle(start, rows, at_end)
    if rows:
        start, rows, at_end = _minimize(start, rows, at_end)
        remap, rows = _merge_columns(rows, a.n_classes)
    else:
        remap = [0] * a.n_classes
    width = len(rows[0]) if rows else 1
    stop = _BASE + len(rows) * width

    def code(target: int) -> int:
        if target < 0:
            return stop if target == _ACCEPT else stop + 1
        return _BASE + target * width

    ascii_classes, bounds, classes = _class_strings(a, remap)
    # Cell (state, class) is at state's code + class's code = 2 * _BASE + state * width + class.
    table = "0" * (2 * _BASE) + "".join(chr(code(t)) for row in rows for t in row)
    ends = "".join("1" if e else "0" for e in at_end)
    dfa: _DfaTable = (ascii_classes, bounds, classes, table, code(start), stop, ends, width)
    return CompiledAutomaton("_dfa_search", dfa, len(rows), width)


def _encode_nfa(a: Automaton) -> CompiledAutomaton:
    ascii_classes, bounds, classes = _class_strings(a, list(range(a.n_classes)))
    n = len(a.edges)

    def mask(states: Iterable[int]) -> int:
        return sum(1 << s for s in set(states))

    successors = tuple(_chars(sorted(a.edges[s])) for s in range(n))
    reads = tuple(mask(s for s in range(n) if k in a.reads[s]) for k in range(a.n_classes))
    accept = tuple(mask(s for s in range(n) if k in a.accept[s]) for k in range(a.n_classes + 1))
    restart = tuple(0 if r is None else 1 << r for r in a.restart)
    sure = mask(s for s in range(n) if a.sure[s])
    nfa: _NfaTable = (
        ascii_classes,
        bounds,
        classes,
        successors,
        reads,
        accept,
        1 << a.init0,
        restart,
        sure,
    )
    return CompiledAutomaton("_nfa_search", nfa, n, a.n_classes)
