"""Position automata of parsed ECMA-262 patterns: the common ground of the risk analysis (risk.py)
and the linear-time matcher (automaton.py).

A pattern's checked syntax tree (:func:`ecma.parse`) becomes a Glushkov automaton: one *position*
per character-consuming atom (a code point or a class, both interval sets here), and *routes*
between positions.  A route is the epsilon part of a path, from one position (or the start of the
pattern) to the next position (or the end of the match), labelled with the assertions it passes:
``^`` (START), ``$`` (END), ``\\b`` (WORD), ``\\B`` (NONWORD), and MAYFAIL for a construct the
risk model passes over but that can fail (a look-around, a back-reference).  Each label set
carries how many distinct ways lead that way (saturating at 2: the risk analysis only asks
"more than one"), so the automaton also records where a backtracking engine has two paths for
the same text.

Two modes build it:

* ``exact``: the ECMA meaning, for the matcher.  Counted repetitions are expanded into copies,
  a repetition never runs an empty iteration (ECMA rejects one once the minimum is reached, and
  for a yes/no answer an empty iteration only adds constraints), look-arounds and live
  back-references raise :class:`Unsupported`.
* ``sre``: Python's backtracking paths, for the risk analysis.  A repetition too large to expand
  is folded into one copy with a back edge (every path of the expansion maps to one of the
  fold, so ambiguity found nowhere in the fold is nowhere in the expansion); a look-around is an
  epsilon step that may fail (its body is analysed on its own); a back-reference is an optional
  copy of its group's body (it can only match text the group matched, or nothing); an
  unbounded repetition of a body that can match empty is reported (Python runs one empty
  iteration, and nested ones compound).

:func:`split_automaton` then partitions the alphabet into classes (the coarsest partition that
every position's set, and the ASCII word set when ``\\b``/``\\B`` occur, is a union of) and
splits each position by the kind of character it reads (word or not, when word boundaries
matter), so every assertion on a route is decided when the automaton is built: ``^`` needs the
start of the input, ``$`` its end, ``\\b`` a change of kind between the previous character and
the next.  Search states ("the search may start a match here") stand for the unanchored search.
"""

from __future__ import annotations

from typing import Iterable, Optional

from .ecma import (
    _WORD_SET,
    ParsedPattern,
    _Assert,
    _Disjunction,
    _Group,
    _Lit,
    _Quant,
    _Ranges,
    _Ref,
    _Set,
    _Term,
    _width,
)

__all__ = [
    "START",
    "END",
    "WORD",
    "NONWORD",
    "MAYFAIL",
    "Unsupported",
    "TooLarge",
    "Fragment",
    "Builder",
    "Automaton",
    "split_automaton",
    "group_body",
]

START, END, WORD, NONWORD, MAYFAIL = "^", "$", "b", "B", "?"

MAX_EDGES = 200_000
"""Most routes between positions an automaton may have (a repeated alternation of n
alternatives has about n**2)."""
ZERO_WIDTH_REPEATS = 64
"""Most iterations the risk model lets Python run of a repeated part that reads nothing."""

# Kinds of the character before or after a point in the input: the start ("s") or end ("e") of
# the input, a word character ("w"), another character ("n"), or any character ("x", when the
# pattern has no word-boundary assertion and the distinction does not matter).
_NO_CONDITIONS: frozenset[str] = frozenset()

Routes = dict[frozenset[str], int]  # labels -> number of distinct ways (1 or 2, saturating)
_Table = dict[int, Routes]  # position -> the routes to (first) or from (last) it


class Unsupported(Exception):
    """A construct the exact automaton cannot express (a back-reference, a look-around)."""

    def __init__(self, what: str, position: int):
        super().__init__(f"{what} (at position {position})")
        self.what = what
        self.position = position


class TooLarge(Exception):
    """The automaton would exceed its size bound."""

    def __init__(self, size: int, limit: int, message: str = ""):
        super().__init__(message or f"it needs {size} automaton positions (the bound is {limit})")
        self.size = size
        self.limit = limit


class Fragment:
    """A subexpression's part of the automaton: the routes through it that read nothing
    (``nullable``), from its start to each of its first positions (``first``) and from each of
    its last positions to its end (``last``).  Routes inside it are in the builder's follow
    table."""

    __slots__ = ("nullable", "first", "last")

    def __init__(self, nullable: Routes, first: _Table, last: _Table):
        self.nullable = nullable
        self.first = first
        self.last = last


def _add(routes: Routes, labels: frozenset[str], count: int) -> None:
    routes[labels] = min(2, routes.get(labels, 0) + count)


def _epsilon(labels: frozenset[str] = _NO_CONDITIONS) -> Fragment:
    return Fragment({labels: 1}, {}, {})


def _is_unit(fragment: Fragment) -> bool:
    """The empty pattern: one way through, no assertion, nothing read."""
    return not fragment.first and fragment.nullable == {_NO_CONDITIONS: 1}


def _extended(own: _Table, other: _Table, through: Routes) -> _Table:
    """``own`` plus ``other``'s entries reached through the routes ``through`` (before them for
    first positions, after them for last positions: a route's labels are a set, so the same);
    ``own`` itself if none are."""
    if not through or not other:
        return own
    result = dict(own)
    for key, routes in other.items():
        into = dict(result.get(key, {}))
        for b, cb in routes.items():
            for a, ca in through.items():
                _add(into, a | b, ca * cb)
        result[key] = into
    return result


def _union(tables: list[_Table]) -> _Table:
    """The entries of several first (or last) tables.  Every term makes positions of its own,
    so the tables of alternatives never share a position: no route counts to add up."""
    result: _Table = {}
    for table in tables:
        result.update(table)
    return result


class Builder:
    """Builds the position automaton of a disjunction (see the module docstring for the modes).

    ``max_positions`` bounds the positions created and ``max_edges`` the routes between them
    (:class:`TooLarge` beyond either); in ``sre``
    mode a repetition whose expansion would create more than ``fold_above`` positions is folded.
    """

    def __init__(
        self,
        parsed: ParsedPattern,
        mode: str,
        max_positions: int,
        fold_above: int = 0,
        backref_width: int = 0,
        max_edges: int = MAX_EDGES,
    ):
        if mode not in ("exact", "sre"):
            raise ValueError(f"unknown mode {mode!r}")
        self.mode = mode
        self.groups = parsed.groups
        self.max_positions = max_positions
        self.max_edges = max_edges
        self.fold_above = fold_above
        self.backref_width = backref_width
        self.sets: list[_Ranges] = []  # position -> its interval set
        self.origin: list[tuple[int, ...]] = (
            []
        )  # position -> source indexes of enclosing repetitions
        self.follow: dict[tuple[int, int], Routes] = {}
        self.flags: list[tuple[str, int]] = []  # sre mode: (risk, position) found while building
        # sre mode: (node, evaluated once) -> how many times one evaluation of the whole meets it
        # (once per copy of each enclosing counted repetition, folded ones counted by their bound)
        self.lookarounds: dict[tuple[_Group, bool], int] = {}
        self._times = 1  # the product of the folded and zero-width repetitions being built
        self.uses_word = False
        self._repetitions: tuple[int, ...] = ()
        self._once: set[int] = set()
        self._sizes: dict[int, int] = {}

    # -- entry point ------------------------------------------------------------------------

    def pattern(self, body: _Disjunction) -> Fragment:
        """The fragment of a whole pattern (a top-level disjunction), or of a look-around's body
        analysed on its own: in both, a look-around right after a leading ``^`` is evaluated at
        most once per evaluation of the whole (``^`` fails everywhere else)."""
        self._once = _leading_lookarounds(body)
        return self.disjunction(body)

    # -- combinators ------------------------------------------------------------------------

    # Fragments are never changed once made, so their dicts are shared rather than copied
    # wherever nothing is added to them (which keeps long concatenations and expansions linear).

    def concat(self, left: Fragment, right: Fragment) -> Fragment:
        if _is_unit(left):
            return right
        if _is_unit(right):
            return left
        nullable: Routes = {}
        for a, ca in left.nullable.items():
            for b, cb in right.nullable.items():
                _add(nullable, a | b, ca * cb)
        first = _extended(left.first, right.first, left.nullable)
        last = _extended(right.last, left.last, right.nullable)
        self._link(left.last, right.first)
        return Fragment(nullable, first, last)

    def _link(self, lasts: _Table, firsts: _Table) -> None:
        """Routes from each last position of one part to each first position of the next."""
        follow = self.follow
        if len(follow) + len(lasts) * len(firsts) > self.max_edges:
            raise TooLarge(
                len(follow) + len(lasts) * len(firsts),
                self.max_edges,
                f"it needs up to {len(follow) + len(lasts) * len(firsts)} automaton edges "
                f"(the bound is {self.max_edges})",
            )
        for p, ra in lasts.items():
            for q, rb in firsts.items():
                into = follow.setdefault((p, q), {})
                for a, ca in ra.items():
                    for b, cb in rb.items():
                        _add(into, a | b, ca * cb)

    @staticmethod
    def alternation(parts: list[Fragment]) -> Fragment:
        nullable: Routes = {}
        for part in parts:
            for labels, count in part.nullable.items():
                _add(nullable, labels, count)
        return Fragment(
            nullable,
            _union([part.first for part in parts]),
            _union([part.last for part in parts]),
        )

    def loop(self, body: Fragment, nullable: Routes) -> Fragment:
        """``body`` repeated (back edges from its last to its first positions), with the given
        routes through zero iterations.  Empty iterations are not paths (see the modes)."""
        self._link(body.last, body.first)
        return Fragment(nullable, body.first, body.last)

    # -- the syntax tree --------------------------------------------------------------------

    def disjunction(self, alternatives: _Disjunction) -> Fragment:
        parts: list[Fragment] = []
        for terms in alternatives:
            fragment = _epsilon()
            for term in terms:
                fragment = self.concat(fragment, self.term(term))
            parts.append(fragment)
        return parts[0] if len(parts) == 1 else self.alternation(parts)

    def term(self, node: _Term) -> Fragment:
        if isinstance(node, (_Lit, _Set)):
            return self.position(((node.cp, node.cp),) if isinstance(node, _Lit) else node.ranges)
        if isinstance(node, _Assert):
            if node.kind in ("word", "nonword"):
                self.uses_word = True
                return _epsilon(frozenset((WORD if node.kind == "word" else NONWORD,)))
            return _epsilon(frozenset((START if node.kind == "start" else END,)))
        if isinstance(node, _Group):
            if node.kind in ("capture", "group"):
                return self.disjunction(group_body(node))
            return self.lookaround(node)
        if isinstance(node, _Quant):
            return self.repetition(node)
        if isinstance(node, _Ref):
            return self.reference(node)
        raise AssertionError(f"unexpected node {node!r}")  # pragma: no cover

    def term_run(self, node: _Term, times: int) -> Fragment:
        """``term(node)`` for a part that one evaluation of its repetition runs ``times`` times
        (the look-arounds in it count each run)."""
        outer = self._times
        self._times = outer * times
        try:
            return self.term(node)
        finally:
            self._times = outer

    def position(self, ranges: _Ranges) -> Fragment:
        index = len(self.sets)
        if index >= self.max_positions:
            raise TooLarge(index + 1, self.max_positions)
        self.sets.append(ranges)
        self.origin.append(self._repetitions)
        only = {index: {_NO_CONDITIONS: 1}}
        return Fragment({}, only, {index: {_NO_CONDITIONS: 1}})

    def lookaround(self, node: _Group) -> Fragment:
        if self.mode == "exact":
            what = "a look-ahead" if node.kind in ("ahead", "nahead") else "a look-behind"
            raise Unsupported(what, node.pos)
        key = (node, id(node) in self._once)
        self.lookarounds[key] = self.lookarounds.get(key, 0) + self._times
        return _epsilon(frozenset((MAYFAIL,)))

    def reference(self, node: _Ref) -> Fragment:
        if node.out is not None:  # refers to a group that cannot have matched: always empty
            return _epsilon()
        if self.mode == "exact":
            raise Unsupported("a back-reference", node.pos)
        group = self.groups[node.number - 1]
        widest = _width(group_body(group))[1]
        if widest is None or widest > self.backref_width:
            self.flags.append(
                (
                    f"the back-reference at position {node.pos} compares text of "
                    + ("unbounded" if widest is None else f"up to {widest} characters'")
                    + " length each time it is tried",
                    node.pos,
                )
            )
        self._check_room(self.size(group))
        copy = self.disjunction(group_body(group))
        # It matches the group's text, or nothing when the group has not matched: one way to
        # match nothing, which may fail (the group may have matched text).
        return Fragment({frozenset((MAYFAIL,)): 1}, copy.first, copy.last)

    def repetition(self, node: _Quant) -> Fragment:
        lo, hi = node.min, node.max
        if hi == 0:
            return _epsilon()
        inner = self.size(node.atom)
        if inner == 0:
            return self.zero_width_repetition(node)
        self._repetitions = self._repetitions + (node.pos,)
        try:
            if self.mode == "sre" and hi != 1 and inner * _copies(lo, hi) > self.fold_above:
                return self.folded(node)
            self._check_room(inner * _copies(lo, hi))
            parts = [self.term(node.atom) for _ in range(lo)]
            if hi is None:
                body = self.term(node.atom)
                self.check_empty_loop(body, node)
                parts.append(self.loop(body, {_NO_CONDITIONS: 1}))
            elif hi > lo:
                parts.append(self.optional_chain(node.atom, hi - lo))
        finally:
            self._repetitions = self._repetitions[:-1]
        fragment = _epsilon()
        for part in parts:
            fragment = self.concat(fragment, part)
        return fragment

    def zero_width_repetition(self, node: _Quant) -> Fragment:
        """A repetition of something that reads nothing (``(?:\\b){4294967294}``): all its
        iterations check the same point, so one copy says what any number does, and route
        counts saturate at two, so two copies say it for the risk model.  ECMA rejects the
        empty iterations past the minimum; Python may run one, which the risk model keeps."""
        if self.mode == "sre" and node.min > ZERO_WIDTH_REPEATS:
            # Python runs every one of the minimum iterations, each time the repetition is met.
            self.flags.append(
                (
                    f"the repetition at position {node.pos} runs {node.min} iterations that "
                    "read nothing each time it is tried",
                    node.pos,
                )
            )
        reference = _live_reference(node.atom) if self.mode == "exact" else None
        if reference is not None:
            # a back-reference has no position but reads the group's text: `^(a)\1*$` matches
            # "aaa", so its iterations are not empty ones
            raise Unsupported("a back-reference", reference.pos)
        copies = min(node.min, 2 if self.mode == "sre" else 1)
        optional = self.mode == "sre" and (node.max is None or node.max > node.min)
        fragment = _epsilon()
        if not copies and not optional:
            return fragment
        # Built once and used for every copy: it has no positions, so the copies share nothing
        # that differs, and building it again per copy made nested ones exponential in depth.
        # Python runs every minimum iteration (and tries one more where more are allowed): a
        # look-around in the part runs that many times
        part = self.term_run(node.atom, max(1, node.min + optional))
        for _ in range(copies):
            fragment = self.concat(fragment, part)
        if optional:
            fragment = self.concat(fragment, self.alternation([part, _epsilon()]))
        return fragment

    def optional_chain(self, atom: _Term, count: int) -> Fragment:
        """``(X(X(X)?)?)?`` with ``count`` copies: iteration k+1 only after iteration k.  When X
        cannot match empty, its routes are direct: each copy's last positions lead to the next
        copy and out, so the size stays linear in ``count``."""
        copies = [self.term(atom) for _ in range(count)]
        if any(copy.nullable for copy in copies):
            tail: Optional[Fragment] = None
            for copy in reversed(copies):
                inner = copy if tail is None else self.concat(copy, tail)
                tail = self.alternation([inner, _epsilon()])
            assert tail is not None
            return tail
        for before, after in zip(copies, copies[1:]):
            self._link(before.last, after.first)
        last: _Table = {}
        for copy in copies:
            last.update(copy.last)  # positions are distinct between copies
        return Fragment({_NO_CONDITIONS: 1}, copies[0].first, last)

    def folded(self, node: _Quant) -> Fragment:
        body = self.term_run(node.atom, node.max if node.max is not None else 1)  # (per char)
        self.check_empty_loop(body, node)
        nullable: Routes = {_NO_CONDITIONS: 1} if node.min == 0 else dict(body.nullable)
        return self.loop(body, nullable)

    def check_empty_loop(self, body: Fragment, node: _Quant) -> None:
        if self.mode == "sre" and body.nullable:
            self.flags.append(
                (
                    f"the repetition at position {node.pos} repeats a part that can match "
                    "the empty string",
                    node.pos,
                )
            )

    # -- sizes ------------------------------------------------------------------------------

    def _check_room(self, more: int) -> None:
        if len(self.sets) + more > self.max_positions:
            raise TooLarge(len(self.sets) + more, self.max_positions)

    def size(self, node: _Term) -> int:
        """Positions that building ``node`` creates in this mode."""
        key = id(node)
        if key not in self._sizes:
            self._sizes[key] = self._size(node)
        return self._sizes[key]

    def _size(self, node: _Term) -> int:
        if isinstance(node, (_Lit, _Set)):
            return 1
        if isinstance(node, _Group):
            if node.kind not in ("capture", "group"):
                return 0
            return sum(self.size(t) for terms in group_body(node) for t in terms)
        if isinstance(node, _Quant):
            if node.max == 0:
                return 0
            inner = self.size(node.atom)
            copies = _copies(node.min, node.max)
            if self.mode == "sre" and node.max != 1 and inner * copies > self.fold_above:
                return inner
            return inner * copies
        if isinstance(node, _Ref):
            if node.out is not None or self.mode == "exact":
                return 0
            return self.size(self.groups[node.number - 1])
        return 0


def group_body(node: _Group) -> _Disjunction:
    """A parsed group's disjunction (the parser always sets it)."""
    assert node.body is not None
    return node.body


def _live_reference(node: _Term) -> Optional[_Ref]:
    """A back-reference in ``node`` that may read text (its group can have matched), outside
    look-arounds (which read nothing); None if there is none."""
    if isinstance(node, _Ref):
        return node if node.out is None else None
    if isinstance(node, _Quant):
        return _live_reference(node.atom) if node.max != 0 else None
    if isinstance(node, _Group) and node.kind in ("capture", "group"):
        found = (_live_reference(term) for terms in group_body(node) for term in terms)
        return next((ref for ref in found if ref is not None), None)
    return None


def _copies(lo: int, hi: Optional[int]) -> int:
    """Copies of the body an expansion of {lo,hi} makes."""
    return lo + 1 if hi is None else hi


def _leading_lookarounds(body: _Disjunction) -> set[int]:
    """Look-arounds that a search evaluates at most once: those right after a ``^`` that opens
    a top-level alternative, before anything that reads (the ``^`` fails everywhere else)."""
    once: set[int] = set()
    for terms in body:
        if not terms or not (isinstance(terms[0], _Assert) and terms[0].kind == "start"):
            continue
        for term in terms[1:]:
            if isinstance(term, _Assert):
                continue
            if isinstance(term, _Group) and term.kind not in ("capture", "group"):
                once.add(id(term))
                continue
            break
    return once


# ---------------------------------------------------------------------------------------------
# The split automaton: classes, kinds, and states with their assertions decided.


class Automaton:
    """A position automaton over character classes with every assertion decided.

    States: ``init0`` (the search at the start of the input), one search state per kind of
    previous character, and one state per (position, kind of the character it reads).
    ``edges[s]`` maps each target state to its number of routes (1, or 2 for "more than one");
    ``reads[t]`` are the classes a target reads; ``accept[s]`` the classes (and ``end_class`` for
    the end of the input) before which a match can end after ``s``, and ``sure[s]`` whether one
    ends there whatever follows (through routes that cannot fail).  ``restart[k]`` is the search
    state after a character of class ``k``, or None when a match can only start at the
    beginning (every route from the search states needs ``^``).  The alphabet: code points from
    ``bounds[i]`` up to the next bound are in class ``interval_class[i]``.
    """

    def __init__(self) -> None:
        self.bounds: list[int] = []
        self.interval_class: list[int] = []
        self.class_kind: list[str] = []
        self.state_kind: list[str] = []
        self.state_position: list[int] = []  # -1 for the search states
        self.reads: list[frozenset[int]] = []
        self.edges: list[dict[int, int]] = []
        self.accept: list[frozenset[int]] = []
        self.sure: list[bool] = []
        self.init0 = 0
        self.restart: list[Optional[int]] = []
        self.origin: list[tuple[int, ...]] = (
            []
        )  # per state: source indexes of enclosing repetitions

    @property
    def n_classes(self) -> int:
        return len(self.class_kind)

    @property
    def end_class(self) -> int:
        return len(self.class_kind)

    def successors_by_class(self, restart: bool) -> list[dict[int, list[int]]]:
        """Per state, per class: the states reached by reading one character of that class;
        with ``restart``, the search states also move on to the next search state."""
        table: list[dict[int, list[int]]] = []
        for s, targets in enumerate(self.edges):
            by_class: dict[int, list[int]] = {}
            for t in targets:
                for k in self.reads[t]:
                    by_class.setdefault(k, []).append(t)
            if restart and self.state_position[s] < 0:
                for k, nxt in enumerate(self.restart):
                    if nxt is not None:
                        by_class.setdefault(k, []).append(nxt)
            table.append(by_class)
        return table

    def is_search_state(self, state: int) -> bool:
        return self.state_position[state] < 0


def _feasible(labels: Iterable[str], prev: str, nxt: str) -> bool:
    """Whether a route's assertions hold between a character of kind ``prev`` and one of kind
    ``nxt`` (MAYFAIL is not decided here: the risk model lets it pass)."""
    for label in labels:
        if label == START:
            if prev != "s":
                return False
        elif label == END:
            if nxt != "e":
                return False
        elif label == WORD:
            if (prev == "w") == (nxt == "w"):
                return False
        elif label == NONWORD:
            if (prev == "w") != (nxt == "w"):
                return False
    return True


def _partition(
    sets: list[_Ranges], word: bool
) -> tuple[list[int], list[int], list[frozenset[int]]]:
    """The coarsest partition of the code points that every one of the (distinct) ``sets``, and
    the word set if ``word``, is a union of: the interval starts, the class of each interval,
    and each class's signature (the indexes of the sets containing it; -1 for the word set)."""
    members = list(enumerate(sets))
    if word:
        members.append((-1, _WORD_SET))
    events: dict[int, list[tuple[int, int]]] = {0: []}
    for ident, ranges in members:
        for lo, hi in ranges:
            events.setdefault(lo, []).append((ident, 1))
            events.setdefault(hi + 1, []).append((ident, -1))
    active: set[int] = set()
    bounds: list[int] = []
    interval_class: list[int] = []
    signatures: dict[frozenset[int], int] = {}
    for point in sorted(events):
        if point > 0x10FFFF:
            break
        for ident, delta in events[point]:
            if delta > 0:
                active.add(ident)
            else:
                active.discard(ident)
        cls = signatures.setdefault(frozenset(active), len(signatures))
        if interval_class and interval_class[-1] == cls:
            continue
        bounds.append(point)
        interval_class.append(cls)
    by_class: list[frozenset[int]] = [frozenset()] * len(signatures)
    for signature, cls in signatures.items():
        by_class[cls] = signature
    return bounds, interval_class, by_class


def split_automaton(builder: Builder, fragment: Fragment) -> Automaton:
    """Classes, kinds and decided assertions for a built pattern (see :class:`Automaton`)."""
    a = Automaton()
    word = builder.uses_word
    distinct: dict[_Ranges, int] = {}
    for ranges in builder.sets:
        distinct.setdefault(ranges, len(distinct))
    a.bounds, a.interval_class, signatures = _partition(list(distinct), word)
    kinds_of = ("w", "n") if word else ("x",)
    a.class_kind = [("w" if -1 in sig else "n") if word else "x" for sig in signatures]
    readers: dict[int, set[int]] = {}
    for cls, sig in enumerate(signatures):
        for ident in sig:
            readers.setdefault(ident, set()).add(cls)

    def new_state(position: int, kind: str, reads: frozenset[int], origin: tuple[int, ...]) -> int:
        a.state_kind.append(kind)
        a.state_position.append(position)
        a.reads.append(reads)
        a.origin.append(origin)
        return len(a.state_kind) - 1

    a.init0 = new_state(-1, "s", frozenset(), ())
    search_state = {kind: new_state(-1, kind, frozenset(), ()) for kind in kinds_of}
    split: list[list[int]] = []  # position -> its states
    for p, ranges in enumerate(builder.sets):
        classes = readers.get(distinct[ranges], set())
        states: list[int] = []
        for kind in kinds_of:
            mine = frozenset(k for k in classes if a.class_kind[k] == kind)
            if mine:
                states.append(new_state(p, kind, mine, builder.origin[p]))
        split.append(states)

    n = len(a.state_kind)
    a.edges = [{} for _ in range(n)]
    final: list[dict[str, int]] = [{} for _ in range(n)]  # next kind -> routes that end there
    certain: list[set[str]] = [set() for _ in range(n)]  # next kinds a route ends at surely
    next_kinds = kinds_of + ("e",)

    def connect(sources: list[int], targets: _Table, ending: Routes) -> None:
        for s in sources:
            prev = a.state_kind[s]
            edges = a.edges[s]
            for q, routes in targets.items():
                for t in split[q]:
                    nxt = a.state_kind[t]
                    count = sum(c for labels, c in routes.items() if _feasible(labels, prev, nxt))
                    if count:
                        edges[t] = min(2, edges.get(t, 0) + count)
            for nxt in next_kinds:
                for labels, count in ending.items():
                    if _feasible(labels, prev, nxt):
                        final[s][nxt] = min(2, final[s].get(nxt, 0) + count)
                        if MAYFAIL not in labels:
                            certain[s].add(nxt)

    connect([a.init0, *search_state.values()], fragment.first, fragment.nullable)
    outgoing: dict[int, dict[int, Routes]] = {}
    for (p, q), routes in builder.follow.items():
        outgoing.setdefault(p, {})[q] = routes
    for p, states in enumerate(split):
        connect(states, outgoing.get(p, {}), fragment.last.get(p, {}))

    end = len(a.class_kind)
    for s in range(n):
        ends = final[s]
        classes = {k for k, kind in enumerate(a.class_kind) if ends.get(kind)}
        if ends.get("e"):
            classes.add(end)
        a.accept.append(frozenset(classes))
        a.sure.append(all(kind in certain[s] for kind in next_kinds))
    useful = {kind: s for kind, s in search_state.items() if a.edges[s] or a.accept[s]}
    a.restart = [useful.get(kind) for kind in a.class_kind]
    return a
