"""One `is_valid(instance) -> bool` per implementation and case, built once, outside the timing.

A builder never raises: an implementation that is not installed, cannot compile the schema or
fails in any other way comes back as not available, with the reason.
No implementation may touch the network: remote references are refused (the JSON Schema
meta-schemas are served from the copies python-jsonschema ships), so results never depend on it.
"""

from __future__ import annotations

import atexit
import importlib
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cases import Case

STRAIGHTLINE = "straightline"
# The generated module's native extension as `straightline compile --native` builds it: the C
# backend (generator/native/c_build.py).
NATIVE = "native"
# The same module compiled with mypyc (`--native=mypyc`): built only when asked (slow builds).
NATIVE_MYPYC = "native-mypyc"
NATIVE_BACKEND = {NATIVE: "c", NATIVE_MYPYC: "mypyc"}
HANDWRITTEN = "handwritten"
IMPLEMENTATIONS = (
    STRAIGHTLINE,
    NATIVE,
    NATIVE_MYPYC,
    HANDWRITTEN,
    "jsonschema",
    "fastjsonschema",
    "jsonschema-rs",
)
# Everything straightline is compared with (the ratio columns).
COMPARED = tuple(name for name in IMPLEMENTATIONS if name != STRAIGHTLINE)
# What the native module is compared with (its own ratio columns: their time / the native module's).
COMPARED_NATIVE = (STRAIGHTLINE, NATIVE_MYPYC, "fastjsonschema", "jsonschema-rs")
# A native build that takes longer is stopped (a bound on a hang; FHIR's build takes minutes).
NATIVE_TIMEOUT_S = {"full": 900.0, "quick": 300.0}

Validator = Callable[[Any], bool]


@dataclass
class Built:
    implementation: str
    is_valid: Validator | None  # None when not available
    reason: str = ""  # why not available, in full
    short_reason: str = ""  # the same in a word or two, for the table cell
    build_ns: int | None = None
    absent: bool = False  # the implementation has nothing for this case (no hand-written one)
    details: dict[str, Any] = field(
        default_factory=dict
    )  # more figures for the report (native build)


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


def _native(case: Case, backend: str, timeout: float) -> tuple[Validator, dict[str, Any]]:
    """The module `_straightline` executes, written to a file and built by `backend` through the
    library, as `straightline compile --native[=mypyc]` builds it: the C backend's
    build_c_native (given the code tree this compile built) or mypyc's build_native. The
    validator is the extension's is_valid (checked to be what was imported); the details are the
    build's wall time, the extension's size, the backend its record names and the peak RSS of the
    build's child processes (the compiler) and of this process (the C backend's rendering runs
    here)."""
    from generator.api import compile_rendered
    from generator.native import backend_of, build_native
    from generator.native.c_build import build_c_native

    options: dict[str, Any] = {"profile": case.profile, "format": False}
    rendered, built = compile_rendered(case.schema_text, **options)
    directory = Path(tempfile.mkdtemp(prefix="straightline-bench-native-"))
    atexit.register(shutil.rmtree, directory, True)  # the extension stays loaded; its file may go
    # a name per backend: both extensions of a case are imported into the same process
    name = f"straightline_{backend}_" + "".join(c if c.isalnum() else "_" for c in case.name)
    module_file = directory / f"{name}.py"
    module_file.write_text(rendered.text, encoding="utf-8")
    rss_before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    self_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter_ns()
    if backend == "c":
        extension = build_c_native(
            module_file,
            case.schema_text,
            timeout=timeout,
            compiled=(rendered.text, built),
            **options,
        )
    else:
        extension = build_native(module_file, rendered, timeout=timeout)
    build_ns = time.perf_counter_ns() - started
    rss_after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    self_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sys.path.insert(0, str(directory))
    try:
        module = importlib.import_module(name)
    finally:
        sys.path.remove(str(directory))
    if Path(module.__file__ or "") != extension:
        raise RuntimeError(f"imported {module.__file__}, not the extension {extension}")
    details = {
        "native_backend": backend_of(module_file),
        "native_build_ms": build_ns / 1e6,
        "extension_bytes": sum(p.stat().st_size for p in directory.glob("*" + extension.suffix)),
        # ru_maxrss (KiB on Linux) is the largest finished descendant's: the build's peak only
        # when it exceeds every earlier child's, else unknown (None)
        "build_peak_rss_bytes": rss_after * 1024 if rss_after > rss_before else None,
        # this process's own peak, when the build raised it (the C backend renders its C
        # here): the whole process's RSS, the bench's own data included
        "build_process_peak_rss_bytes": self_after * 1024 if self_after > self_before else None,
    }
    return module.is_valid, details


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
    NATIVE: ("generator.native.c_build", "setuptools"),
    NATIVE_MYPYC: ("generator.native", "mypyc"),
    "jsonschema": ("jsonschema.validators", "referencing"),
    "fastjsonschema": ("fastjsonschema",),
    "jsonschema-rs": ("jsonschema_rs",),
}


def describe(exc: BaseException) -> tuple[str, str]:
    """(full reason, short reason) for an exception an implementation raised."""
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None) or str(exc)
    message = " ".join(str(message).split())
    if code in ("native-build-failed", "no-c-compiler"):  # generator.native: say which step failed
        short = (
            "timed out"
            if "took over" in message
            else (
                "mypy refused"
                if "mypyc refused" in message
                else "no C compiler" if code == "no-c-compiler" else "C build failed"
            )
        )
        return f"{type(exc).__name__} [{code}]: {message}", short
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


def build(
    implementation: str,
    case: Case,
    *,
    native: bool = True,
    mypyc: bool = False,
    mode: str = "full",
) -> Built:
    """One implementation's validator for the case (`native`: whether to build the native ones,
    which take a C compiler and seconds to minutes; the quick runs of the tests leave them out;
    `mypyc`: whether to build the mypyc one too, whose builds are far slower)."""
    if implementation in NATIVE_BACKEND and not native:
        return Built(
            implementation,
            None,
            "native builds are off (a --quick run without --native)",
            "not built",
        )
    if implementation == NATIVE_MYPYC and not mypyc:
        return Built(implementation, None, "mypyc builds are off (ask with --mypyc)", "not asked")
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
    details: dict[str, Any] = {}
    try:
        if implementation in NATIVE_BACKEND:
            backend = NATIVE_BACKEND[implementation]
            validator, details = _native(case, backend, NATIVE_TIMEOUT_S[mode])
        else:
            validator = _BUILDERS[implementation](case)
    except Exception as exc:  # any failure to compile is reported, never fatal
        reason, short = describe(exc)
        return Built(implementation, None, reason, short)
    return Built(
        implementation, validator, build_ns=time.perf_counter_ns() - start, details=details
    )
