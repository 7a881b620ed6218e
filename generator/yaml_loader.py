"""Schemas written in YAML: loaded exactly, then handed to the compiler as JSON text.

YAML is read by PyYAML (the optional extra `yaml`) with the YAML 1.2 core schema, the one that
agrees with JSON: `yes`, `no`, `on` and `off` stay strings, `1e3` is a number. Numbers are exact
as in the JSON loader (an integer stays int; a decimal is a float only when the float's shortest
repr is the same number, otherwise a Decimal keeping every digit). Anything JSON cannot hold is
refused with a SchemaError naming where: duplicate keys, keys that are not strings, aliases
(`*name`, which would let a small file stand for a huge or cyclic schema), tags other than the
core ones (timestamps, binary, sets, Python objects), NaN and infinities, and a scalar its
explicit core tag cannot be (`!!bool yes`, `!!null x`, `!!int 0x1_0`: the tag holds the forms the
core schema resolves to it, nothing is coerced).
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from typing import Any

from .errors import SchemaError
from .load import _parse_float, _parse_int

YAML_SUFFIXES = (".yaml", ".yml")

# The YAML 1.2 core schema's implicit scalars (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
_CORE = "tag:yaml.org,2002:"
# An explicitly tagged scalar (`!!bool yes`) holds only what the core schema resolves to its tag:
# else a tag would silently coerce (bool(...) of anything not "true" is False, `!!null x` None).
CORE_FORMS = {
    _CORE + "null": _NULL,
    _CORE + "bool": _BOOL,
    _CORE + "int": _INT,
    _CORE + "float": _FLOAT,
}


# Each core tag's pattern with the characters a plain scalar of it can start with (PyYAML looks a
# resolver up by the first character): the one resolver of schemas and of data.
CORE_RESOLVERS = (
    (_CORE + "null", _NULL, list("~nN") + [""]),
    (_CORE + "bool", _BOOL, list("tTfF")),
    (_CORE + "int", _INT, list("-+0123456789")),
    (_CORE + "float", _FLOAT, list("-+0123456789.")),
)


def core_integer(text: str) -> int | Decimal:
    """The value of a core-schema integer (`0o17`, `0x1F` or decimal; a decimal too long for
    int() an exact Decimal)."""
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return _parse_int(text)


def is_core_form(tag: str, text: str) -> bool:
    """Whether `text` is a scalar the YAML 1.2 core schema resolves to `tag` (any text is a str,
    and a tag that is not a core scalar tag is not judged here)."""
    pattern = CORE_FORMS.get(tag)
    return pattern is None or pattern.fullmatch(text) is not None


def is_yaml_path(path: str) -> bool:
    return path.lower().endswith(YAML_SUFFIXES)


def _yaml() -> Any:
    try:
        import yaml
    except ImportError:
        raise SchemaError(
            "reading a YAML schema needs PyYAML: install straightline[yaml] "
            "(pip install 'straightline[yaml]')",
            code="unreadable",
        ) from None
    return yaml


def _where(node: Any) -> str:
    mark = getattr(node, "start_mark", None)
    return f" (line {mark.line + 1} column {mark.column + 1})" if mark is not None else ""


@functools.cache
def _loader_class() -> Any:
    """A PyYAML loader: the core schema's resolver, a constructor that builds only JSON values."""
    yaml = _yaml()

    class Resolver(yaml.resolver.BaseResolver):  # type: ignore[misc, name-defined]
        pass

    for tag, pattern, first in CORE_RESOLVERS:
        Resolver.add_implicit_resolver(tag, pattern, first)

    class Constructor(yaml.constructor.BaseConstructor):  # type: ignore[misc, name-defined]
        pass

    def scalar(loader: Any, node: Any) -> str:
        return str(loader.construct_scalar(node))

    def form(loader: Any, node: Any, what: str) -> str:
        """The scalar's text, refused unless it is a core form of its tag (int() and Decimal()
        would take ` 12`, `1_0`, `Infinity` and other digits than ASCII ones)."""
        text = scalar(loader, node)
        if not is_core_form(node.tag, text):
            raise SchemaError(f"{text[:40]!r} is not {what}{_where(node)}", code="bad-json")
        return text

    def integer(loader: Any, node: Any) -> int | Decimal:
        return core_integer(form(loader, node, "an integer"))

    def number(loader: Any, node: Any) -> Any:
        text = scalar(loader, node)
        if re.match(r"^[-+]?\.(?:inf|nan)$", text, re.I):
            raise SchemaError(f"{text} is not a JSON number{_where(node)}", code="bad-json")
        return _parse_float(form(loader, node, "a number"))

    def boolean(loader: Any, node: Any) -> bool:
        return form(loader, node, "a boolean (true or false)").lower() == "true"

    def null(loader: Any, node: Any) -> None:
        form(loader, node, "null")
        return None

    def collection(node: Any, kind: Any) -> None:
        if not isinstance(node, kind):  # `!!seq abc`: a tag on the wrong kind of node
            raise SchemaError(
                f"the YAML tag {node.tag}{_where(node)} is on a {node.id}, not a {kind.id}",
                code="bad-json",
            )

    def sequence(loader: Any, node: Any) -> list[Any]:
        collection(node, yaml.SequenceNode)
        return [loader.construct_object(child, deep=True) for child in node.value]

    def mapping(loader: Any, node: Any) -> dict[str, Any]:
        collection(node, yaml.MappingNode)
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                raise SchemaError(
                    f"the key {key!r}{_where(key_node)} is not a string (JSON keys are): "
                    f"quote it",
                    code="bad-json",
                )
            if key in result:
                raise SchemaError(f"duplicate key {key!r}{_where(key_node)}", code="bad-json")
            result[key] = loader.construct_object(value_node, deep=True)
        return result

    def refuse(loader: Any, node: Any) -> None:
        raise SchemaError(
            f"the YAML tag {node.tag}{_where(node)} is not a JSON value", code="bad-json"
        )

    Constructor.add_constructor(None, refuse)
    for tag, function in (
        ("str", scalar),
        ("int", integer),
        ("float", number),
        ("bool", boolean),
        ("null", null),
        ("seq", sequence),
        ("map", mapping),
    ):
        Constructor.add_constructor(_CORE + tag, function)

    bases = (
        yaml.reader.Reader,
        yaml.scanner.Scanner,
        yaml.parser.Parser,
        yaml.composer.Composer,
        Constructor,
        Resolver,
    )

    class Loader(*bases):  # type: ignore[misc]
        def __init__(self, stream: Any) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            Constructor.__init__(self)
            Resolver.__init__(self)

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.events.AliasEvent):
                event = self.peek_event()
                raise SchemaError(
                    f"YAML aliases (*{event.anchor}){_where(event)} are not supported: "
                    "use $ref to share a subschema",
                    code="bad-json",
                )
            return super().compose_node(parent, index)

    return Loader


def load_yaml(source: str | bytes, *, max_bytes: int | None = None, what: str = "schema") -> Any:
    """Parse one YAML document into a JSON value, exactly (see the module docstring)."""
    if not isinstance(source, (str, bytes, bytearray, memoryview)):  # (as load_schema refuses it)
        raise SchemaError(
            f"a YAML {what} source must be text or bytes, not {type(source).__name__}",
            code="not-a-schema",
        )
    yaml = _yaml()
    raw = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else bytes(source)
    if max_bytes is not None and len(raw) > max_bytes:
        raise SchemaError(
            f"the {what} source is {len(raw)} bytes, over the limit of {max_bytes} bytes",
            code="limit-exceeded",
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SchemaError(
            f"the {what} source is not UTF-8 (invalid byte at offset {exc.start})", code="bad-json"
        ) from None
    loader = _loader_class()(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise SchemaError(f"the {what} YAML holds no document", code="bad-json")
        value = loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise SchemaError(
            f"the {what} is not valid YAML: {_one_line(exc)}", code="bad-json"
        ) from None
    except RecursionError:
        raise SchemaError(
            f"the {what} is nested too deeply to parse", code="limit-exceeded"
        ) from None
    finally:
        loader.dispose()
    return value


def _one_line(error: Exception) -> str:
    return " ".join(str(error).replace(' in "<unicode string>",', "").split())


def exact_json(value: Any) -> str:
    """Compact JSON text of a loaded value with every number exactly as loaded (Decimal digits
    kept). Iterative, so depth is no problem."""
    import json

    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, _Text):
            out.append(node.text)
        elif node is None or node is True or node is False:
            out.append({None: "null", True: "true", False: "false"}[node])
        elif isinstance(node, str):
            out.append(json.dumps(node, ensure_ascii=False))
        elif isinstance(node, int):
            out.append(str(node))
        elif isinstance(node, float):
            out.append(repr(node))
        elif isinstance(node, Decimal):
            out.append(str(node))
        elif isinstance(node, list):
            parts: list[Any] = [_Text("[")]
            for i, item in enumerate(node):
                parts += [_Text(","), item] if i else [item]
            stack.extend(reversed(parts + [_Text("]")]))
        elif isinstance(node, dict):
            parts = [_Text("{")]
            for i, (key, item) in enumerate(node.items()):
                name = _Text(json.dumps(key, ensure_ascii=False) + ":")
                parts += [_Text(","), name, item] if i else [name, item]
            stack.extend(reversed(parts + [_Text("}")]))
        else:
            raise TypeError(f"not a JSON value: {type(node).__name__}")
    return "".join(out)


class _Text:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def yaml_as_json(raw: bytes, *, max_bytes: int | None = None) -> bytes:
    """A YAML schema file's bytes as the JSON text the compiler reads (and hashes)."""
    return exact_json(load_yaml(raw, max_bytes=max_bytes)).encode("utf-8", "surrogatepass")


__all__ = [
    "CORE_FORMS",
    "CORE_RESOLVERS",
    "YAML_SUFFIXES",
    "core_integer",
    "exact_json",
    "is_core_form",
    "is_yaml_path",
    "load_yaml",
    "yaml_as_json",
]
