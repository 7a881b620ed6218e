"""One `is_valid(instance) -> bool` per implementation and case, built once, outside the timing.

A builder never raises: an implementation that is not installed, cannot compile the schema or
fails in any other way comes back as not available, with the reason.
No implementation may touch the network: remote references are refused (the JSON Schema
meta-schemas are served from the copies python-jsonschema ships), so results never depend on it.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cases import Case

STRAIGHTLINE = "straightline"
HANDWRITTEN = "handwritten"
IMPLEMENTATIONS = (STRAIGHTLINE, HANDWRITTEN, "jsonschema", "fastjsonschema", "jsonschema-rs")
# Everything straightline is compared with (the ratio columns).
COMPARED = tuple(name for name in IMPLEMENTATIONS if name != STRAIGHTLINE)

Validator = Callable[[Any], bool]


@dataclass
class Built:
    implementation: str
    is_valid: Validator | None  # None when not available
    reason: str = ""  # why not available, in full
    short_reason: str = ""  # the same in a word or two, for the table cell
    build_ns: int | None = None
    absent: bool = False  # the implementation has nothing for this case (no hand-written one)


class RemoteRefused(Exception):
    """A schema asked for a remote document; the benchmark never fetches one."""


def _refuse_remote(uri: str) -> Any:
    raise RemoteRefused(f"remote reference {uri} refused (no network in the benchmark)")


def _meta_schema(uri: str) -> Any:
    """A JSON Schema meta-schema by URI, from the copies bundled with python-jsonschema;
    any other remote document is refused."""
    try:
        from jsonschema_specifications import REGISTRY  # type: ignore[import-untyped]

        return REGISTRY.contents(uri.rstrip("#"))
    except (ImportError, LookupError):
        return _refuse_remote(uri)


def _straightline(case: Case) -> Validator:
    import generator

    # format=False skips black only: the same program, without minutes of formatting for a
    # 3 MB schema (the formatted compile is timed separately, see costs.compile_times).
    module = generator.compile_module(case.schema_text, profile=case.profile, format=False)
    return module.is_valid  # type: ignore[no-any-return]


def _python_jsonschema(case: Case) -> Validator:
    import referencing
    from jsonschema.validators import validator_for  # type: ignore[import-untyped]

    schema = case.fresh_schema()
    # A registry of our own is combined with the bundled meta-schemas and retrieves nothing else.
    registry: Any = referencing.Registry(retrieve=_refuse_remote)  # type: ignore[call-arg]
    return validator_for(schema)(schema, registry=registry).is_valid  # type: ignore[no-any-return]


def _fastjsonschema(case: Case) -> Validator:
    import fastjsonschema

    handlers = {"http": _meta_schema, "https": _meta_schema}
    # use_default=False: by default it writes schema defaults into the instance it validates.
    validate = fastjsonschema.compile(case.fresh_schema(), handlers=handlers, use_default=False)
    invalid = fastjsonschema.JsonSchemaValueException

    def is_valid(instance: Any) -> bool:
        try:
            validate(instance)
        except invalid:
            return False
        return True

    return is_valid


def _jsonschema_rs(case: Case) -> Validator:
    import jsonschema_rs

    return jsonschema_rs.validator_for(case.fresh_schema(), retriever=_refuse_remote).is_valid


_BUILDERS: dict[str, Callable[[Case], Validator]] = {
    STRAIGHTLINE: _straightline,
    "jsonschema": _python_jsonschema,
    "fastjsonschema": _fastjsonschema,
    "jsonschema-rs": _jsonschema_rs,
}


# Imported before the build clock starts: build time is compiling the schema, not importing.
_MODULES: dict[str, tuple[str, ...]] = {
    STRAIGHTLINE: ("generator",),
    "jsonschema": ("jsonschema.validators", "referencing"),
    "fastjsonschema": ("fastjsonschema",),
    "jsonschema-rs": ("jsonschema_rs",),
}


def describe(exc: BaseException) -> tuple[str, str]:
    """(full reason, short reason) for an exception an implementation raised."""
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None) or str(exc)
    message = " ".join(str(message).split())
    if len(message) > 300:
        message = message[:297] + "..."
    name = type(exc).__name__
    if isinstance(code, str):  # straightline's SchemaError / OptionError carry a stable code
        return f"{name} [{code}]: {message}", code
    return f"{name}: {message}", name


def known_limitation(implementation: str, case: Case) -> str:
    """Why an implementation is expected to disagree on a case, when the reason is documented."""
    if implementation == "fastjsonschema" and case.declared_draft() in (
        "draft2019-09",
        "draft2020-12",
    ):
        return (
            "fastjsonschema implements drafts 4, 6 and 7 only and compiles this "
            f"{case.declared_draft()} schema as draft 7 (e.g. prefixItems ignored, items as in draft 7)"
        )
    return ""


def build(implementation: str, case: Case) -> Built:
    if implementation == HANDWRITTEN:
        if case.handwritten is None:
            return Built(
                implementation, None, "no hand-written validator for this case", "-", absent=True
            )
        return Built(implementation, case.handwritten, build_ns=0)
    try:
        for module in _MODULES[implementation]:
            importlib.import_module(module)
    except ImportError as exc:
        return Built(implementation, None, f"not installed ({exc})", "not installed")
    start = time.perf_counter_ns()
    try:
        validator = _BUILDERS[implementation](case)
    except Exception as exc:  # any failure to compile is reported, never fatal
        reason, short = describe(exc)
        return Built(implementation, None, reason, short)
    return Built(implementation, validator, build_ns=time.perf_counter_ns() - start)
