"""The linear-time pattern matchers whose source is copied into generated modules.

Like generator/primitives.py's functions, each function here is copied verbatim (see
plan.matcher_sources) and may use only the names in IMPORTS, its arguments and builtins.  Both
answer ``new RegExp(source, "u").test(s)`` for the pattern that automaton.py compiled into the
table ``t`` (plain string and int literals), in time linear in ``len(s)``:

* ``_dfa_search``: a DFA built at compile time, one table step per character;
* ``_nfa_search``: the position automaton run on sets of states (Thompson's simulation), for
  patterns whose DFA would be too large; the sets met are cached for the call (a bounded cache),
  so repetitive input runs almost as fast as a DFA and any input stays linear.

Characters map to classes through ``ascii_classes`` (code points below 128, one character per
code point holding the class number) and, above, ``bounds`` (the first code point of each
interval, as characters, searched with bisect) with ``classes`` (each interval's class).
Numbers are written as characters from U+0030 ("0") up, so small tables are printable ASCII.
"""

from __future__ import annotations

from bisect import bisect_right as _bisect_right
from typing import Any, Callable

__all__ = [
    "IMPORTS",
    "ALIASES",
    "FUNCTIONS",
    "_DfaTable",
    "_NfaTable",
    "_dfa_search",
    "_nfa_search",
]

# What the copied functions need from the standard library, as the module must import it.
IMPORTS = {"_bisect_right": "from bisect import bisect_right as _bisect_right"}

# (ascii_classes, bounds, classes, table, start, stop, at_end, width): ``table[state + class]``
# is the next state (``ord`` of both, classes counted from 48 and states 48 + a multiple of
# ``width``, the number of classes, so the table opens with 96 characters of padding);
# ``stop`` means a match was found, ``stop + 1`` that none can be any more;
# ``at_end[(state - 48) // width]`` is "1" where a match ends at the end of the input.
_DfaTable = tuple[str, str, str, str, int, int, str, int]

# (ascii_classes, bounds, classes, successors, reads, accept, start, restart, sure): sets of
# states are ints (bit s for state s).  ``successors[s]`` are the states after state ``s`` (as
# characters numbered from 48), ``reads[k]`` the states that read class ``k``, ``accept[k]`` the
# states after which a match ends before a character of class ``k`` (``accept[-1]``: before the
# end of the input), ``restart[k]`` the search state after a character of class ``k`` (0 when a
# match can only start at the beginning), ``start`` the first set, ``sure`` the states after
# which a match has ended whatever follows.
_NfaTable = tuple[
    str, str, str, tuple[str, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int
]


def _dfa_search(s: str, t: _DfaTable) -> bool:
    """Whether the pattern compiled into the DFA table ``t`` matches somewhere in ``s``."""
    ascii_classes, bounds, classes, table, state, stop, at_end, width = t
    if state >= stop:
        return state == stop
    for ch in s:
        o = ord(ch)
        if o < 128:
            state = ord(table[state + ord(ascii_classes[o])])
        else:
            state = ord(table[state + ord(classes[_bisect_right(bounds, ch) - 1])])
        if state >= stop:
            return state == stop
    return at_end[(state - 48) // width] == "1"


def _nfa_search(s: str, t: _NfaTable) -> bool:
    """Whether the pattern compiled into the NFA table ``t`` matches somewhere in ``s``."""
    ascii_classes, bounds, classes, successors, reads, accept, current, restart, sure = t
    seen: dict[tuple[int, int], int] = {}
    follow: dict[int, int] = {}
    restarts = any(restart)
    size = (len(successors) + 7) // 8
    for ch in s:
        o = ord(ch)
        k = ord(ascii_classes[o] if o < 128 else classes[_bisect_right(bounds, ch) - 1]) - 48
        following = seen.get((current, k))
        if following is None:
            if current & accept[k]:
                return True
            reached = 0
            for chunk, byte in enumerate(current.to_bytes(size, "little")):
                if byte:
                    key = chunk << 8 | byte
                    mask = follow.get(key)
                    if mask is None:  # the successors of these (up to 8) states, once per call
                        mask = 0
                        for bit in range(8):
                            if byte >> bit & 1:
                                for target in successors[chunk * 8 + bit]:
                                    mask |= 1 << (ord(target) - 48)
                        follow[key] = mask
                    reached |= mask
            following = (reached & reads[k]) | restart[k]
            if following & sure:
                return True
            if not following and not restarts:
                return False
            if len(seen) >= 4096:
                seen.clear()
            seen[(current, k)] = following
        current = following
    return bool(current & accept[-1])


FUNCTIONS: dict[str, Callable[[str, Any], bool]] = {
    "_dfa_search": _dfa_search,
    "_nfa_search": _nfa_search,
}

# The type aliases the functions' annotations name, as module-level source (copied before them).
ALIASES = {
    "_dfa_search": ("_DfaTable", "_DfaTable = tuple[str, str, str, str, int, int, str, int]"),
    "_nfa_search": (
        "_NfaTable",
        "_NfaTable = tuple[\n"
        "    str, str, str, tuple[str, ...], tuple[int, ...], tuple[int, ...], int, "
        "tuple[int, ...], int\n"
        "]",
    ),
}
