"""Compile an ECMA-262 pattern into the tables of a linear-time matcher (matcher.py).

The pattern's exact position automaton (nfa.py, ``exact`` mode: the ECMA meaning of
``new RegExp(source, "u").test(s)``, an unanchored search over code points with ``^``/``$`` at
the input's ends and ``\\b``/``\\B`` on the ASCII word set) is determined by subset construction
over its character classes.  If the DFA fits ``MAX_DFA_CELLS`` (states x classes, counted while
it is built), it is minimised (Moore), classes that every state treats alike are merged, and it
is encoded for ``_dfa_search``; otherwise the automaton itself is encoded for ``_nfa_search``.
Either way the tables are plain literals: a tuple of strings and ints, states and classes
written as characters (compact in source, and black leaves long strings on one line).

A pattern ``^(?!X)Y`` or ``^(?=X)Y`` (one alternative: ``^``, then one or more look-aheads,
then the rest) is regular: it matches s iff no prefix (for ``(?=``: some prefix) of s matches
``^(?:X)`` and some prefix matches ``^Y``, each an exact automaton searched from the start of s.
Each is determinized on its own, and the DFA of the pattern is their product over a common
partition of the alphabet (bounded by ``MAX_DFA_CELLS`` too; there is no NFA form, so beyond it
the pattern is too large).  Other look-arounds, and back-references that can match text, have no
automaton (:class:`nfa.Unsupported`); a pattern whose counted repetitions expand to more than
``MAX_POSITIONS`` positions is too large (:class:`nfa.TooLarge`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterable, Optional, Union

from .ecma import ParsedPattern, _Assert, _Disjunction, _Group, _Term
from .matcher import _DfaTable, _NfaTable
from .nfa import Automaton, Builder, TooLarge, group_body, split_automaton

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
    leading = _leading_lookaheads(parsed)
    if leading is not None:
        return _compile_lookaheads(parsed, *leading, max_positions, max_dfa_cells)
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
# Look-aheads at the start: a product of DFAs.


def _leading_lookaheads(
    parsed: ParsedPattern,
) -> Optional[tuple[_Assert, list[_Group], list[_Term]]]:
    """(the ``^``, the look-aheads right after it, the terms after them) of a pattern of one
    alternative ``^(?!X)...(?=Z)Y``; None for any other pattern, or one with a back-reference
    (which the exact automaton refuses, as before)."""
    if len(parsed.body) != 1 or parsed.parser.refs:
        return None
    terms = parsed.body[0]
    if not terms or not isinstance(terms[0], _Assert) or terms[0].kind != "start":
        return None
    lookaheads: list[_Group] = []
    for term in terms[1:]:
        if not (isinstance(term, _Group) and term.kind in ("ahead", "nahead")):
            break
        lookaheads.append(term)
    if not lookaheads:
        return None
    return terms[0], lookaheads, terms[1 + len(lookaheads) :]


def _prefix_automaton(
    parsed: ParsedPattern, start: _Assert, body: _Disjunction, max_positions: int
) -> tuple[Automaton, int]:
    """The exact automaton of ``^(?:body)``: its search finds a match iff some prefix of the
    input matches ``body`` from the input's start (with ``^``, ``$`` and ``\\b`` decided
    there); and the positions it used."""
    builder = Builder(parsed, "exact", max_positions=max_positions)
    fragment = builder.concat(builder.term(start), builder.disjunction(body))
    return split_automaton(builder, fragment), len(builder.sets)


def _compile_lookaheads(
    parsed: ParsedPattern,
    start: _Assert,
    lookaheads: list[_Group],
    rest: list[_Term],
    max_positions: int,
    max_dfa_cells: int,
) -> CompiledAutomaton:
    """The DFA of ``^(?!X)...(?=Z)Y`` (see the module docstring)."""
    parts: list[tuple[bool, _Disjunction]] = [
        (group.kind == "nahead", group_body(group)) for group in lookaheads
    ]
    parts.append((False, [rest]))
    automata: list[tuple[bool, Automaton, int, list[list[int]], list[bool]]] = []
    room = max_positions
    for negated, body in parts:
        automaton, used = _prefix_automaton(parsed, start, body, room)
        room -= used
        dfa = _determinize(automaton, max_dfa_cells)
        if dfa is None:
            raise TooLarge(
                max_dfa_cells + 1,
                max_dfa_cells,
                f"the DFA of one of its look-aheads' parts needs more than {max_dfa_cells} cells "
                "(a look-ahead has no NFA form)",
            )
        part_start, part_rows, part_ends = dfa
        automata.append((negated, automaton, part_start, part_rows, part_ends))
    common, columns = _common_classes([a for _, a, *_ in automata])
    width = common.n_classes
    # A part in _ACCEPT or _DEAD has its answer: what it is for the pattern depends on whether
    # the part is negated (a prefix matching X fails the pattern), and it stays.
    met = [_DEAD if negated else _ACCEPT for negated, *_ in automata]
    failed = [_ACCEPT if negated else _DEAD for negated, *_ in automata]

    def product(values: tuple[int, ...]) -> Union[int, tuple[int, ...]]:
        """_DEAD if some part has failed, _ACCEPT if all have their answer, else the state."""
        if any(v == f for v, f in zip(values, failed)):
            return _DEAD
        if all(v == m for v, m in zip(values, met)):
            return _ACCEPT
        return values

    first = product(tuple(starting for _, _, starting, _, _ in automata))
    if isinstance(first, int):
        return _encode_dfa(common, first, [], [])
    index = {first: 0}
    states = [first]
    rows: list[list[int]] = []
    while len(rows) < len(states):
        values = states[len(rows)]
        row = []
        for k in range(width):
            moved = tuple(
                v if v < 0 else part_rows[v][column[k]]
                for v, (_, _, _, part_rows, _), column in zip(values, automata, columns)
            )
            target = product(moved)
            if isinstance(target, int):
                row.append(target)
                continue
            number = index.get(target)
            if number is None:
                number = index[target] = len(states)
                states.append(target)
                if len(states) * width > max_dfa_cells:
                    raise TooLarge(
                        len(states) * width,
                        max_dfa_cells,
                        f"the DFA of its look-aheads needs more than {max_dfa_cells} cells "
                        "(a look-ahead has no NFA form)",
                    )
            row.append(number)
        rows.append(row)
    at_end = [
        all(
            (v == _ACCEPT or (v >= 0 and part_ends[v])) != negated
            for v, (negated, _, _, _, part_ends) in zip(values, automata)
        )
        for values in states
    ]
    return _encode_dfa(common, 0, rows, at_end)


def _common_classes(automata: list[Automaton]) -> tuple[Automaton, list[list[int]]]:
    """An automaton holding only the coarsest partition of the alphabet that refines every
    one of ``automata``'s classes, and per automaton, each common class's class in it."""
    points = sorted({point for a in automata for point in a.bounds})
    common = Automaton()
    classes: dict[tuple[int, ...], int] = {}
    for point in points:
        key = tuple(a.interval_class[bisect_right(a.bounds, point) - 1] for a in automata)
        number = classes.setdefault(key, len(classes))
        if common.interval_class and common.interval_class[-1] == number:
            continue
        common.bounds.append(point)
        common.interval_class.append(number)
    common.class_kind = ["x"] * len(classes)
    columns = [[0] * len(classes) for _ in automata]
    for key, number in classes.items():
        for column, part_class in zip(columns, key):
            column[number] = part_class
    return common, columns


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
