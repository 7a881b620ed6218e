"""A rendered module as tagged sections: its text cut where the renderer put its top-level parts
(render/module.py), each with its kind and the names it defines, so that what is built from the
text (the mypyc build, generator/native/source.py) knows the module's structure from the renderer
instead of parsing the text back."""

from __future__ import annotations

from dataclasses import dataclass, replace

# What a section is, for the mypyc build:
CODE = "code"  # compiled as it stands: functions, the template's own statements
TYPES = "types"  # the static types (render/types.py): run at import
DATA = "data"  # the tables and pairs filled after the functions: run at import
CONSTANT = "constant"  # one `_K3: Final = ...`: compiled, or run at import in a very large module
KINDS = (CODE, TYPES, DATA, CONSTANT)


@dataclass(frozen=True)
class Section:
    """A run of whole lines of the module text (ending with its newline and the blank lines after
    it). `defines`: the names it binds that other sections may read, with `types` the static type
    a reader declares each by (a value's: "Any" where it is not plain; ignored for TYPES, which are
    declared as types). `statements`: how many top-level statements it holds that mypyc compiles
    as module code (definitions and imports not counted)."""

    kind: str
    text: str
    defines: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    statements: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"not a section kind: {self.kind!r}")
        if self.kind != TYPES and len(self.types) != len(self.defines):
            raise ValueError("a section gives one type per name it defines")


@dataclass(frozen=True)
class RenderedModule:
    """A module's text as its sections, in order. `surrogates`: the str literals in the text that
    hold a lone surrogate, as codegen.literal wrote them, with their values."""

    sections: tuple[Section, ...]
    surrogates: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        return "".join(section.text for section in self.sections)

    @staticmethod
    def of_text(text: str) -> RenderedModule:
        """A module of one code section (text that no renderer cut: compiled as it stands)."""
        return RenderedModule((Section(CODE, text),))

    def resealed(self, sealed: str) -> RenderedModule:
        """This module with its text `sealed` (render/header.py's seal: lines added to the header,
        which lies in the first section); ValueError if that is not what changed."""
        first, rest = self.sections[0].text, self.text[len(self.sections[0].text) :]
        grown = len(sealed) - len(rest)
        if grown < 0 or not sealed.endswith(rest) or not sealed.startswith(first.split("\n")[0]):
            raise ValueError("the sealed text is not this module's text with a longer header")
        return replace(
            self, sections=(replace(self.sections[0], text=sealed[:grown]), *self.sections[1:])
        )
