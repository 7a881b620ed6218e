"""The public API: compile a schema to module source text, or to a live module."""

from __future__ import annotations

import functools
import hashlib
import json
import re
import types
from decimal import Decimal
from pathlib import Path
from typing import Any

import black
import jinja2

from . import __version__
from .codegen import Code, Name, comment, literal
from .emit import Emitter
from .errors import OptionError, SchemaError
from .loader import load_json
from .lower import lower
from .optimise import optimise
from .preflight import preflight, source_size
from .profiles import PROFILES, Profile, get_profile, with_options
from .resolve import Resolver

_BLACK_MODE = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=100)


def _templates_dir() -> Path:
    """Templates ship inside the package (wheel); a source checkout keeps them beside it."""
    inside = Path(__file__).resolve().parent / "templates"
    if inside.is_dir():
        return inside
    return Path(__file__).resolve().parent.parent / "templates"


def _finalize(value: Any) -> str:
    if isinstance(value, Code):
        return value.text
    raise TypeError(f"templates take Code values only, not {type(value).__name__}")


_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(_templates_dir())),
    undefined=jinja2.StrictUndefined,
    finalize=_finalize,
    autoescape=False,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def module_name_for(text: str) -> str:
    """A safe module name from a file name: letters, digits and underscores, not a keyword."""
    import keyword

    name = re.sub(r"[^0-9A-Za-z_]", "_", text)
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        name = "contract_" + name
    return name


def _parse(schema: Any, profile: Profile | None, options: dict[str, Any]) -> tuple[Any, bytes]:
    """The schema value and the bytes its hash is taken over."""
    if isinstance(schema, (str, bytes, bytearray, memoryview)):
        limit = options.get("max_source_bytes", (profile or PROFILES["strict"]).limits.max_source_bytes)
        raw = schema.encode("utf-8", "surrogatepass") if isinstance(schema, str) else bytes(schema)
        return load_json(raw, max_bytes=limit), raw
    if isinstance(schema, (dict, bool)):
        try:
            raw = json.dumps(schema, ensure_ascii=True, separators=(",", ":"), default=_no_default).encode()
        except (TypeError, ValueError) as exc:
            raise SchemaError(f"the schema is not a JSON value: {exc}", code="bad-json") from None
        except RecursionError:
            raise SchemaError("the schema is nested too deeply", code="limit-exceeded") from None
        return schema, raw
    raise SchemaError(
        f"a schema must be JSON text, bytes, an object or a boolean, not {type(schema).__name__}",
        code="not-a-schema",
    )


def _no_default(value: Any) -> Any:
    if isinstance(value, Decimal) and value.is_finite():
        return float(value)  # only for the hash; the schema itself keeps the Decimal
    raise TypeError(f"{type(value).__name__} is not JSON")


def _choose_profile(value: Any, profile: str | None) -> Profile:
    if profile is not None:
        return get_profile(profile)
    # Later: the drafts, chosen from $schema. Until then a profile must be named.
    raise OptionError(
        f"choose a profile: one of {', '.join(sorted(PROFILES))} (the JSON Schema drafts are not built yet)",
        code="unknown-profile",
    )


def prepare(schema: Any, *, profile: str | None = None, **options: Any) -> tuple[Any, Profile, bytes]:
    """Load and preflight: the schema value, the effective profile and the source bytes."""
    base = get_profile(profile) if profile is not None else None
    if base is not None:
        with_options(base, options)  # reject bad options before reading anything
    value, raw = _parse(schema, base, options)
    chosen = with_options(_choose_profile(value, profile), options)
    limit = chosen.limits.max_source_bytes
    if limit is not None and not isinstance(schema, (str, bytes, bytearray, memoryview)):
        size = source_size(value)
        if size > limit:
            raise SchemaError(f"the schema is {size} bytes as JSON, over the limit of {limit} bytes",
                              code="limit-exceeded")
    preflight(value, chosen)
    Resolver(value).check()
    return value, chosen, raw


def compile_source(schema: Any, *, profile: str | None = None, name: str | None = None,
                   format: bool = True, **options: Any) -> str:
    """The source text of a standalone validator module for `schema`.

    `format=False` skips black (the code is the same, only laid out less neatly): for dynamic
    use where nobody reads the text. Files written by the CLI are always formatted.
    """
    value, chosen, raw = prepare(schema, profile=profile, **options)
    root = optimise(lower(value, chosen))
    emitter = Emitter()
    root_fast, root_error = emitter.run(root)
    imports, primitive_constants, primitive_functions = emitter.primitive_sources()
    sha = hashlib.sha256(raw).hexdigest()
    recorded = json.dumps(options, sort_keys=True, separators=(",", ":"))
    header = [
        comment(f"Generated by straightline {__version__}. Do not edit: regenerate with `straightline compile`."),
        comment(f"straightline-version: {__version__}"),
        comment(f"profile: {chosen.name}"),
        comment(f"options: {recorded}"),
        comment(f"source-sha256: {sha}"),
    ]
    metadata = literal({"version": __version__, "profile": chosen.name, "options": json.loads(recorded),
                        "source_sha256": sha})
    contract_name = Name(module_name_for(name)) if name else Code("given to compile_source")
    text = _ENV.get_template("module.py.j2").render(
        header=Code("\n".join(h.text for h in header)),
        contract_name=contract_name,
        imports=imports,
        primitive_constants=primitive_constants,
        constants=emitter.constants,
        primitives=primitive_functions,
        functions=emitter.functions,
        metadata=metadata,
        root_fast=root_fast,
        root_error=root_error,
        split=Code(_SPLIT),
    )
    return _format(text) if format else text.replace(_SPLIT + "\n", "")


_SPLIT = "#<straightline:chunk>"


def _format(text: str) -> str:
    """black, one top-level section at a time (the template marks them): the fixed parts repeat
    in every module, so their formatting is cached; joined as black joins top-level blocks."""
    chunks = [c.strip("\n") for c in text.split(_SPLIT + "\n")]
    return "\n\n\n".join(_format_chunk(c).rstrip("\n") for c in chunks if c) + "\n"


@functools.lru_cache(maxsize=4096)
def _format_chunk(chunk: str) -> str:
    try:
        return black.format_str(chunk, mode=_BLACK_MODE)
    except Exception as exc:  # black refusing our output is a compiler bug: say so
        raise RuntimeError(f"straightline emitted code black cannot format (a compiler bug): {exc}") from exc


def compile_module(schema: Any, *, profile: str | None = None, name: str | None = None,
                   format: bool = True, **options: Any) -> types.ModuleType:
    """compile_source(), executed as a fresh module."""
    source = compile_source(schema, profile=profile, name=name, format=format, **options)
    module = types.ModuleType(module_name_for(name) if name else "straightline_compiled")
    module.__dict__["__source__"] = source
    exec(compile(source, f"<straightline {module.__name__}>", "exec"), module.__dict__)
    return module
