"""The registry of `format` and content checkers, as data, and the code a module needs for them.

FORMATS maps each format name to its FormatSpec: the checker function (in checkers.py), the drafts
whose specification defines the format, the standard it follows and a one-line description.
CONTENT_ENCODINGS and CONTENT_MEDIA_TYPES do the same for contentEncoding and contentMediaType.

`sources()` gives exactly the code a generated module needs for some formats and content
checkers: the imports, the module-level constants and the function sources (dependencies
included, each once, in the order of checkers.py). Dependencies are read from the source of
checkers.py with `ast`, so they cannot drift from the code. The reference interpreters (and tests)
call the same functions through `checker()`, `content_checker()` and `content_decoder()`.

How a generated module uses them: for a string instance `x`, `format: F` is `CHECKER(x)`;
`contentEncoding: E` alone is `ENCODING.checker(x)`; `contentMediaType: M` alone is
`MEDIA.checker(x)`; both together are `(d := ENCODING.decoder(x)) is not None and
MEDIA.checker(d)` (the decoder returns the decoded UTF-8 text, or None). Values that are not
strings pass all of them.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from . import checkers

# Draft names as generator.profiles spells them, oldest first.
ALL_DRAFTS = ("draft4", "draft6", "draft7", "draft2019-09", "draft2020-12")
_FROM_6 = ALL_DRAFTS[1:]
_FROM_7 = ALL_DRAFTS[2:]
_FROM_2019 = ALL_DRAFTS[3:]


@dataclass(frozen=True)
class FormatSpec:
    """One `format` value: which function checks it, and in which drafts it is defined."""

    name: str
    checker: str  # the function of checkers.py, for every draft not in `draft_checkers`
    drafts: tuple[str, ...]  # the drafts whose specification defines this format
    standard: str
    description: str
    draft_checkers: Mapping[str, str] = field(default_factory=dict)  # draft -> other checker

    def checker_for(self, draft: str | None = None) -> str | None:
        """The checker's name for `draft` (None: the latest rules), or None if that draft does
        not define the format (then it is an unknown format: an annotation that always passes)."""
        if draft is None:
            return self.checker
        if draft not in self.drafts:
            return None
        return self.draft_checkers.get(draft, self.checker)


@dataclass(frozen=True)
class ContentSpec:
    """One contentEncoding or contentMediaType value."""

    name: str
    checker: str  # str -> bool
    drafts: tuple[str, ...]  # the drafts that define the keyword
    assertion_drafts: tuple[str, ...]  # the drafts where the official suite tests it asserting
    standard: str
    description: str
    decoder: str | None = None  # encodings only: str -> decoded text, or None


FORMATS: dict[str, FormatSpec] = {
    spec.name: spec
    for spec in (
        FormatSpec(
            "date-time",
            "_format_date_time",
            ALL_DRAFTS,
            "RFC 3339 section 5.6 date-time",
            "A date and time with a required offset, as 1985-04-12T23:20:50.52Z.",
        ),
        FormatSpec(
            "date",
            "_format_date",
            _FROM_7,
            "RFC 3339 section 5.6 full-date",
            "A calendar date, as 1985-04-12.",
        ),
        FormatSpec(
            "time",
            "_format_time",
            _FROM_7,
            "RFC 3339 section 5.6 full-time",
            "A time of day with a required offset, as 23:20:50.52Z.",
        ),
        FormatSpec(
            "duration",
            "_format_duration",
            _FROM_2019,
            "RFC 3339 appendix A duration",
            "An ISO 8601 duration, as P3Y6M4DT12H30M5S or P2W.",
        ),
        FormatSpec(
            "email",
            "_format_email",
            ALL_DRAFTS,
            "RFC 5321 section 4.1.2 Mailbox",
            "An e-mail address: local part, @, host name or address literal.",
        ),
        FormatSpec(
            "idn-email",
            "_format_idn_email",
            _FROM_7,
            "RFC 6531 section 3.3 Mailbox",
            "An e-mail address whose local part and domain may be internationalized.",
        ),
        FormatSpec(
            "hostname",
            "_format_hostname",
            ALL_DRAFTS,
            "RFC 1123 section 2.1; A-labels per RFC 5890-5893 (drafts 4 and 6: RFC 1034)",
            "A DNS host name of letters, digits and hyphens (and valid A-labels).",
            {"draft4": "_format_hostname_rfc1034", "draft6": "_format_hostname_rfc1034"},
        ),
        FormatSpec(
            "idn-hostname",
            "_format_idn_hostname",
            _FROM_7,
            "RFC 5890-5893 (IDNA 2008), after the RFC 5895 mapping",
            "An internationalized host name (U-labels, A-labels and LDH labels).",
        ),
        FormatSpec(
            "ipv4",
            "_format_ipv4",
            ALL_DRAFTS,
            "RFC 2673 section 3.2 dotted-quad",
            "An IPv4 address in dotted-quad notation, as 192.0.2.1.",
        ),
        FormatSpec(
            "ipv6",
            "_format_ipv6",
            ALL_DRAFTS,
            "RFC 4291 section 2.2",
            "An IPv6 address in text form, as 2001:db8::1 or ::ffff:192.0.2.1.",
        ),
        FormatSpec(
            "uri",
            "_format_uri",
            ALL_DRAFTS,
            "RFC 3986 section 3 URI",
            "An absolute URI with a scheme (a fragment allowed).",
        ),
        FormatSpec(
            "uri-reference",
            "_format_uri_reference",
            _FROM_6,
            "RFC 3986 section 4.1 URI-reference",
            "A URI or a relative reference.",
        ),
        FormatSpec(
            "iri",
            "_format_iri",
            _FROM_7,
            "RFC 3987 section 2.2 IRI",
            "An absolute IRI: a URI that may hold non-ASCII characters.",
        ),
        FormatSpec(
            "iri-reference",
            "_format_iri_reference",
            _FROM_7,
            "RFC 3987 section 2.2 IRI-reference",
            "An IRI or a relative IRI reference.",
        ),
        FormatSpec(
            "uri-template",
            "_format_uri_template",
            _FROM_6,
            "RFC 6570 section 2",
            "A URI Template (levels 1 to 4), as /users/{id}{?fields*}.",
        ),
        FormatSpec(
            "json-pointer",
            "_format_json_pointer",
            _FROM_6,
            "RFC 6901 section 3",
            "A JSON Pointer in its string form, as /a/b~1c.",
        ),
        FormatSpec(
            "relative-json-pointer",
            "_format_relative_json_pointer",
            _FROM_7,
            "draft-handrews-relative-json-pointer-01 section 3",
            "A Relative JSON Pointer, as 1/a or 0#.",
        ),
        FormatSpec(
            "regex",
            "_format_regex",
            _FROM_7,
            "ECMA-262 section 22.2.1 Pattern (u flag)",
            "An ECMA-262 regular expression.",
        ),
        FormatSpec(
            "uuid",
            "_format_uuid",
            _FROM_2019,
            "RFC 9562 section 4 (RFC 4122 section 3)",
            "A UUID in its hyphenated hex form.",
        ),
    )
}

CONTENT_ENCODINGS: dict[str, ContentSpec] = {
    "base64": ContentSpec(
        "base64",
        "_content_base64",
        _FROM_7,
        ("draft7",),
        "RFC 4648 section 4",
        "Base64 with the standard alphabet and padding.",
        decoder="_content_base64_decode",
    ),
}

CONTENT_MEDIA_TYPES: dict[str, ContentSpec] = {
    "application/json": ContentSpec(
        "application/json",
        "_content_application_json",
        _FROM_7,
        ("draft7",),
        "RFC 8259",
        "A JSON text (after decoding, when contentEncoding is set).",
    ),
}


# -- the source of checkers.py, read once -------------------------------------------------------


def _read_checkers() -> tuple[dict[str, str], dict[str, str], dict[str, str], list[str]]:
    """Imports (alias -> import line), constants and functions (name -> source) of checkers.py,
    and every top-level name in definition order."""
    source = inspect.getsource(checkers)
    lines = _source_lines(source)
    imports: dict[str, str] = {}
    constants: dict[str, str] = {}
    functions: dict[str, str] = {}
    order: list[str] = []
    for node in ast.parse(source).body:
        text = _segment(lines, node)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                continue
            for alias in node.names:
                imports[alias.asname or alias.name] = text
                order.append(alias.asname or alias.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                assert isinstance(target, ast.Name)
                constants[target.id] = text
                order.append(target.id)
        elif isinstance(node, ast.FunctionDef):
            functions[node.name] = text + "\n"
            order.append(node.name)
    return imports, constants, functions, order


def _source_lines(source: str) -> list[str]:
    """The lines of a source text with their ends, split where ast splits them (at \\r\\n, \\r
    and \\n only)."""
    lines: list[str] = []
    start = 0
    for end in re.finditer(r"\r\n|\r|\n", source):
        lines.append(source[start : end.end()])
        start = end.end()
    if start < len(source):
        lines.append(source[start:])
    return lines


def _segment(lines: list[str], node: ast.stmt) -> str:
    """ast.get_source_segment's text of a top-level statement, from lines split once (it splits
    the whole source again for each statement: quadratic in checkers.py's size)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    start, end = node.col_offset, node.end_col_offset
    if first == last:
        return lines[first].encode()[start:end].decode()
    head = lines[first].encode()[start:].decode()
    tail = lines[last].encode()[:end].decode()
    return "".join([head, *lines[first + 1 : last], tail])


def _read_depends(names: list[str]) -> dict[str, tuple[str, ...]]:
    """For each top-level name of checkers.py, the other top-level names its definition uses."""
    source = inspect.getsource(checkers)
    known = set(names)
    depends: dict[str, tuple[str, ...]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                depends[alias.asname or alias.name] = ()
            continue
        if isinstance(node, ast.FunctionDef):
            defined = [node.name]
        elif isinstance(node, ast.Assign):
            defined = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            defined = [node.target.id]
        else:
            continue
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in known}
        for name in defined:
            depends[name] = tuple(sorted(used - {name}))
    return depends


IMPORTS, CONSTANTS, FUNCTIONS, _ORDER = _read_checkers()
DEPENDS = _read_depends(_ORDER)


def _closure(roots: Iterable[str]) -> set[str]:
    needed: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name not in needed:
            needed.add(name)
            stack.extend(DEPENDS.get(name, ()))
    return needed


def checker_names(
    formats: Iterable[str] = (),
    *,
    draft: str | None = None,
    encodings: Iterable[str] = (),
    media_types: Iterable[str] = (),
) -> list[str]:
    """The checker (and decoder) function names for these formats and content values, in draft
    `draft` (None: the latest rules); formats that draft does not define are left out. An
    unknown name raises KeyError."""
    names: list[str] = []
    for name in formats:
        checker_name = FORMATS[name].checker_for(draft)
        if checker_name is not None:
            names.append(checker_name)
    for name in encodings:
        spec = CONTENT_ENCODINGS[name]
        names.append(spec.checker)
        if spec.decoder is not None:
            names.append(spec.decoder)
    for name in media_types:
        names.append(CONTENT_MEDIA_TYPES[name].checker)
    return names


def sources(
    formats: Iterable[str] = (),
    *,
    draft: str | None = None,
    encodings: Iterable[str] = (),
    media_types: Iterable[str] = (),
) -> tuple[list[str], list[str], list[str]]:
    """(imports, constants, functions): the source lines a module needs to define the checkers
    of these formats (see checker_names) and everything they use, each once, in the order of
    checkers.py. Imports are whole statements (`import re as _re`), constants whole assignments,
    functions whole definitions ending in a newline."""
    return function_sources(
        checker_names(formats, draft=draft, encodings=encodings, media_types=media_types)
    )


def function_sources(names: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    """sources() for checker and decoder functions named directly (`_format_email`, as
    FormatSpec.checker_for gives them): the same three lists, each entry once."""
    needed = _closure(names)
    imports: list[str] = []
    constants: list[str] = []
    functions: list[str] = []
    for name in _ORDER:
        if name not in needed:
            continue
        if name in IMPORTS:
            if IMPORTS[name] not in imports:
                imports.append(IMPORTS[name])
        elif name in CONSTANTS:
            if CONSTANTS[name] not in constants:
                constants.append(CONSTANTS[name])
        else:
            functions.append(FUNCTIONS[name])
    return imports, constants, functions


def checker(format_name: str, draft: str | None = None) -> Callable[[str], bool] | None:
    """The checker function of a format in a draft, or None when the format is unknown there."""
    spec = FORMATS.get(format_name)
    name = spec.checker_for(draft) if spec is not None else None
    return getattr(checkers, name) if name is not None else None


def content_checker(encoding: str | None, media_type: str | None) -> Callable[[str], bool] | None:
    """The test of a string against contentEncoding / contentMediaType (either may be None or
    unknown, and is then ignored), as one function, or None when there is nothing to check."""
    encoding_spec = CONTENT_ENCODINGS.get(encoding) if encoding is not None else None
    media_spec = CONTENT_MEDIA_TYPES.get(media_type) if media_type is not None else None
    if media_spec is None:
        return getattr(checkers, encoding_spec.checker) if encoding_spec is not None else None
    media_check: Callable[[str], bool] = getattr(checkers, media_spec.checker)
    if encoding_spec is None:
        return media_check
    decode: Callable[[str], str | None] = getattr(checkers, encoding_spec.decoder or "")

    def check(s: str) -> bool:
        decoded = decode(s)
        return decoded is not None and media_check(decoded)

    return check


__all__ = [
    "ALL_DRAFTS",
    "CONTENT_ENCODINGS",
    "CONTENT_MEDIA_TYPES",
    "CONSTANTS",
    "ContentSpec",
    "DEPENDS",
    "FORMATS",
    "FUNCTIONS",
    "FormatSpec",
    "IMPORTS",
    "checker",
    "checker_names",
    "content_checker",
    "function_sources",
    "sources",
]
