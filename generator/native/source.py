"""The text mypyc compiles for a generated module: the module itself, with the top-level statements
that only build data run by the interpreter instead of compiled.

Two parts of a generated module cost a mypyc build far more than they gain from it:

- its static types (render/types.py: `Name: TypeAlias = ...`, `Name = TypedDict(...)`, `class
  Name(_NameRequired, _NameOptional): pass`), for its users' type checkers: the module's own code
  names only the root type (`TypeGuard[Instance]`), yet mypy checks every one before mypyc compiles
  anything; on a large schema the types take mypy far longer than the rest of the module
  (docs/native.md, "Large modules").
- its module-level data (the tables filled by `_F12.update({...})`, the `_Q3 = (_v1, _e1)` pairs
  they hold, and in a large module the constants): mypyc compiles all top-level statements as one
  C function, and its reference-count analysis of a function takes memory that grows with the
  square of its size, so a large module's top level exhausts the build's memory.

The renderer says which statements those are: it hands the module over as tagged sections
(render/sections.py: types, data, constants, code, each with the names it defines), and the text
is never parsed back. Each run of type or data sections is replaced, in the text given to mypyc,
by one line

    Instance = Any; exec(compile('<the run's text>', '<data of NAME>', 'exec'), globals())

(and blank lines, so that what follows keeps its line numbers, which mypy's messages name), which
defines the same objects under the same names in the module's namespace when the extension is
imported: the interpreter runs the very text the pure module runs (a TypedDict's `__module__` is the
module's name either way). For mypy, each name the compiled code uses is declared (`Name = Any` for
a type, `Name: T` for a value, T the type the renderer gave it), where a word of the compiled
text names it (a word of a string or comment counts too: one declaration more, never one less).
The constants (`Final`) stay compiled, as C statics the compiled functions read directly, unless
the sections count more than _MAX_COMPILED_TOP_LEVEL such statements (the template's own handful
not counted): then they are run at import too and read from the module's namespace (slower: a
dictionary look-up each, but FHIR's module is built at all). The module file, and the record's
hash of it, stay the module's own text.

A str literal holding a lone surrogate (JSON allows "\\ud83d" in a schema's strings; the module
names them, as codegen.literal wrote them) is written in that text as the same string joined from
parts and chr() calls (or, holding many, as its `unicode_escape` text decoded when it runs): mypyc
writes literals into C as UTF-8, which a surrogate has not, and refuses them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..codegen import literal
from ..render.sections import CONSTANT, DATA, TYPES, RenderedModule, Section

# More top-level statements than this left compiled, and the constants are run at import too.
_MAX_COMPILED_TOP_LEVEL = 500
# Where the run code objects say they come from (tracebacks, `co_filename`).
_RUN_FILE = "<data of {name}>"
_WORD = re.compile(r"[A-Za-z_]\w*")


def mypyc_source(module: RenderedModule, name: str) -> str:
    """The text of `module` (a generated module) with its static types and module-level data run
    through `exec` at import (see the module's docstring), and its str literals mypyc cannot write
    made at run time; `name` names the module in the code's file name."""
    compiled_top_level = sum(s.statements for s in module.sections if s.kind != DATA)
    demote = compiled_top_level > _MAX_COMPILED_TOP_LEVEL
    runs = _runs(module.sections, demote)
    kept = [s for s, run in zip(module.sections, runs) if run is None]
    words = set(_WORD.findall("".join(s.text for s in kept)))
    surrogates = dict(module.surrogates)
    out: list[str] = []
    at = 0
    while at < len(module.sections):
        kind = runs[at]
        if kind is None:
            out.append(_without_surrogate_literals(module.sections[at].text, surrogates))
            at += 1
            continue
        end = at
        while end < len(module.sections) and runs[end] == kind:
            end += 1
        out.append(_run_text(module.sections[at:end], kind == TYPES, words, name))
        at = end
    return "".join(out)


def _runs(sections: Sequence[Section], demote: bool) -> list[str | None]:
    """For each section, the kind of run at import it is part of (TYPES or DATA), or None where
    it stays compiled."""
    return [
        (
            TYPES
            if s.kind == TYPES
            else DATA if s.kind == DATA or (demote and s.kind == CONSTANT) else None
        )
        for s in sections
    ]


def _run_text(run: Sequence[Section], types: bool, words: set[str], name: str) -> str:
    """One line that declares what the compiled text names of the run's definitions and runs the
    run's text, then as many blank lines as keep the lines after it where they were."""
    text = "".join(s.text for s in run)
    declared = "".join(
        f"{defined} = Any; " if types else f"{defined}: {type_}; "
        for defined, type_ in sorted(
            {
                defined: type_
                for s in run
                for defined, type_ in zip(s.defines, s.types if not types else s.defines)
                if defined in words
            }.items()
        )
    )
    run_line = (
        declared + f"exec(compile({text!r}, {_RUN_FILE.format(name=name)!r}, 'exec'), globals())"
    )
    return run_line + "\n" * text.count("\n")


# A surrogate code point.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogate_literals(text: str, surrogates: dict[str, str]) -> str:
    """`text` with each str literal that holds a lone surrogate (`surrogates`: as written, and
    its value) written as an expression of the same string (_rebuilt): mypyc writes a literal into
    C as UTF-8, which a surrogate has not, and refuses the module ("Surrogate codepoints in string
    literals not supported"), in parentheses, on the literal's line. The longest first: a literal's
    text may hold a shorter one's."""
    for written, value in sorted(surrogates.items(), key=lambda item: -len(item[0])):
        if written in text:
            text = text.replace(written, "(" + _rebuilt(value) + ")")  # (ascii: one line)
    return text


# More lone surrogates than this in a string, and it is written as its unicode_escape text decoded
# (one call) rather than its parts joined with chr() (an addition and a call a surrogate).
_MOST_CHR = 8


def _rebuilt(value: str) -> str:
    """An expression of `value` written without a surrogate: its runs of other characters as
    literals, each surrogate chr(N), joined (cheaper where it runs than decoding); for a string
    of more than _MOST_CHR surrogates, its `unicode_escape` text, decoded when it runs, whose size
    does not grow with theirs: a chain for a string of many surrogates exhausts mypyc's memory, or
    is deeper than CPython compiles (docs/native.md, "Large modules")."""
    if len(_SURROGATE.findall(value)) > _MOST_CHR:
        return (
            literal(value.encode("unicode_escape").decode("ascii")).text
            + ".encode().decode('unicode_escape')"
        )
    parts = re.findall("[\ud800-\udfff]|[^\ud800-\udfff]+", value)
    return " + ".join(
        f"chr({ord(part)})" if _SURROGATE.fullmatch(part) else literal(part).text for part in parts
    )
