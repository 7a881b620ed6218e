"""The options that make `format` and the content keywords assertions: whether `format` asserts,
the user's own format checkers, what an unknown format is, and whether content asserts.

Light on purpose (no part of the compiler is imported): the command line, the project config
(project.py) and the compiler all build a FormatOptions with `format_options()`, which checks
every value and raises OptionError naming the bad one. `recorded()` is what the module header
records, so `straightline check` sees a change of any of them.

A custom format is `NAME = "package.module:function"`: the generated module imports exactly that
function, under an alias the compiler makes (`from package.module import function as
_format_custom_NAME`), and calls it on strings. The module and function names are checked to be
dotted ASCII identifiers, so no text of a schema or an option ever becomes code.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from typing import Any, Mapping

from .errors import OptionError

UNKNOWN_FORMAT_POLICIES = ("ignore", "error")
# The keyword arguments of compile_source & co. that build a FormatOptions.
FORMAT_OPTION_NAMES = ("format_assertion", "formats", "unknown_formats", "content_assertion")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ALIAS_PREFIX = "_format_custom_"


@dataclass(frozen=True)
class CustomFormat:
    """A format checked by the user's function: `module.function(s) -> bool` on strings."""

    name: str  # the format name, as schemas write it
    module: str  # dotted module path
    function: str  # an attribute of that module
    alias: str  # the name the generated module imports it as

    @property
    def spec(self) -> str:
        return f"{self.module}:{self.function}"


@dataclass(frozen=True)
class FormatOptions:
    """How `format` and content are treated; None means "the profile's default" (see
    profiles.with_formats: an annotation, except under a meta-schema's format-assertion
    vocabulary)."""

    assertion: bool | None = None
    custom: tuple[CustomFormat, ...] = ()
    unknown: str = "ignore"  # "error": a format asserted but not known is a SchemaError
    content: bool | None = None

    def asserts_format(self, default: bool) -> bool:
        """Whether `format` asserts: as asked; else on when custom formats are given (they exist
        to be checked); else the profile's `default`."""
        if self.assertion is not None:
            return self.assertion
        return True if self.custom else default

    def asserts_content(self, default: bool) -> bool:
        return self.content if self.content is not None else default

    def custom_format(self, name: str) -> CustomFormat | None:
        for found in self.custom:
            if found.name == name:
                return found
        return None

    def recorded(self) -> dict[str, Any]:
        """The options a module header records: only those given (a default is not recorded, so
        modules compiled without them keep their header)."""
        out: dict[str, Any] = {}
        if self.assertion is not None:
            out["format_assertion"] = self.assertion
        if self.custom:
            out["formats"] = {c.name: c.spec for c in self.custom}
        if self.unknown != "ignore":
            out["unknown_formats"] = self.unknown
        if self.content is not None:
            out["content_assertion"] = self.content
        return out


DEFAULT = FormatOptions()


def format_options(
    format_assertion: Any = None,
    formats: Any = None,
    unknown_formats: Any = "ignore",
    content_assertion: Any = None,
) -> FormatOptions:
    """A checked FormatOptions from the API's keyword arguments; OptionError for a bad value."""
    for option, value in (
        ("format_assertion", format_assertion),
        ("content_assertion", content_assertion),
    ):
        if value is not None and not isinstance(value, bool):
            raise OptionError(f"option {option} must be True, False or None, not {value!r}")
    if unknown_formats not in UNKNOWN_FORMAT_POLICIES:
        raise OptionError(
            f"option unknown_formats must be one of {', '.join(UNKNOWN_FORMAT_POLICIES)}, "
            f"not {unknown_formats!r}"
        )
    return FormatOptions(
        format_assertion, custom_formats(formats), unknown_formats, content_assertion
    )


def custom_formats(formats: Any) -> tuple[CustomFormat, ...]:
    """The custom formats of a {name: "module:function"} mapping, sorted by name, each with a
    distinct alias; OptionError naming a bad entry."""
    if formats is None:
        return ()
    if not isinstance(formats, Mapping):
        raise OptionError(
            f"option formats must be a mapping of format name to 'module:function', "
            f"not {type(formats).__name__}"
        )
    found: list[CustomFormat] = []
    taken: set[str] = set()
    for name in sorted(formats, key=_sort_key):
        if not isinstance(name, str) or not name:
            raise OptionError(f"custom format name {name!r}: must be a non-empty string")
        module, function = parse_spec(name, formats[name])
        alias = _alias(name, taken)
        taken.add(alias)
        found.append(CustomFormat(name, module, function, alias))
    return tuple(found)


def _sort_key(name: Any) -> str:
    return name if isinstance(name, str) else repr(name)


def parse_spec(name: str, spec: Any) -> tuple[str, str]:
    """`package.module:function` -> (module, function), each checked: dotted ASCII identifiers,
    no keywords, no relative import."""
    shown = f"custom format {name!r}"
    if not isinstance(spec, str):
        raise OptionError(f"{shown}: must be 'module:function', not {spec!r}")
    module, colon, function = spec.partition(":")
    if not colon or not module or not function:
        raise OptionError(
            f"{shown}: {spec!r} is not 'module:function' (e.g. 'mypkg.formats:is_sku')"
        )
    for part in (*module.split("."), function):
        if not _IDENTIFIER.fullmatch(part) or keyword.iskeyword(part):
            raise OptionError(
                f"{shown}: {spec!r}: {part!r} is not a Python identifier "
                "(ASCII letters, digits and _, not a keyword)"
            )
    return module, function


def _alias(name: str, taken: set[str]) -> str:
    """`_format_custom_` and the name's ASCII letters and digits (others become `_`), made
    distinct from the aliases already taken."""
    base = _ALIAS_PREFIX + re.sub(r"[^A-Za-z0-9]", "_", name)
    alias, counter = base, 1
    while alias in taken:
        counter += 1
        alias = f"{base}_{counter}"
    return alias


def parse_format_flag(text: str) -> tuple[str, str]:
    """The command line's `--format NAME=module:function` -> (NAME, spec); OptionError if it
    is not of that form (the spec itself is checked by custom_formats)."""
    name, equals, spec = text.partition("=")
    if not equals or not name:
        raise OptionError(
            f"--format {text!r}: expected NAME=module:function (e.g. sku=mypkg.formats:is_sku)"
        )
    return name, spec
