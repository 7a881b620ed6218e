"""contentEncoding and contentMediaType: annotations from draft 7 on; in draft 7, where the draft
makes them optional assertions, checks when the content option (generator/format_options.py,
applied by profiles.with_formats) asks for them. 2019-09 and 2020-12 define them as annotations
only, so there they never check.

A check applies to strings: contentEncoding `base64` checks the encoding; contentMediaType
`application/json` checks the string, or, beside a known contentEncoding, the decoded text (a
string that does not decode fails both). Unknown encodings and media types check nothing. The
checkers are generator/formats/checkers.py's `_content_*` functions, copied into the module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import ir
from ..emit.context import ErrorContext, X, fail
from ..emit.tree import NONE, Assign, Call, Compare, Name, Not, Stmt, call, fail_if, if_, or_
from .base import CheckKind, Context, Keyword, Lowering, Walk, drafts

if TYPE_CHECKING:
    from ..emit.context import Branch


@dataclass(frozen=True)
class Content(ir.Check):
    value: str = ""  # the keyword's value (for the message)
    function: str = ""  # the checker, str -> bool
    decoder: str = (
        ""  # a media type beside a known encoding: the decoder (str -> str | None) run first
    )
    applies_to = "string"


# The messages (emit/context.py, "errors"): the encoding or media type as the schema names it.
MESSAGES = {
    "contentEncoding": "{instance} is not valid {contentEncoding}",
    "contentMediaType": "{instance} is not valid {contentMediaType}",
    "contentMediaType.decoded": "{instance} is not valid {contentMediaType} content once decoded",
}


# -- preflight ------------------------------------------------------------------------------------
def check_content(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, str):
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"{pointer.rsplit('/', 1)[-1]} must be a string, not {w.describe(value)}",
        )


# -- lowering -------------------------------------------------------------------------------------
def lower_encoding(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    from ..formats import CONTENT_ENCODINGS

    spec = CONTENT_ENCODINGS.get(value)
    return [Content("contentEncoding", value, spec.checker)] if spec is not None else []


def lower_media_type(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    from ..formats import CONTENT_ENCODINGS, CONTENT_MEDIA_TYPES

    media = CONTENT_MEDIA_TYPES.get(value)
    if media is None:
        return []
    if not lw.enforced("contentEncoding", schema):
        return [Content("contentMediaType", value, media.checker)]
    encoding = CONTENT_ENCODINGS.get(schema["contentEncoding"])
    if encoding is None or encoding.decoder is None:
        return []  # encoded in a way nothing here decodes: the media type cannot be checked
    return [Content("contentMediaType", value, media.checker, encoding.decoder)]


# -- emission -------------------------------------------------------------------------------------
def fast_content(b: Branch, check: Content) -> list[Stmt]:
    m = b.m
    if not check.decoder:
        return [fail_if(Not(Call(m.format_function(check.function), (b.x,))))]
    decoded = b.scope("decoded")
    return [
        Assign(decoded, Call(m.format_function(check.decoder), (b.x,))),
        fail_if(
            or_(
                Compare(decoded, "is", NONE),
                Not(Call(m.format_function(check.function), (decoded,))),
            )
        ),
    ]


def error_content(e: ErrorContext, check: Content) -> list[Stmt]:
    m = e.m
    name = check.keyword + (".decoded" if check.decoder else "")
    failure = fail(e, check.keyword, MESSAGES[name], {check.keyword: check.value})
    if not check.decoder:
        return [if_(Not(Call(m.format_function(check.function), (call("str", X),))), [failure])]
    decoded = Name("decoded")
    bad = or_(
        Compare(decoded, "is", NONE), Not(Call(m.format_function(check.function), (decoded,)))
    )
    return [
        Assign(decoded, Call(m.format_function(check.decoder), (call("str", X),))),
        if_(bad, [failure]),
    ]


_KNOWN = drafts("draft7")  # the drafts that define them (7 on)
_OPTIONAL = frozenset({"draft7"})  # the draft where they are optional assertions
KEYWORDS = [
    Keyword(
        "contentEncoding",
        "content",
        frozenset(),
        check_content,
        lower_encoding,
        annotation=_KNOWN,
        optional=_OPTIONAL,
    ),
    Keyword(
        "contentMediaType",
        "content",
        frozenset(),
        check_content,
        lower_media_type,
        annotation=_KNOWN,
        optional=_OPTIONAL,
    ),
]
CHECKS = [CheckKind(Content, cost=5, work=8, fast=fast_content, error=error_content)]
