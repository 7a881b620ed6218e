"""How a failure or a compile's warnings read as lines of text: `FILE:POINTER: message [code]`.
The command prints these lines (cli/files.py, made printable); a build hook raises them."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import SchemaError, SchemaWarning, StraightlineError, shown_pointer


def failure_lines(path: str, error: StraightlineError) -> list[str]:
    """`FILE:POINTER: message [code]`, a line for each problem a SchemaError lists (every
    unresolvable reference of a schema, say)."""
    return [
        f"{path}:{shown_pointer(each.pointer)}: {each.message} [{each.code}]"
        for each in (error.errors if isinstance(error, SchemaError) else (error,))
    ]


def warning_lines(path: str, found: Sequence[SchemaWarning]) -> list[str]:
    """A compile's schema warnings, a line each, in the order found:
    `FILE:POINTER: warning: message [code]`; those with one message (an unknown keyword used in
    77 places) once, counted, at the first place: `FILE: warning: 77 unknown keywords ...
    [code], the first at POINTER`."""
    groups: dict[tuple[str, str], list[SchemaWarning]] = {}
    for warning in found:
        groups.setdefault((warning.code, warning.message), []).append(warning)
    lines = []
    for (code, message), same in groups.items():
        first = same[0]
        if len(same) == 1:
            lines.append(f"{path}:{shown_pointer(first.pointer)}: warning: {message} [{code}]")
        else:
            text = (
                f"{len(same)} {first.several}"
                if first.several
                else f"{message} ({len(same)} times)"
            )
            lines.append(
                f"{path}: warning: {text} [{code}], the first at {shown_pointer(first.pointer)}"
            )
    return lines
