"""Tool contracts: an input and an output schema compiled together into one module.

A contract file is JSON: {"name": "math.add", "description": "...", "input": {schema},
"output": {schema}, "profile": "octoscript"}; `profile` defaults to octoscript, the seed's
bounded subset. Unknown top-level keys are refused, naming the key.
"""

from __future__ import annotations

import types as _types
from functools import partial
from typing import Any

from .. import ir
from ..api import check_name
from ..codegen import Code, Name, literal
from ..collector import paused
from ..errors import SchemaError, join_pointer
from ..format_options import format_options
from ..load import load_json
from ..pipeline import PROFILES, Built, Part, compile_text, get_profile
from ..preflight import check_json_value
from ..render.sections import RenderedModule
from ..values import dumps_exact

KEYS = {
    "name": "a non-empty string",
    "description": "a string",
    "input": "a schema",
    "output": "a schema",
    "profile": "a profile name",
}
REQUIRED = ("name", "input", "output")
# A contract holds two schemas: its text may be this large.
_CONTRACT_BYTES = 64 * 1024 * 1024


def is_contract(value: Any) -> bool:
    """A contract file is an object with both an `input` and an `output` member."""
    return isinstance(value, dict) and "input" in value and "output" in value


def load_contract(contract: Any) -> tuple[dict[str, Any], bytes]:
    """The contract as a checked dict, and the bytes its hash is taken over."""
    if isinstance(contract, (str, bytes, bytearray, memoryview)):
        raw = (
            contract.encode("utf-8", "surrogatepass")
            if isinstance(contract, str)
            else bytes(contract)
        )
        value = load_json(raw, max_bytes=_CONTRACT_BYTES, what="contract")
    elif isinstance(contract, dict):
        check_json_value(
            contract, PROFILES["octoscript"], max_nodes=_CONTRACT_BYTES
        )  # as large as a file may be
        raw = dumps_exact(
            contract, sort_keys=True, ensure_ascii=True
        ).encode()  # (ints of any size)
        value = contract
    else:
        raise SchemaError(
            f"a contract must be JSON text or an object, not {type(contract).__name__}",
            code="bad-contract",
        )
    if not isinstance(value, dict):
        raise SchemaError("a contract must be a JSON object", code="bad-contract")
    for key in value:
        if key not in KEYS:
            raise SchemaError(
                f"unknown contract key {key!r}; a contract has {', '.join(KEYS)}",
                code="bad-contract",
                pointer=join_pointer("", key),
            )
    for key in REQUIRED:
        if key not in value:
            raise SchemaError(f"a contract needs {key!r} ({KEYS[key]})", code="bad-contract")
    if not isinstance(value["name"], str) or not value["name"]:
        raise SchemaError(
            "the contract name must be a non-empty string", code="bad-contract", pointer="/name"
        )
    if not isinstance(value.get("description", ""), str):
        raise SchemaError(
            "the description must be a string", code="bad-contract", pointer="/description"
        )
    return value, raw


# The JSON types the envelope refuses: a side whose root `type` excludes them all refuses them in
# its fast path already (a subclass of dict or list passes both)
_NOT_CONTAINERS = ("string", "number", "integer", "boolean", "null")


def compile_contract_source(contract: Any, **options: Any) -> str:
    """The source of one standalone module validating a tool's input and output (options as
    compile_contract_rendered takes them)."""
    return compile_contract_rendered(contract, **options).text


@paused()  # (see generator/collector.py)
def compile_contract_rendered(
    contract: Any,
    *,
    name: str | None = None,
    format: bool = True,
    registry: Any = None,
    unknown_keywords: str = "ignore",
    format_assertion: bool | None = None,
    formats: dict[str, str] | None = None,
    unknown_formats: str = "ignore",
    content_assertion: bool | None = None,
    **options: Any,
) -> RenderedModule:
    """The module validating a tool's input and output, as tagged sections (render/sections.py).
    `unknown_keywords` and the format options apply as in compile_source."""
    check_name(name)
    fmt = format_options(format_assertion, formats, unknown_formats, content_assertion)
    value, raw = load_contract(contract)
    profile_name = value.get("profile", "octoscript")
    try:
        get_profile(profile_name)
    except Exception as error:  # an OptionError: here it is a fault of the contract file
        raise SchemaError(
            str(getattr(error, "message", error)), code="bad-contract", pointer="/profile"
        ) from None
    sides = [
        Part(
            value[side],
            side.capitalize(),
            base_uri=f"urn:straightline:{side}",
            prefix=prefix,
            pointer=f"/{side}",
            root_names=partial(_side_names, side),
        )
        for side, prefix in (("input", "i"), ("output", "o"))
    ]
    return compile_text(
        sides,
        template="contract.py.j2",
        profile=profile_name,
        recorded_profile=profile_name,
        registry=registry,
        formats=fmt,
        unknown_keywords=unknown_keywords,
        name=name or value["name"],
        format=format,
        options=options,
        raw=raw,
        data=value,  # the schemas are emitted as data too
        name_literal=literal(value["name"]),
        description=literal(value.get("description", "")),
        profile_literal=literal(profile_name),
        input_schema=literal(value["input"]),
        output_schema=literal(value["output"]),
    )[0]


def _side_names(side: str, built: Built) -> dict[str, Any]:
    """The public functions of a contract's side: is_valid_input, input_errors, ..."""
    return {
        "is_valid": Name(f"is_valid_{side}"),
        "errors": Name(f"{side}_errors"),
        "validate": Name(f"validate_{side}"),
        "output": Name(f"{side}_output"),
        "what": Code(side),
        "envelope": True,
        "envelope_in_fast": ir.rejects_kinds(built.root, _NOT_CONTAINERS),
    }


def compile_contract_module(contract: Any, **kwargs: Any) -> _types.ModuleType:
    """compile_contract_source(), executed as a fresh module."""
    source = compile_contract_source(contract, **kwargs)
    module = _types.ModuleType("straightline_contract")
    module.__dict__["__source__"] = source
    exec(compile(source, "<straightline contract>", "exec"), module.__dict__)
    return module


def catalog_entry(contract: dict[str, Any]) -> dict[str, Any]:
    """The tool catalog entry of a loaded contract: what tool-calling model APIs take."""
    return {
        "name": contract["name"],
        "description": contract.get("description", ""),
        "input_schema": contract["input"],
        "output_schema": contract["output"],
    }
