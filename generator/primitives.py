"""Leaf primitives shared by the reference interpreter and the generated modules.

The generated modules are standalone, so the emitter copies the source of the functions below
(the ones a module needs, see DEPENDS) into each module; the reference interpreter imports them.
Each function may only use the names in PRELUDE_IMPORTS and the other functions of this file.

Semantics (docs/ARCHITECTURE.md, "Semantics"):
- bool is never a number; a float stands for the decimal number of its shortest repr, so 0.1 is
  exactly one tenth; int, float and Decimal compare exactly; 1.0 is an integer.
- JSON equality: 1 == 1.0, true != 1, objects ignore key order, arrays keep it.
- No number is ever materialised beyond its own size: a Decimal like 1E+999999999 or
  1E-999999999 (eleven bytes of JSON text read with parse_float=Decimal) is compared, frozen and
  divided by its sign, exponent and digits; integral numbers of _BIG's magnitude or more are
  Decimals in keys and comparisons, and an int that large is converted by _big_decimal (close to
  linear time) rather than Decimal(int) (quadratic in its digits).
"""

from __future__ import annotations

from _thread import allocate_lock as _allocate_lock
from _thread import start_new_thread as _start_new_thread
from decimal import MAX_PREC as _MAX_PREC
from decimal import Context as _Context
from decimal import Decimal as _Decimal
from typing import Any, Final

# What the copied functions need from the standard library, as the module must import it.
PRELUDE_IMPORTS = {
    "_Decimal": "from decimal import Decimal as _Decimal",
    "_Context": "from decimal import MAX_PREC as _MAX_PREC, Context as _Context",
    "_thread": "from _thread import allocate_lock as _allocate_lock, start_new_thread as _start_new_thread",
}

# Nesting depth to which values are frozen into hashable keys; deeper values are compared with
# the iterative _json_equal instead, so no instance can exhaust the Python stack.
_FREEZE_DEPTH = 48
_TOO_DEEP = object()
_NO_MATCH = object()
# What `x.get(name, _MISSING)` gives for a name x does not hold: a required property is looked up
# once (a dict look-up compares the key's text), where `in` and then `x[name]` look it up twice.
_MISSING: Final[Any] = object()
# Types whose values are equal in Python exactly when they are equal as JSON: not bool (True == 1
# in Python only), not float (NaN; floats are left to _freeze with the rest).
_PLAIN_TYPES = frozenset({str, int, type(None)})
# The exact types json.loads makes: a value of any other type is read through _plain first.
_JSON_TYPES = frozenset({dict, list, str, int, float, bool, type(None)})
# Integral numbers below this magnitude (4000 digits) are ints in keys and comparisons: converting
# that many digits between int and Decimal takes well under a millisecond. Larger ones are
# Decimals (their exponent may be astronomically large), never materialised as int.
_BIG_DIGITS = 4000
_BIG = 10**_BIG_DIGITS
# Decimal arithmetic that is always exact (every digit kept) and takes any exponent: the context
# of _big_decimal's sums and products and of _is_multiple's remainders.
_EXACT = _Context(prec=_MAX_PREC, Emax=_MAX_PREC, Emin=-_MAX_PREC)  # (MAX_EMAX is MAX_PREC)


def _kind(x: Any) -> str | None:
    """The JSON type of a Python value ('integer' is reported as 'number'), or None."""
    t = type(x)
    if t is str:
        return "string"
    if t is dict:
        return "object"
    if t is list:
        return "array"
    if t is int or t is float:
        return "number"
    if t is bool:
        return "boolean"
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "boolean"
    if isinstance(x, (int, float, _Decimal)):
        return "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, dict):
        return "object"
    if isinstance(x, list):
        return "array"
    return None


def _plain(x: Any) -> Any:
    """The JSON value a subclass of str, dict, list, int, float or Decimal holds, as the base type,
    read by the base type's own methods whatever the subclass overrides (a container is copied one
    level deep; dict.copy would call an overridden keys()); any other value as it is."""
    if type(x) in _JSON_TYPES:
        return x
    if isinstance(x, str):
        return str.__str__(x)
    if isinstance(x, dict):
        return dict(dict.items(x))
    if isinstance(x, list):
        return list.copy(x)
    if isinstance(x, int):  # (bool has no subclasses)
        return int.__int__(x)
    if isinstance(x, float):
        return float.__float__(x)
    if isinstance(x, _Decimal) and type(x) is not _Decimal:
        return _Decimal(x)
    return x


def _big_decimal(n: int) -> Any:
    """The exact Decimal of an int of any size. Decimal(n) costs time quadratic in the digits
    (15 s for a million); halving the bits and joining the halves with exact Decimal products
    (fast multiplication) is close to linear."""
    if -_BIG < n < _BIG:
        return _Decimal(n)
    if n < 0:
        return _big_decimal(-n).copy_negate()
    half = n.bit_length() // 2
    high = n >> half
    low = n - (high << half)
    scale = _EXACT.power(_Decimal(2), half)
    return _EXACT.add(_EXACT.multiply(_big_decimal(high), scale), _big_decimal(low))


def _exact(x: Any) -> Any:
    """The exact value of a number as int or Decimal: a float becomes the decimal of its repr,
    an int of _BIG's magnitude or more a Decimal (so no comparison converts it quadratically)."""
    if isinstance(x, float):
        return _Decimal(repr(x))
    if isinstance(x, int) and not -_BIG < x < _BIG:
        return _big_decimal(int(x))
    return x


def _is_nan(x: Any) -> bool:
    if isinstance(x, float):
        return x != x
    if isinstance(x, _Decimal):
        return x.is_nan()
    return False


def _is_integral(x: Any) -> bool:
    """A number (already known not to be a bool) whose exact value is a whole number."""
    if isinstance(x, int):
        return True
    if isinstance(x, float):
        if -9007199254740992.0 < x < 9007199254740992.0:
            return x.is_integer()
        return x - x == 0  # every finite float this large is whole (its repr is too)
    if isinstance(x, _Decimal):
        return x.is_finite() and x == x.to_integral_value()
    return False


def _is_type(x: Any, name: str) -> bool:
    kind = _kind(x)
    if name == "integer":
        return kind == "number" and _is_integral(x)
    return kind == name


def _cmp(x: Any, b: Any) -> int | None:
    """-1, 0 or 1 comparing number x with schema bound b exactly; None when x is NaN."""
    if _is_nan(x):
        return None
    x = _exact(x)
    b = _exact(b)
    return int(x > b) - int(x < b)


def _is_multiple(x: Any, m: Any) -> bool:
    """Whether number x is an exact multiple of the positive number m, from the coefficients and
    exponents of x = cx * 10**ex and m = cm * 10**em: no float arithmetic, and no power of ten
    larger than the operands' own digits (1E+999999999 and 1E-999999999 are instant)."""
    if _is_nan(x):
        return False
    if isinstance(x, int) and isinstance(m, int):
        return x % m == 0
    x = _exact(x)
    if isinstance(x, _Decimal) and not x.is_finite():
        return False
    if not x:
        return True
    dx = x if isinstance(x, _Decimal) else _Decimal(x)
    m = _exact(m)
    dm = m if isinstance(m, _Decimal) else _Decimal(m)
    ex: Any = dx.as_tuple().exponent  # an int: both are finite
    em: Any = dm.as_tuple().exponent
    cx = dx.scaleb(-ex, _EXACT).copy_abs()
    cm = dm.scaleb(-em, _EXACT).copy_abs()
    shift = ex - em
    if shift >= 0:
        # cm divides cx * 10**shift iff it divides cx * 10**k for any k at least the number of
        # factors 2 and 5 in cm, which is below 4 times its digit count
        k = min(shift, 4 * (cm.adjusted() + 1))
        return not _EXACT.remainder(cx.scaleb(k, _EXACT), cm)
    if -shift > cx.adjusted():  # cm * 10**-shift has more digits than cx: it cannot divide it
        return False
    return not _EXACT.remainder(cx, cm.scaleb(-shift, _EXACT))


def _freeze(x: Any, depth: int = 0) -> Any:
    """A hashable key with JSON equality: equal keys iff equal JSON values."""
    t = type(x)
    if t is str or x is None:
        return x
    if t is int:
        return x if -_BIG < x < _BIG else _big_decimal(x)
    if t is float:
        if x != x:
            return _NO_MATCH
        if -9007199254740992.0 < x < 9007199254740992.0 or x - x != 0:
            return x
        return int(_Decimal(repr(x)))  # a large float stands for its repr, as in _cmp
    if t is bool:
        return ("b", x)
    if depth > _FREEZE_DEPTH:
        return _TOO_DEEP
    if t is list:
        items: list[Any] = []
        for item in x:
            key = _freeze(item, depth + 1)
            if key is _TOO_DEEP or key is _NO_MATCH:
                return key
            items.append(key)
        return ("a", tuple(items))
    if t is dict:
        pairs: list[Any] = []
        for k, v in x.items():
            if type(k) is not str:
                return _NO_MATCH
            key = _freeze(v, depth + 1)
            if key is _TOO_DEEP or key is _NO_MATCH:
                return key
            pairs.append((k, key))
        return ("o", frozenset(pairs))
    plain = _plain(x)
    if plain is not x:  # a subclass: the JSON value it holds
        return _freeze(plain, depth)
    if isinstance(x, _Decimal):
        if x.is_nan():
            return _NO_MATCH
        # Keys are numbers that Python compares and hashes exactly across int, float and
        # Decimal: an int below _BIG, a float (it stands for its repr), else the Decimal itself
        # (a huge integral one bare, so it equals a huge int's key; any other one tagged, so it
        # never equals a float's binary value). Never int() of a huge Decimal, never normalize()
        # (it rounds to 28 digits and overflows past 1E+999999).
        if not x.is_finite():
            return float(x)
        if x == x.to_integral_value():
            return int(x) if x.adjusted() < _BIG_DIGITS else x
        as_float = float(x)
        if _Decimal(repr(as_float)) == x:
            return as_float
        return ("d", x)
    return _NO_MATCH


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality, iterative so that deep values cannot overflow the stack. A pair of
    containers met again is not compared again: so values that share parts cost no more than
    once each, and one that contains itself (only Python objects can) ends."""
    stack: list[tuple[Any, Any]] = [(a, b)]
    seen: set[tuple[int, int]] = set()
    while stack:
        a, b = stack.pop()
        ka = _kind(a)
        if ka is None or ka != _kind(b):
            return False
        if ka == "object" or ka == "array":
            pair = (id(a), id(b))
            if pair in seen:
                continue
            seen.add(pair)
        # a subclass as the JSON value it holds (after the pair: a copy is new each time)
        if type(a) not in _JSON_TYPES:
            a = _plain(a)
        if type(b) not in _JSON_TYPES:
            b = _plain(b)
        if ka == "object":
            if len(a) != len(b):
                return False
            for k, v in a.items():
                if type(k) is not str or k not in b:
                    return False
                stack.append((v, b[k]))
            for k in b:  # (both sides: a str-subclass key equal to a str one is still not JSON)
                if type(k) is not str:
                    return False
        elif ka == "array":
            if len(a) != len(b):
                return False
            stack.extend(zip(a, b))
        elif ka == "number":
            if _cmp(a, b) != 0:
                return False
        elif a != b:
            return False
    return True


def _table(values: Any) -> tuple[frozenset[Any], tuple[Any, ...]]:
    """The lookup table of an enum: frozen keys, plus the values too deep to freeze."""
    keys: set[Any] = set()
    deep: list[Any] = []
    for v in values:
        key = _freeze(v)
        if key is _TOO_DEEP:
            deep.append(v)
        elif key is not _NO_MATCH:
            keys.add(key)
    return frozenset(keys), tuple(deep)


def _in_table(x: Any, table: tuple[frozenset[Any], tuple[Any, ...]]) -> bool:
    keys, deep = table
    key = _freeze(x)
    if key is _TOO_DEEP:
        for v in deep:
            if _json_equal(x, v):
                return True
        return False
    return key in keys


def _unique(items: Any) -> bool:
    """Whether no two items of a list are JSON-equal."""
    n = len(items)
    if n < 2:  # nothing to compare (an empty list is common)
        return True
    if n == 2:  # two items (the common short list): one comparison, no sets to build
        a, b = items
        if type(a) in _PLAIN_TYPES and type(b) in _PLAIN_TYPES:
            return not a == b  # (not: a bool to mypy, where a != b is Any)
    types = set(map(type, items))
    if types <= _PLAIN_TYPES:  # where Python's equality is JSON equality
        return len(set(items)) == n
    if types == {dict}:
        # JSON-equal objects have equal string members: objects that differ there (parameters
        # by name) are unequal without a deep key for each
        shapes: set[Any] = set()
        for item in items:
            members: list[Any] = []
            for k, v in item.items():
                if isinstance(v, str):  # (a str subclass as its text, as _freeze takes it)
                    members.append((k, v if type(v) is str else _plain(v)))
            shapes.add(frozenset(members))
        if len(shapes) == n:
            return True
    seen: set[Any] = set()
    deep: list[Any] = []
    for item in items:
        key = _freeze(item)
        if key is _TOO_DEEP:
            for other in deep:
                if _json_equal(item, other):
                    return False
            deep.append(item)
        elif key is _NO_MATCH:
            deep.append(item)
        else:
            if key in seen:
                return False
            seen.add(key)
    return True


def _esc(token: Any) -> str:
    """One JSON-pointer reference token for a key or index."""
    return str(token).replace("~", "~0").replace("/", "~1")


def _short(x: Any) -> str:
    """A bounded, deterministic repr for error messages (an int too long for repr, past
    Python's digit limit, is written out through _big_decimal, never as `<int object at 0x..>`)."""
    try:
        if isinstance(x, int) and not isinstance(x, bool) and not -_BIG < x < _BIG:
            text = str(_big_decimal(int.__int__(x)))
        else:
            text = repr(x)
    except Exception:
        text = "<" + type(x).__name__ + " object>"
    if len(text) > 80:
        text = text[:77] + "..."
    return text


def _pick_dynamic(scope: tuple[int, ...], table: dict[int, Any], default: Any) -> Any:
    """$dynamicRef: the outermost resource in the dynamic scope with the anchor wins."""
    for resource in scope:
        found = table.get(resource)
        if found is not None:
            return found
    return default


def _pick_recursive(scope: tuple[int, ...], table: dict[int, Any], default: Any) -> Any:
    """$recursiveRef: from the innermost resource outwards, while each has $recursiveAnchor."""
    chosen = default
    for resource in reversed(scope):
        found = table.get(resource)
        if found is None:
            break
        chosen = found
    return chosen


def _on_fresh_stack(function: Any, *args: Any) -> Any:
    """`function(*args)` run at the bottom of a new thread's stack and its result (or exception)
    handed back: a recursive validation that ran out of the caller's stack gets Python's whole
    recursion limit there, so its answer does not depend on how deep the caller was."""
    outcome: list[Any] = [None, None]
    done = _allocate_lock()
    done.acquire()

    def run() -> None:
        try:
            outcome[0] = function(*args)
        except BaseException as failure:  # handed to the caller's thread, raised there
            outcome[1] = failure
        finally:
            done.release()

    _start_new_thread(run, ())
    done.acquire()
    if outcome[1] is not None:
        raise outcome[1]
    return outcome[0]


# -- JSON text of values, for messages ---------------------------------------------------------
# What a JSON string may not hold raw, as str.translate's table: the quote, the backslash and the
# control characters (named where JSON names them).
_ESCAPES = {
    0: "\\u0000",
    1: "\\u0001",
    2: "\\u0002",
    3: "\\u0003",
    4: "\\u0004",
    5: "\\u0005",
    6: "\\u0006",
    7: "\\u0007",
    8: "\\b",
    9: "\\t",
    10: "\\n",
    11: "\\u000b",
    12: "\\f",
    13: "\\r",
    14: "\\u000e",
    15: "\\u000f",
    16: "\\u0010",
    17: "\\u0011",
    18: "\\u0012",
    19: "\\u0013",
    20: "\\u0014",
    21: "\\u0015",
    22: "\\u0016",
    23: "\\u0017",
    24: "\\u0018",
    25: "\\u0019",
    26: "\\u001a",
    27: "\\u001b",
    28: "\\u001c",
    29: "\\u001d",
    30: "\\u001e",
    31: "\\u001f",
    34: '\\"',
    92: "\\\\",
}
# Numbers are rounded to 16 significant digits past 40 digits (any exponent): `1.000000000000000E+5000`.
_ROUND = _Context(prec=16, Emax=_MAX_PREC, Emin=-_MAX_PREC)
_LIST_ITEMS = 10  # a list in a message shows this many items, then how many more there are


def _number_text(x: Any) -> str:
    """A number as JSON text: exact up to 40 digits, else rounded to 16 significant digits (never
    materialised: a Decimal of a huge exponent is as quick as 1); NaN and the infinities by name."""
    if isinstance(x, float):
        if x != x:
            return "NaN"
        if x - x != 0:
            return "Infinity" if x > 0 else "-Infinity"
        return float.__repr__(x)
    if isinstance(x, int):
        number = int.__int__(x)
        if -_BIG < number < _BIG:
            text = int.__repr__(number)
            return text if len(text) <= 41 else str(_ROUND.plus(_Decimal(text)))
        return str(_ROUND.plus(_big_decimal(number)))
    if not x.is_finite():
        return "NaN" if x.is_nan() else "Infinity" if x > 0 else "-Infinity"
    if len(x.as_tuple().digits) > 40:
        return str(_ROUND.plus(x))
    return _Decimal.__str__(x)


def _show_into(x: Any, parts: list[str], room: int) -> int:
    """Append x's JSON text to `parts` until `room` characters are used; the room left."""
    if room <= 0:
        return room
    if type(x) not in _JSON_TYPES:
        x = _plain(x)  # a subclass shown as the JSON value it holds
    kind = _kind(x)
    if kind == "string":
        text = str.__str__(x)
        shown = '"' + text[:room].translate(_ESCAPES) + ('"' if len(text) <= room else "")
    elif kind == "number":
        shown = _number_text(x)
    elif kind == "boolean":
        shown = "true" if x else "false"
    elif kind == "null":
        shown = "null"
    elif kind == "array" or kind == "object":
        return _show_members(x, kind == "object", parts, room)
    else:
        shown = "<" + type(x).__name__ + " object>"
    parts.append(shown)
    return room - len(shown)


def _show_members(x: Any, is_object: bool, parts: list[str], room: int) -> int:
    parts.append("{" if is_object else "[")
    room -= 1
    for i, member in enumerate(x.items() if is_object else x):
        if room <= 0:
            return room
        if i:
            parts.append(", ")
            room -= 2
        if is_object:
            room = _show_into(member[0], parts, room)
            parts.append(": ")
            room = _show_into(member[1], parts, room - 2)
        else:
            room = _show_into(member, parts, room)
    parts.append("}" if is_object else "]")
    return room - 1


def _show(x: Any, limit: int = 80) -> str:
    """x as JSON text for a message: `null`, `true`, `"text"`, `[1, 2]`, deterministic, at most
    `limit` characters (longer text ends in `...`). Whatever x is: huge numbers are abbreviated,
    a subclass is read through its base type's methods, a value that is not JSON is named by its
    type, one too deep for the stack is named too."""
    parts: list[str] = []
    try:
        _show_into(x, parts, limit + 1)
    except Exception:  # (a RecursionError, or a container changed by another thread)
        parts = ["<" + type(x).__name__ + " object>"]
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _show_list(values: list[Any]) -> str:
    """A list of schema values for a message: its first _LIST_ITEMS items (each bounded), and how
    many more there are."""
    shown: list[str] = []
    for value in values[:_LIST_ITEMS]:
        shown.append(_show(value, 60))
    if len(values) > _LIST_ITEMS:
        shown.append("... " + str(len(values) - _LIST_ITEMS) + " more")
    return "[" + ", ".join(shown) + "]"


def _fill(template: str, params: Any, x: Any) -> str:
    """A message: `template` with `{instance}` replaced by x and each other `{name}` by
    params[name], as JSON text (a list through _show_list)."""
    pieces = template.split("{")
    out = [pieces[0]]
    for piece in pieces[1:]:
        name, _, rest = piece.partition("}")
        if name == "instance":
            out.append(_show(x))
        else:
            value = params[name]
            out.append(_show_list(value) if type(value) is list else _show(value, 100))
        out.append(rest)
    return "".join(out)


# -- the error path's helpers -------------------------------------------------------------------
# Each generated module defines ValidationError (the template); this stand-in, never copied, only
# lets this file and memo_runtime.py be checked and imported on their own.
class ValidationError(ValueError):
    def __init__(
        self,
        message: str,
        instance_location: str,
        keyword_location: str,
        absolute_keyword_location: str | None = None,
        keyword: str | None = None,
        params: dict[str, Any] | None = None,
        instance: Any = None,
        context: list[Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.instance_location = instance_location
        self.keyword_location = keyword_location
        self.absolute_keyword_location = absolute_keyword_location
        self.keyword = keyword
        self.params: dict[str, Any] = {} if params is None else params
        self.instance = instance
        self.context: list[Any] = [] if context is None else context
        self.branch: int | None = None
        self._matches = False


def _thaw(value: Any) -> Any:
    """A fresh copy of a JSON value's lists and objects: the params of an error are its own."""
    if type(value) is list:
        items = []
        for item in value:
            items.append(_thaw(item))
        return items
    if type(value) is dict:
        members = {}
        for key, item in value.items():
            members[key] = _thaw(item)
        return members
    return value


def _matches_type(x: Any, types: Any) -> bool:
    """Whether x has one of the schema's `type` names (False where the schema has no `type`):
    best_match prefers errors of subschemas whose type the instance has."""
    if types is None:
        return False
    for name in types:
        if _is_type(x, name):
            return True
    return False


def _add(
    out: list[Any],
    x: Any,
    value: Any,
    template: str,
    params: Any,
    types: Any,
    at: str,
    kp: str,
    ak: str | None,
    where: str,
    context: list[Any] | None,
) -> None:
    """Record the error of the keyword at kp + where (where's one token names it; empty for a
    false schema) on `x`; `value` is the instance at `at` (x itself, or one of its members)."""
    error = ValidationError(
        _fill(template, params, value),
        at,
        kp + where,
        ak and ak + where,
        where[1:] or "false",
        params,
        value,
        context,
    )
    error._matches = _matches_type(x, types)
    out.append(error)


def _fail(out: list[Any], x: Any, spec: Any, at: str, kp: str, ak: str | None, where: str) -> None:
    """An error of the keyword at kp + where on x. `spec` is the call site's module constant:
    (message template, params, the subschema's `type` names or None)."""
    _add(out, x, x, spec[0], _thaw(spec[1]), spec[2], at, kp, ak, where, None)


def _required_errors(
    x: Any, names: tuple[str, ...], spec: Any, ip: str, kp: str, ak: str | None, out: list[Any]
) -> None:
    for name in names:
        if name not in x:
            _add(
                out,
                x,
                x,
                spec[0],
                {"missingProperty": name},
                spec[2],
                ip,
                kp,
                ak,
                "/required",
                None,
            )


def _member_error(
    out: list[Any], x: Any, key: Any, spec: Any, ip: str, kp: str, ak: str | None, where: str
) -> None:
    """A member no schema allows (additionalProperties, unevaluated*: false), at its own location;
    spec[1] names the parameter that holds its name or index."""
    _add(
        out, x, x[key], spec[0], {spec[1]: key}, spec[2], ip + "/" + _esc(key), kp, ak, where, None
    )


def _unmatched_error(
    out: list[Any], x: Any, key: Any, spec: Any, ip: str, kp: str, ak: str | None
) -> None:
    """additionalProperties: false beside patternProperties: the member `key`, which no property
    names and no pattern matches, at its own location; spec[1] lists the patterns, which the
    message names."""
    params = {"additionalProperty": key, "patterns": _thaw(spec[1])}
    _add(
        out,
        x,
        x[key],
        spec[0],
        params,
        spec[2],
        ip + "/" + _esc(key),
        kp,
        ak,
        "/additionalProperties",
        None,
    )


def _extra_errors(
    x: Any, known: Any, spec: Any, ip: str, kp: str, ak: str | None, out: list[Any]
) -> None:
    """additionalProperties: false, every name not in `known` (a set or a property table)."""
    for key in x:
        if key not in known:
            _member_error(out, x, key, spec, ip, kp, ak, "/additionalProperties")


def _dependent_errors(
    out: list[Any],
    x: Any,
    name: str,
    needs: tuple[str, ...],
    spec: Any,
    ip: str,
    kp: str,
    ak: str | None,
    where: str,
) -> None:
    """dependentRequired (and draft 4-7 dependencies): the names `name`'s presence requires."""
    for need in needs:
        if need not in x:
            _add(
                out,
                x,
                x,
                spec[0],
                {"missingProperty": need, "property": name},
                spec[2],
                ip,
                kp,
                ak,
                where,
                None,
            )


def _duplicates(x: Any) -> list[int]:
    """The indices of the first item equal (as JSON) to an earlier one, and of that earlier one."""
    seen: dict[Any, int] = {}
    rest: list[int] = []  # items too deep to freeze, or without a key (compared one by one)
    for j in range(len(x)):
        key = _freeze(x[j])
        if key is _TOO_DEEP or key is _NO_MATCH:
            for i in rest:
                if _json_equal(x[i], x[j]):
                    return [i, j]
            rest.append(j)
        elif key in seen:
            return [seen[key], j]
        else:
            seen[key] = j
    return []


def _unique_error(out: list[Any], x: Any, spec: Any, ip: str, kp: str, ak: str | None) -> None:
    _add(
        out,
        x,
        x,
        spec[0],
        {"duplicates": _duplicates(x)},
        spec[2],
        ip,
        kp,
        ak,
        "/uniqueItems",
        None,
    )


def _branch_errors(x: Any, row: Any, at: str, kp: str, ak: str | None, s: Any) -> list[Any]:
    """The errors of x against one subschema: `row` is (fast function, error function, keyword
    location suffix, absolute location or None: then ak + the suffix)."""
    found: list[Any] = []
    absolute = row[3] if row[3] is not None else ak and ak + row[2]
    row[1](x, at, kp + row[2], found, absolute, *s)
    return found


def _alternatives(
    out: list[Any],
    x: Any,
    table: Any,
    spec: Any,
    ip: str,
    kp: str,
    ak: str | None,
    where: str,
    *s: Any,
) -> None:
    """oneOf (where is "/oneOf") or anyOf over the rows of `table` (see _branch_errors). When none
    holds, the error's context is every alternative's errors, each with its `branch`; when more
    than one holds, oneOf names them. spec[0] holds the templates for none and for several."""
    passing: list[int] = []
    for i, row in enumerate(table):
        if row[0](x, *s):
            passing.append(i)
    one = where == "/oneOf"
    if len(passing) == 1 or (passing and not one):
        return
    context: list[Any] = []
    if not passing:
        for i, row in enumerate(table):
            for error in _branch_errors(x, row, ip, kp, ak, s):
                error.branch = i
                context.append(error)
    params = {"passingSchemas": passing} if one else {}
    _add(out, x, x, spec[0][1 if passing else 0], params, spec[2], ip, kp, ak, where, context)


def _contains_errors(
    out: list[Any],
    x: Any,
    row: Any,
    low: int,
    high: int | None,
    spec: Any,
    ip: str,
    kp: str,
    ak: str | None,
    where: str,
    *s: Any,
) -> None:
    """contains with its bounds (minContains at `where`): too few matches carry the errors of the
    other items as context (each with its index as `branch`). spec[0] holds the templates for no
    match, too few and too many."""
    misses: list[int] = []
    for i in range(len(x)):
        if not row[0](x[i], *s):
            misses.append(i)
    matches = len(x) - len(misses)
    if matches < low:
        context: list[Any] = []
        for i in misses:
            for error in _branch_errors(x[i], row, ip + "/" + str(i), kp, ak, s):
                error.branch = i
                context.append(error)
        template = spec[0][0 if matches == 0 and low == 1 else 1]
        _add(
            out,
            x,
            x,
            template,
            {"minContains": low, "matches": matches},
            spec[2],
            ip,
            kp,
            ak,
            where,
            context,
        )
    if high is not None and matches > high:
        _add(
            out,
            x,
            x,
            spec[0][2],
            {"maxContains": high, "matches": matches},
            spec[2],
            ip,
            kp,
            ak,
            "/maxContains",
            None,
        )


def _property_errors(
    x: Any, table: dict[str, Any], pairs: bool, ip: str, kp: str, ak: str | None, out: list[Any]
) -> None:
    """properties, through a table name -> error function (or -> (fast, error) when `pairs`),
    in schema order."""
    for name, check in table.items():
        if name in x:
            where = "/properties/" + _esc(name)
            (check[1] if pairs else check)(
                x[name], ip + "/" + _esc(name), kp + where, out, ak and ak + where
            )


def _items_errors(
    x: Any, start: int, check: Any, ip: str, where: str, absolute: str | None, out: list[Any]
) -> None:
    """items from index `start`: each one's errors through `check`, at keyword location `where`."""
    for i in range(start, len(x)):
        check(x[i], ip + "/" + str(i), where, out, absolute)


# Which primitives (and module-level names) each primitive uses, for the emitter.
DEPENDS = {
    "_on_fresh_stack": ("_thread",),
    "_kind": ("_Decimal",),
    "_big_decimal": ("_BIG", "_EXACT", "_Context", "_Decimal"),
    "_exact": ("_Decimal", "_BIG", "_big_decimal"),
    "_is_nan": ("_Decimal",),
    "_is_integral": ("_Decimal",),
    "_is_type": ("_kind", "_is_integral"),
    "_cmp": ("_is_nan", "_exact"),
    "_is_multiple": ("_is_nan", "_exact", "_Decimal", "_EXACT", "_Context"),
    "_plain": ("_JSON_TYPES", "_Decimal"),
    "_freeze": (
        "_FREEZE_DEPTH",
        "_TOO_DEEP",
        "_NO_MATCH",
        "_plain",
        "_Decimal",
        "_BIG",
        "_BIG_DIGITS",
        "_big_decimal",
    ),
    "_json_equal": ("_kind", "_cmp", "_JSON_TYPES", "_plain"),
    "_table": ("_freeze", "_TOO_DEEP", "_NO_MATCH"),
    "_in_table": ("_freeze", "_TOO_DEEP", "_json_equal"),
    "_unique": ("_PLAIN_TYPES", "_plain", "_freeze", "_TOO_DEEP", "_NO_MATCH", "_json_equal"),
    "_esc": (),
    "_short": ("_BIG", "_big_decimal"),
    "_pick_dynamic": (),
    "_pick_recursive": (),
    "_number_text": ("_ROUND", "_Context", "_BIG", "_big_decimal", "_Decimal"),
    "_show_into": ("_JSON_TYPES", "_plain", "_kind", "_number_text", "_ESCAPES", "_show_members"),
    "_show_members": ("_show_into",),
    "_show": ("_show_into",),
    "_show_list": ("_show", "_LIST_ITEMS"),
    "_fill": ("_show", "_show_list"),
    "_thaw": (),
    "_matches_type": ("_is_type",),
    "_add": ("_fill", "_matches_type"),
    "_fail": ("_add", "_thaw"),
    "_required_errors": ("_add",),
    "_member_error": ("_add", "_esc"),
    "_unmatched_error": ("_add", "_thaw", "_esc"),
    "_extra_errors": ("_member_error",),
    "_dependent_errors": ("_add",),
    "_duplicates": ("_freeze", "_TOO_DEEP", "_NO_MATCH", "_json_equal"),
    "_unique_error": ("_add", "_duplicates"),
    "_branch_errors": (),
    "_alternatives": ("_add", "_branch_errors"),
    "_contains_errors": ("_add", "_branch_errors"),
    "_property_errors": ("_esc",),
    "_items_errors": (),
}

# Module-level constants a copied function may need, with their emitted definition.
CONSTANTS = {
    "_FREEZE_DEPTH": f"_FREEZE_DEPTH = {_FREEZE_DEPTH}",
    "_TOO_DEEP": "_TOO_DEEP = object()",
    "_NO_MATCH": "_NO_MATCH = object()",
    "_MISSING": "_MISSING: Final[Any] = object()",
    "_PLAIN_TYPES": "_PLAIN_TYPES = frozenset({str, int, type(None)})",
    "_JSON_TYPES": "_JSON_TYPES = frozenset({dict, list, str, int, float, bool, type(None)})",
    "_BIG_DIGITS": f"_BIG_DIGITS = {_BIG_DIGITS}",
    "_BIG": f"_BIG = 10**{_BIG_DIGITS}",
    "_EXACT": "_EXACT = _Context(prec=_MAX_PREC, Emax=_MAX_PREC, Emin=-_MAX_PREC)",
    "_ROUND": "_ROUND = _Context(prec=16, Emax=_MAX_PREC, Emin=-_MAX_PREC)",
    "_ESCAPES": "_ESCAPES = " + repr(_ESCAPES),
    "_LIST_ITEMS": f"_LIST_ITEMS = {_LIST_ITEMS}",
}

# Public names for the reference interpreter and tests.
kind = _kind
plain = _plain
is_type = _is_type
is_integral = _is_integral
compare = _cmp
is_multiple = _is_multiple
freeze = _freeze
json_equal = _json_equal
table = _table
in_table = _in_table
unique = _unique
pointer_token = _esc
short_repr = _short
show = _show
fill = _fill
duplicates = _duplicates
big_decimal = _big_decimal
BIG_DIGITS = _BIG_DIGITS
