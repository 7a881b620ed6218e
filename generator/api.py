"""The public API: compile_source, compile_module, compile_rendered and compile_built check their arguments and
run the one pipeline every compile runs (generator/pipeline.py: load -> preflight -> resolve ->
lower -> plan -> emit -> render -> seal). prepare, build and Built are the pipeline's, named here
too for the callers that run its first stages alone.
"""

from __future__ import annotations

import types
from typing import Any

from .collector import paused
from .errors import OptionError, SchemaError
from .format_options import format_options
from .names import module_name_for
from .pipeline import Built, Part, build, compile_text, prepare
from .render.sections import RenderedModule
from .resolve import check_base_uri


def check_name(name: Any) -> None:
    """The API's `name=` (the module's name, made an identifier): a string or None."""
    if name is not None and not isinstance(name, str):
        raise OptionError(f"name must be a string or None, not {type(name).__name__}")


@paused()  # (the collector would walk the compile's live objects for nothing: collector.py)
def compile_source(
    schema: Any,
    *,
    profile: str | None = None,
    name: str | None = None,
    format: bool = True,
    registry: Any = None,
    base_uri: str = "",
    fragment: str = "",
    unknown_keywords: str = "ignore",
    format_assertion: bool | None = None,
    formats: dict[str, str] | None = None,
    unknown_formats: str = "ignore",
    content_assertion: bool | None = None,
    **options: Any,
) -> str:
    """The source text of a standalone validator module for `schema`.

    `format=False` skips black (the code is the same, only laid out less neatly): for dynamic
    use where nobody reads the text. Files written by the CLI are always formatted.
    `registry`: a mapping of URI to schema, or a directory of schema files, for remote
    references; nothing is ever fetched. `base_uri`: the URI of the schema document itself.
    `fragment`: a JSON pointer (`/$defs/invocation`) or anchor naming the subschema to compile.
    `unknown_keywords` (draft profiles): "ignore", "warn" (a generator.SchemaWarning each) or
    "error" (a SchemaError listing them); see generator/hygiene.py.
    `unsafe_patterns` (profiles that are not fail-closed): a pattern no linear-time engine runs
    (docs/regex.md) is run in `re` with a SchemaWarning ("warn", the default), silently
    ("allow"), or refused ("error", a SchemaError `unsafe-regex`); strict always refuses it.
    `format_assertion`: `format` a check (True) or an annotation (False); None: the profile's
    default (an annotation, unless a custom meta-schema's $vocabulary asks for format assertion,
    or custom formats are given). `formats`: custom formats, {"sku": "mypkg.formats:is_sku"}.
    `unknown_formats`: "ignore" (an unknown format is an annotation) or "error" (a SchemaError
    where `format` asserts). `content_assertion`: contentEncoding/contentMediaType checks in
    draft 7 (None: annotations). See generator/format_options.py.
    """
    return compile_rendered(
        schema,
        profile=profile,
        name=name,
        format=format,
        registry=registry,
        base_uri=base_uri,
        fragment=fragment,
        unknown_keywords=unknown_keywords,
        format_assertion=format_assertion,
        formats=formats,
        unknown_formats=unknown_formats,
        content_assertion=content_assertion,
        **options,
    )[0].text


@paused()
def compile_rendered(
    schema: Any,
    *,
    profile: str | None = None,
    name: str | None = None,
    format: bool = True,
    registry: Any = None,
    base_uri: str = "",
    fragment: str = "",
    unknown_keywords: str = "ignore",
    format_assertion: bool | None = None,
    formats: dict[str, str] | None = None,
    unknown_formats: str = "ignore",
    content_assertion: bool | None = None,
    **options: Any,
) -> tuple[RenderedModule, Built]:
    """compile_source()'s module as tagged sections (render/sections.py: what the mypyc build
    reads, generator/native/source.py), and the Built it was rendered from."""
    check_name(name)
    check_base_uri(base_uri)
    if not isinstance(fragment, str):
        raise OptionError(
            f"fragment must be a string (a JSON pointer or an anchor), not {type(fragment).__name__}"
        )
    fmt = format_options(format_assertion, formats, unknown_formats, content_assertion)
    rendered, (compiled,) = compile_text(
        [Part(schema, "Instance", base_uri=base_uri, fragment=fragment)],
        template="module.py.j2",
        profile=profile,
        requested_profile=profile,
        registry=registry,
        formats=fmt,
        unknown_keywords=unknown_keywords,
        name=name,
        format=format,
        options=options,
        sealed_base_uri=base_uri,
        fragment=fragment,
    )
    return rendered, compiled.built


def compile_built(schema: Any, **options: Any) -> tuple[str, Built]:
    """compile_source()'s text (options as it takes them) and the Built it was rendered from: its
    functions as code trees, which the C backend (generator/native/c_module.py) renders again."""
    rendered, built = compile_rendered(schema, **options)
    return rendered.text, built


def compile_module(
    schema: Any,
    *,
    profile: str | None = None,
    name: str | None = None,
    format: bool = True,
    registry: Any = None,
    base_uri: str = "",
    fragment: str = "",
    **options: Any,
) -> types.ModuleType:
    """compile_source(), executed as a fresh module (options as compile_source takes them, the
    format options included)."""
    source = compile_source(
        schema,
        profile=profile,
        name=name,
        format=format,
        registry=registry,
        base_uri=base_uri,
        fragment=fragment,
        **options,
    )
    module = types.ModuleType(module_name_for(name) if name else "straightline_compiled")
    module.__dict__["__source__"] = source
    exec(compile(source, f"<straightline {module.__name__}>", "exec"), module.__dict__)
    return module


__all__ = [
    "Built",
    "OptionError",
    "SchemaError",
    "build",
    "compile_module",
    "compile_rendered",
    "compile_source",
    "prepare",
]
