"""Tool contracts: an input and an output schema compiled together into one module.

A contract file is JSON: {"name": "math.add", "description": "...", "input": {schema},
"output": {schema}, "profile": "octoscript"}; `profile` defaults to octoscript, the seed's
bounded subset. Unknown top-level keys are refused, naming the key.
"""

from __future__ import annotations

import types as _types
from typing import Any

from .. import ir
from ..api import build, check_name, prepare
from ..codegen import Code, Name, literal, uses_decimal
from ..collector import paused
from ..errors import SchemaError, join_pointer
from ..format_options import format_options
from ..hygiene import review, review_documents
from ..load import load_json
from ..preflight import check_json_value, warnings_once
from ..profiles import OCTOSCRIPT, get_profile
from ..render.header import seal
from ..render.module import render, root_of
from ..render.types import TypedRoot, module_types
from ..resolve import ReadLog, registry_mapping
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
            contract, OCTOSCRIPT, max_nodes=_CONTRACT_BYTES
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


@paused()  # (see generator/collector.py)
def compile_contract_source(
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
) -> str:
    """The source of one standalone module validating a tool's input and output.
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
    emitters, sides, typed = [], [], []
    # a directory is read once (a ReadLog given, remote_registry's, fills itself as it is asked)
    registry = registry if isinstance(registry, ReadLog) else ReadLog(registry_mapping(registry))
    reviewed: set[int] = set()  # the registry documents reviewed (review_documents)
    for side, prefix in (("input", "i"), ("output", "o")):
        try:
            with warnings_once(prefix=f"/{side}"):
                schema, chosen, _ = prepare(
                    value[side], profile=profile_name, registry=registry, formats=fmt, **options
                )
                built = build(
                    schema,
                    chosen,
                    registry=registry,
                    base_uri=f"urn:straightline:{side}",
                    prefix=prefix,
                )
        except SchemaError as failure:
            raise failure.under(f"/{side}") from None
        review(schema, chosen, policy=unknown_keywords, pointer=f"/{side}")
        review_documents(
            built.reached, chosen, policy=unknown_keywords, reviewed=reviewed
        )  # (both sides: once)
        emitter = built.emitter
        emitters.append(emitter)
        sides.append((side, built))
        typed.append(
            TypedRoot(
                side.capitalize(),
                schema,
                chosen,
                registry,
                f"urn:straightline:{side}",
                lowered=built.lowered,
            )
        )
    types = module_types(typed, format=format)  # one set of names for both sides
    roots = [
        root_of(
            one.emitter,
            one.fast,
            one.error,
            is_valid=Name(f"is_valid_{side}"),
            errors=Name(f"{side}_errors"),
            validate=Name(f"validate_{side}"),
            output=Name(f"{side}_output"),
            what=Code(side),
            envelope=True,
            envelope_in_fast=ir.rejects_kinds(one.root, _NOT_CONTAINERS),
            type=type_name,
        )
        for (side, one), type_name in zip(sides, types.roots)
    ]
    # the schemas are emitted as data too: a Decimal in them needs the import
    emitters[0].uses_decimal = emitters[0].uses_decimal or uses_decimal(value)
    text = render(
        "contract.py.j2",
        emitters,
        roots,
        profile=profile_name,
        options={**options, **fmt.recorded()},
        raw=raw,
        name=name or value["name"],
        format=format,
        name_literal=literal(value["name"]),
        description=literal(value.get("description", "")),
        profile_literal=literal(profile_name),
        input_schema=literal(value["input"]),
        output_schema=literal(value["output"]),
        types=types,
    )
    return seal(text, registry=registry, asked=registry.asked)


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
