"""Typed adapters: TypedDict definitions that follow a schema, for the contract modules.

Object schemas with `properties` become TypedDicts (functional syntax, so any property name
works; keys not in `required` are NotRequired), enums and consts of strings, integers, booleans
and null become Literal, arrays with one `items` schema become list[...], the seven types their
Python types; anything a type cannot say exactly (composition, references) is Any. Class names
are made by the compiler: the root's name plus the sanitised property names, never schema text.
"""

from __future__ import annotations

import re
from typing import Any

from ..codegen import Code, Name, code, join, literal

_SIMPLE = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
IMPORTS = Code("from typing import Literal, NotRequired, TypedDict")


class Types:
    def __init__(self) -> None:
        self.definitions: list[Code] = []
        self._names: set[str] = set()

    def name(self, hint: str) -> Name:
        base = hint
        n = 2
        while hint in self._names:
            hint = f"{base}{n}"
            n += 1
        self._names.add(hint)
        return Name(hint)

    def define(self, schema: Any, name: str) -> Name:
        """`name` as an alias of (or TypedDict for) the schema's type."""
        chosen = self.name(name)
        expression = self.expression(schema, chosen.text, as_name=chosen)
        if expression.text != chosen.text:
            self.definitions.append(code("{} = {}", chosen, expression))
        return chosen

    def expression(self, schema: Any, hint: str, as_name: Name | None = None) -> Code:
        if not isinstance(schema, dict):
            return Code("Any")
        literals = self.literals(schema)
        if literals is not None:
            return literals
        types = schema.get("type")
        names = [types] if isinstance(types, str) else types if isinstance(types, list) else []
        if not names or set(schema) & {"$ref", "anyOf", "oneOf", "allOf", "not", "if"}:
            return Code("Any")
        parts: list[Code] = []
        for kind in names:
            if kind in _SIMPLE:
                parts.append(Code(_SIMPLE[kind]))
            elif kind == "array":
                items = schema.get("items")
                inner = self.expression(items, hint + "Item") if isinstance(items, dict) else Code("Any")
                parts.append(code("list[{}]", inner))
            elif kind == "object":
                parts.append(self.typed_dict(schema, hint, as_name if len(names) == 1 else None))
        unique = list(dict.fromkeys(p.text for p in parts))
        return join(" | ", [Code(u) for u in unique])

    def literals(self, schema: dict[str, Any]) -> Code | None:
        values = schema["enum"] if isinstance(schema.get("enum"), list) else [schema["const"]] if "const" in schema else None
        if not values or not all(v is None or isinstance(v, (str, bool, int)) for v in values):
            return None
        shown = [literal(v) for v in values if v is not None]
        parts = [code("Literal[{}]", join(", ", shown))] if shown else []
        if None in values:
            parts.append(Code("None"))
        return join(" | ", parts)

    def typed_dict(self, schema: dict[str, Any], hint: str, as_name: Name | None) -> Code:
        properties = schema.get("properties")
        if not isinstance(properties, dict) or not properties:
            return Code("dict[str, Any]")
        name = as_name or self.name(hint)
        required = set(schema.get("required", []))
        fields = []
        for prop, sub in properties.items():
            inner = self.expression(sub, hint + _camel(prop))
            if prop not in required:
                inner = code("NotRequired[{}]", inner)
            fields.append(code("{}: {}", literal(prop), inner))
        self.definitions.append(code("{} = TypedDict({}, {{{}}})", name, literal(name.text), join(", ", fields)))
        return name


def _camel(text: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", text)
    name = "".join(w[:1].upper() + w[1:] for w in words if w.isascii())
    return name if name and not name[0].isdigit() else "Field"


def typed_definitions(schemas: dict[str, Any]) -> list[Code]:
    """Definitions for each (name, schema): `Input = TypedDict("Input", {...})` and the nested ones."""
    types = Types()
    for name, schema in schemas.items():
        types.define(schema, name)
    return types.definitions
