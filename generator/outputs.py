"""What a generated module reports beyond its error list, copied into every module like the
primitives (emit/sources.py): `best_match`'s choice of the most relevant error, and the output
formats of the JSON Schema 2020-12 core specification ("Output Formatting", section 12).

best_match follows python-jsonschema's `best_match` and `relevance` (jsonschema/exceptions.py):
of the errors given, the shallowest instance location wins, then the non-weak keyword (anyOf and
oneOf are weak), then an error whose subschema's `type` the instance does not have; a weak error
with a context (the errors of its alternatives) is replaced by the most relevant error of that
context, in the opposite order (the deepest location, a weak keyword, a matching type), unless the
two best of the context are equally relevant. Only anyOf and oneOf are descended into: contains
has a context too (why each item failed), but one item's failure is no cause. An error of a member
no schema allows (additionalProperties: false...) is ranked at its object, where python-jsonschema
reports it. Three refinements of ours: before ranking a context, the alternatives a discriminator
rules out are left out (see _intended): with FHIR's 147 resource alternatives, the one whose
resourceType the instance has is the one to look into, where python-jsonschema's ranking sees many
equally deep errors; when the two best of a context are equally relevant but deeper than the weak
error, and every alternative fails at that member, that member's error is taken; and when the
equally relevant best errors of a context all come from one alternative (the only one whose `type`
the instance has, say), that alternative is the one the instance fits, and its first error is
taken. Errors equally relevant are told apart by where they are (_place: the instance location,
array indices as numbers, then the keyword location and the message), the first place winning, so
the answer never depends on the order of the errors (two names additionalProperties refuses in one
object are equally relevant).

The output formats are built from the errors, each with its context: `basic` is the flat list of
output units, `detailed` the hierarchy of failing evaluations with childless nodes removed and
single children lifted, `verbose` the same hierarchy uncondensed. Each node of the hierarchy is one
evaluation of a subschema or keyword at an instance location, read back from the errors'
locations (which keyword names a subschema by the next pointer token, which applies it to a member
of the instance); a node's absolute location is derived from an error beneath it where no
reference lies between them. Valid results (annotations, and the passing keywords verbose would
list) are not collected: a valid instance's output is `{"valid": true}` in every format.
"""

from __future__ import annotations

from typing import Any

# Keywords whose errors say least about the cause: any one of their alternatives would do.
_WEAK = frozenset({"anyOf", "oneOf"})
# Keywords whose errors are reported at the member no schema allows, which python-jsonschema
# reports at the object: for relevance they are where it has them.
_MEMBER_ERRORS = frozenset({"additionalProperties", "unevaluatedProperties", "unevaluatedItems"})
_FORMATS = ("flag", "basic", "detailed", "verbose")
# Keywords whose subschema is named by the next token of a keyword location (an index only when
# that token is a number: `items` is one schema from 2020-12 on), and the keywords that apply
# their subschema to a member of the instance (one more token of the instance location).
_NAMED = frozenset({"properties", "patternProperties", "dependentSchemas", "dependencies"})
_INDEXED = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
_MEMBERS = frozenset(
    {
        "properties",
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
        "items",
        "prefixItems",
        "additionalItems",
        "unevaluatedItems",
        "contains",
    }
)
_REFERENCES = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})
# What a URI's fragment holds as it is (RFC 3986: unreserved, sub-delims, ":", "@", "/", "?");
# any other character of a JSON pointer is percent-encoded as UTF-8 (RFC 6901, section 6).
_FRAGMENT_SAFE = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?"
)


def _relevance(error: Any) -> Any:
    """The sort key of python-jsonschema's relevance: (the instance location's depth, negated; the
    location itself; whether the keyword is not weak; whether the instance lacks the subschema's
    type). Array indices compare as numbers; a member error counts where its object is."""
    path: list[Any] = []
    for token in error.instance_location.split("/")[1:]:
        path.append((0, int(token), "") if token.isdigit() else (1, 0, token))
    if error.keyword in _MEMBER_ERRORS and error.keyword_location.endswith("/" + error.keyword):
        path.pop()
    return (-len(path), path, error.keyword not in _WEAK, not error._matches)


def _place(error: Any) -> Any:
    """Where an error is, as a sort key that tells equally relevant errors apart: its instance
    location (array indices compared as numbers), keyword location and message."""
    path: list[Any] = []
    for token in error.instance_location.split("/")[1:]:
        path.append((0, int(token), "") if token.isdigit() else (1, 0, token))
    return (path, error.keyword_location, error.message)


def _ranked(error: Any) -> Any:
    """The sort key of a context: its least relevant error first, equals in the order of _place."""
    return (_relevance(error), _place(error))


def _best_match(errors: Any) -> Any:
    """The most relevant error (see the module docstring), or None when there is none."""
    best: Any = None
    best_key: Any = None
    for error in errors:
        key = _relevance(error)
        if best is None or key > best_key or (key == best_key and _place(error) < _place(best)):
            best, best_key = error, key
    while best is not None and best.context and best.keyword in _WEAK:
        candidates = _intended(best)
        ranked = sorted(candidates, key=_ranked)
        first = _relevance(ranked[0])
        if (
            len(ranked) > 1
            and first == _relevance(ranked[1])
            and not (
                first[0] < _relevance(best)[0] and _shared(candidates, ranked[0].instance_location)
            )
            and not (_one_branch(ranked, first))
        ):
            break  # equally relevant; no cause every alternative shares, nor one alternative's
        best = ranked[0]
    return best


def _one_branch(ranked: list[Any], first: Any) -> bool:
    """Whether the context errors as relevant as the most relevant (`first`) all come from one
    alternative: then that alternative is the one the instance fits best."""
    branches: set[Any] = set()
    for error in ranked:
        if _relevance(error) != first:
            break
        branches.add(error.branch)
    return len(branches) == 1


def _shared(candidates: list[Any], location: str) -> bool:
    """Whether every alternative among the context errors `candidates` fails at `location`."""
    everywhere: set[Any] = set()
    there: set[Any] = set()
    for error in candidates:
        everywhere.add(error.branch)
        if error.instance_location == location:
            there.add(error.branch)
    return there == everywhere


def _absolute(location: str | None) -> bool:
    """Whether an absolute keyword location is an absolute URI (the schema has one): only then is
    it given (a schema without an `$id` has none)."""
    return location is not None and ":" in location.partition("#")[0]


def _intended(error: Any) -> list[Any]:
    """The context errors of the alternatives the instance meant: when the instance is an object,
    an alternative that fails a member's const or enum where another alternative of its type accepts
    that member (a discriminator: FHIR's resourceType, GeoJSON's type) is left out, unless that
    leaves nothing."""
    if not isinstance(error.instance, dict):
        return list(error.context)
    prefix = error.instance_location + "/"
    branches: set[Any] = set()
    mistyped: set[Any] = set()  # the alternatives that fail on the object's type
    erring: dict[str, set[Any]] = {}  # a member's token -> the alternatives with an error there
    failed: dict[Any, list[str]] = {}  # an alternative -> the members whose const/enum it fails
    for inner in error.context:
        branches.add(inner.branch)
        token = inner.instance_location[len(prefix) :]
        if inner.instance_location == error.instance_location and inner.keyword == "type":
            mistyped.add(inner.branch)
        elif inner.instance_location.startswith(prefix) and "/" not in token:
            erring.setdefault(token, set()).add(inner.branch)
            if inner.keyword == "const" or inner.keyword == "enum":
                failed.setdefault(inner.branch, []).append(token)
    kept: list[Any] = []
    for inner in error.context:
        discriminated = False
        for token in failed.get(inner.branch, ()):
            discriminated = discriminated or len(erring[token] | mistyped) < len(branches)
        if not discriminated:
            kept.append(inner)
    return kept if kept else list(error.context)


def _uri(location: str) -> str:
    """An absolute keyword location as a URI: its fragment, a JSON pointer, percent-encoded where
    a fragment does not allow a character (a name with a space, a "%", a non-ASCII letter)."""
    base, mark, pointer = location.partition("#")
    encoded: list[str] = []
    for character in pointer:
        if character in _FRAGMENT_SAFE:
            encoded.append(character)
        else:
            for byte in character.encode("utf-8", "surrogatepass"):
                encoded.append("%" + "0123456789ABCDEF"[byte // 16] + "0123456789ABCDEF"[byte % 16])
    return base + mark + "".join(encoded)


def _unit(error: Any) -> dict[str, Any]:
    """An error as an output unit."""
    unit: dict[str, Any] = {"valid": False, "keywordLocation": error.keyword_location}
    if _absolute(error.absolute_keyword_location):
        unit["absoluteKeywordLocation"] = _uri(error.absolute_keyword_location)
    unit["instanceLocation"] = error.instance_location
    unit["error"] = error.message
    return unit


def _flatten(errors: Any, out: list[Any]) -> list[Any]:
    """The errors and, after each, its context, depth first (iteratively: an error tree is as deep
    as the instance, and the caller's stack may be nearly used up)."""
    stack: list[Any] = [(list(errors), 0)]  # (errors, the index of the next one)
    while stack:
        items, index = stack.pop()
        if index < len(items):
            stack.append((items, index + 1))
            out.append(items[index])
            stack.append((list(items[index].context), 0))
    return out


def _steps(error: Any) -> list[tuple[str, str]]:
    """The evaluations on the way to an error: (keyword location, instance location) of the root,
    of each keyword and of each subschema it applies, the error's own last."""
    tokens = error.keyword_location.split("/")[1:]
    members = error.instance_location.split("/")[1:]
    steps = [("", "")]
    kp = ip = ""
    k = m = 0
    while k < len(tokens):
        keyword = tokens[k]
        k += 1
        kp += "/" + keyword
        steps.append((kp, ip))
        if k < len(tokens) and (keyword in _NAMED or (keyword in _INDEXED and tokens[k].isdigit())):
            kp += "/" + tokens[k]
            k += 1
        if keyword in _MEMBERS and m < len(members):
            ip += "/" + members[m]
            m += 1
        if steps[-1] != (kp, ip):
            steps.append((kp, ip))
    return steps


def _derived_absolute(error: Any, kp: str) -> str | None:
    """The absolute location of the evaluation at keyword location `kp` above `error`, when no
    reference lies between them."""
    absolute: str | None = error.absolute_keyword_location
    suffix: str = error.keyword_location[len(kp) :]
    if absolute is None or not absolute.endswith(suffix):
        return None
    for token in suffix.split("/"):
        if token in _REFERENCES:
            return None
    return absolute[: len(absolute) - len(suffix)]


def _node(kp: str, ip: str) -> dict[str, Any]:
    return {"kp": kp, "ip": ip, "ak": None, "errors": [], "children": {}}


def _tree(errors: Any) -> dict[str, Any]:
    """Every error (contexts included) placed under the evaluations that lead to it."""
    root = _node("", "")
    for error in _flatten(errors, []):
        node = root
        for kp, ip in _steps(error)[1:]:
            children = node["children"]
            if (kp, ip) not in children:
                children[(kp, ip)] = _node(kp, ip)
            node = children[(kp, ip)]
            if node["ak"] is None:
                node["ak"] = _derived_absolute(error, kp)
        node["errors"].append(error)
    return root


def _render(node: dict[str, Any], condensed: bool) -> list[Any]:
    """A node of _tree as output units (for its parent's `errors`): its one error as `error`,
    several as child units, its children as `errors`. Condensed (detailed), a node without an
    error of its own is dropped when it has no child and replaced by its child when it has one. A
    node past a reference whose absolute location no error beneath gives (it lies between two
    references) is replaced by its children: every unit past a reference has its absolute
    location. Iterative, children before their parent: a tree is as deep as the keyword
    locations are long."""
    # a frame: [node, its units so far, its children, the index of the next child to render]
    stack: list[Any] = [[node, _own_units(node), list(node["children"].values()), 0]]
    while True:
        frame = stack[-1]
        if frame[3] < len(frame[2]):
            child = frame[2][frame[3]]
            frame[3] += 1
            stack.append([child, _own_units(child), list(child["children"].values()), 0])
            continue
        stack.pop()
        units = _close(frame[0], frame[1], condensed)
        if not stack:
            return units
        stack[-1][1].extend(units)


def _own_units(node: dict[str, Any]) -> list[Any]:
    """A node's errors as child units, when it has more than one."""
    units: list[Any] = []
    if len(node["errors"]) > 1:
        for error in node["errors"]:
            units.append(_unit(error))
    return units


def _close(node: dict[str, Any], children: list[Any], condensed: bool) -> list[Any]:
    """A node's units once its children's are known (see _render)."""
    own = node["errors"][0].message if len(node["errors"]) == 1 else None
    if own is None and ((condensed and len(children) < 2) or _unplaced(node)):
        return children
    unit: dict[str, Any] = {"valid": False, "keywordLocation": node["kp"]}
    if _absolute(node["ak"]):
        unit["absoluteKeywordLocation"] = _uri(node["ak"])
    unit["instanceLocation"] = node["ip"]
    if own is not None:
        unit["error"] = own
    if children:
        unit["errors"] = children
    return [unit]


def _unplaced(node: dict[str, Any]) -> bool:
    """A node past a reference without its absolute location."""
    if _absolute(node["ak"]):
        return False
    for token in node["kp"].split("/")[1:-1]:
        if token in _REFERENCES:
            return True
    return False


def _output(valid: bool, errors: Any, format: str) -> dict[str, Any]:
    """The result in one of the specification's output formats."""
    if format not in _FORMATS:
        raise ValueError(
            "the output format is flag, basic, detailed or verbose, not " + repr(format)[:80]
        )
    if valid or format == "flag":
        return {"valid": valid}
    if format == "basic":
        units: list[Any] = []
        for error in _flatten(errors, []):
            units.append(_unit(error))
        return {"valid": False, "errors": units}
    root = _tree(errors)
    children: list[Any] = []
    for child in root["children"].values():
        children += _render(child, format == "detailed")
    return {"valid": False, "keywordLocation": "", "instanceLocation": "", "errors": children}


DEPENDS = {
    "_relevance": ("_WEAK", "_MEMBER_ERRORS"),
    "_intended": (),
    "_shared": (),
    "_place": (),
    "_ranked": ("_relevance", "_place"),
    "_one_branch": ("_relevance",),
    "_best_match": (
        "_relevance",
        "_place",
        "_ranked",
        "_intended",
        "_shared",
        "_one_branch",
        "_WEAK",
    ),
    "_absolute": (),
    "_uri": ("_FRAGMENT_SAFE",),
    "_unit": ("_absolute", "_uri"),
    "_flatten": (),
    "_steps": ("_NAMED", "_INDEXED", "_MEMBERS"),
    "_derived_absolute": ("_REFERENCES",),
    "_node": (),
    "_tree": ("_node", "_flatten", "_steps", "_derived_absolute"),
    "_render": ("_own_units", "_close"),
    "_own_units": ("_unit",),
    "_close": ("_absolute", "_unplaced", "_uri"),
    "_unplaced": ("_absolute", "_REFERENCES"),
    "_output": ("_FORMATS", "_unit", "_flatten", "_tree", "_render"),
}

CONSTANTS = {
    "_WEAK": '_WEAK = frozenset({"anyOf", "oneOf"})',
    "_MEMBER_ERRORS": '_MEMBER_ERRORS = frozenset({"additionalProperties", "unevaluatedProperties", "unevaluatedItems"})',
    "_FORMATS": '_FORMATS = ("flag", "basic", "detailed", "verbose")',
    "_NAMED": '_NAMED = frozenset({"properties", "patternProperties", "dependentSchemas", "dependencies"})',
    "_INDEXED": '_INDEXED = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})',
    "_MEMBERS": (
        '_MEMBERS = frozenset({"properties", "patternProperties", "additionalProperties", '
        '"unevaluatedProperties", "items", "prefixItems", "additionalItems", "unevaluatedItems", '
        '"contains"})'
    ),
    "_REFERENCES": '_REFERENCES = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})',
    "_FRAGMENT_SAFE": (
        '_FRAGMENT_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
        "0123456789-._~!$&'()*+,;=:@/?\")"
    ),
}

# Public names for tests.
best_match = _best_match
output = _output
relevance = _relevance
