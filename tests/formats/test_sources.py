"""generator/formats/__init__.py: the registry's data, and `sources()`, whose code must work on
its own (a generated module has only the standard library): executed in a fresh namespace it
gives the same answers as the imported checkers, needs no other name, and passes mypy --strict."""

from __future__ import annotations

import ast
import builtins
import inspect
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

import pytest

from generator import formats
from generator.formats import checkers
from generator.load import load_json

from ..suite import DRAFTS, suite_dir


def _suite_strings() -> dict[str, list[str]]:
    """format name -> every string the suite's optional format tests give it (all drafts)."""
    root = suite_dir()
    found: dict[str, list[str]] = {}
    if root is None:
        return found
    for draft in DRAFTS:
        for path in sorted((root / "tests" / draft / "optional" / "format").glob("*.json")):
            for group in load_json(path.read_bytes()):
                values = found.setdefault(group["schema"]["format"], [])
                values.extend(t["data"] for t in group["tests"] if isinstance(t["data"], str))
    return found


SUITE_STRINGS = _suite_strings()
# Strings no suite case has, so that every branch of the copied code runs at least once.
EXTRA_STRINGS = [
    "",
    "a",
    "xn--bcher-kva.example",
    "b\u00fccher.example",
    "\u05d0\u05d1.com",
    "http://[v7.fe]:80/a?b#c",
    "{+x,y*}",
    r"(?<a>\p{L}[\d-])\k<a>\u{1F600}",
]
CONTENT_STRINGS = [
    "",
    "eyJmb28iOiAiYmFyIn0K",
    "ezp9Cg==",
    "{}",
    "Zg==",
    "Zh==",
    "/w==",
    "[1,]",
    "NaN",
    '{"a": [1, 2.5e3, null]}',
]


def _standalone(imports: list[str], constants: list[str], functions: list[str]) -> dict[str, Any]:
    """Execute module text in a namespace holding nothing but the builtins; warnings are errors
    (an invalid escape in a copied regex would be one)."""
    namespace: dict[str, Any] = {"__builtins__": builtins}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = compile("\n".join([*imports, *constants, *functions]), "<formats>", "exec")
    exec(code, namespace)
    return namespace


def _defined_names(imports: list[str], constants: list[str], functions: list[str]) -> set[str]:
    return set(_standalone(imports, constants, functions)) - {"__builtins__", "__annotations__"}


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("name", sorted(formats.FORMATS))
def test_copied_checker_answers_as_the_imported_one(name: str, draft: str) -> None:
    checker_name = formats.FORMATS[name].checker_for(draft)
    if checker_name is None:
        assert draft not in formats.FORMATS[name].drafts
        assert formats.sources([name], draft=draft) == ([], [], [])
        return
    namespace = _standalone(*formats.sources([name], draft=draft))
    copied: Callable[[str], bool] = namespace[checker_name]
    imported: Callable[[str], bool] = getattr(checkers, checker_name)
    values = SUITE_STRINGS[name] + EXTRA_STRINGS
    assert [copied(v) for v in values] == [imported(v) for v in values]
    assert any(imported(v) for v in values) and not all(imported(v) for v in values)


def test_copied_content_checkers_answer_as_the_imported_ones() -> None:
    namespace = _standalone(
        *formats.sources(encodings=["base64"], media_types=["application/json"])
    )
    for name in ("_content_base64", "_content_base64_decode", "_content_application_json"):
        copied = namespace[name]
        imported = getattr(checkers, name)
        assert [copied(v) for v in CONTENT_STRINGS] == [imported(v) for v in CONTENT_STRINGS]


@pytest.mark.parametrize("name", sorted(formats.FORMATS))
def test_sources_define_exactly_the_closure_of_the_checker(name: str) -> None:
    """Nothing a checker does not use is copied: every defined name is the checker or reachable
    from it through DEPENDS, and every name the code uses is defined."""
    imports, constants, functions = formats.sources([name])
    defined = _defined_names(imports, constants, functions)
    reachable = {formats.FORMATS[name].checker}
    stack = list(reachable)
    while stack:
        for used in formats.DEPENDS[stack.pop()]:
            if used not in reachable:
                reachable.add(used)
                stack.append(used)
    assert defined == reachable
    assert len(functions) == len({f.split("(")[0] for f in functions})


def test_sources_are_deterministic_and_ordered_as_the_file() -> None:
    everything = list(formats.FORMATS)
    first = formats.sources(everything, encodings=["base64"], media_types=["application/json"])
    again = formats.sources(
        reversed(everything), media_types=["application/json"], encodings=["base64"]
    )
    assert first == again
    text = Path(checkers.__file__).read_text(encoding="utf-8")
    for pieces in first[1:]:
        positions = [text.index(piece) for piece in pieces]
        assert positions == sorted(positions)
    assert first[0] == [
        "import binascii as _binascii",
        "import json as _json",
        "import re as _re",
        "import unicodedata as _unicodedata",
        "from bisect import bisect_right as _bisect_right",
    ]


def test_uri_sources_leave_out_the_iri_tables() -> None:
    _, constants, functions = formats.sources(["uri"])
    assert not [c for c in constants if c.startswith("_FMT_IRI_")]
    assert not [f for f in functions if "unicodedata" in f]


def test_draft_specific_checker() -> None:
    spec = formats.FORMATS["hostname"]
    assert spec.checker_for("draft4") == spec.checker_for("draft6") == "_format_hostname_rfc1034"
    assert spec.checker_for("draft7") == spec.checker_for(None) == "_format_hostname"
    assert formats.checker("hostname", "draft6") is checkers._format_hostname_rfc1034
    assert formats.checker("duration", "draft7") is None  # defined from 2019-09 on
    assert formats.checker("no-such-format") is None
    with pytest.raises(KeyError):
        formats.sources(["no-such-format"])


def test_registry_names_existing_functions() -> None:
    names = {
        n
        for spec in formats.FORMATS.values()
        for n in (spec.checker, *spec.draft_checkers.values())
    }
    for spec in [*formats.CONTENT_ENCODINGS.values(), *formats.CONTENT_MEDIA_TYPES.values()]:
        names.add(spec.checker)
        if spec.decoder:
            names.add(spec.decoder)
    for name in names:
        assert callable(getattr(checkers, name)), name
    for name, spec in formats.FORMATS.items():
        assert spec.name == name and spec.checker == "_format_" + name.replace("-", "_")
        assert set(spec.drafts) <= set(formats.ALL_DRAFTS) and spec.description


def test_content_checker_composes_decoding_and_media_type() -> None:
    both = formats.content_checker("base64", "application/json")
    assert both is not None
    assert both("eyJhIjogMX0=")  # {"a": 1}
    assert not both("e30")  # not padded
    assert not both("/w==")  # the byte FF: not UTF-8
    assert not both("ezp9")  # {:}
    assert formats.content_checker(None, None) is None
    assert formats.content_checker("base32", "text/plain") is None  # unknown: ignored


def test_sources_pass_mypy_strict(tmp_path: Path) -> None:
    """The generated modules pass mypy --strict; so must the code they copy from here."""
    pytest.importorskip("mypy")
    imports, constants, functions = formats.sources(
        list(formats.FORMATS) + ["hostname"],
        draft="draft4",
        encodings=["base64"],
        media_types=["application/json"],
    )
    imports2, constants2, functions2 = formats.sources(list(formats.FORMATS))
    module = tmp_path / "copied_formats.py"
    parts = [
        "from typing import Any",
        *dict.fromkeys(imports + imports2),
        *dict.fromkeys(constants + constants2),
        *dict.fromkeys(functions + functions2),
    ]
    module.write_text("\n".join(parts), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(module)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# -- reading checkers.py: the tables above are built at import, so these call the readers in a test
# (where a mutation run can see which tests reach them)


def test_read_checkers_splits_the_file_as_ast_does() -> None:
    """Each import, constant and function of checkers.py is the text ast.get_source_segment gives
    for its statement (functions with a final newline), in definition order; the __future__
    import is not copied (a generated module has its own)."""
    source = inspect.getsource(checkers)
    imports, constants, functions, order = formats._read_checkers()
    assert imports == {
        "_binascii": "import binascii as _binascii",
        "_json": "import json as _json",
        "_re": "import re as _re",
        "_unicodedata": "import unicodedata as _unicodedata",
        "_bisect_right": "from bisect import bisect_right as _bisect_right",
    }
    expected_order = list(imports)
    for node in ast.parse(source).body:
        text = ast.get_source_segment(source, node)
        if isinstance(node, ast.Assign):
            (target,) = node.targets
            assert isinstance(target, ast.Name)
            assert constants[target.id] == text
            expected_order.append(target.id)
        elif isinstance(node, ast.AnnAssign):
            assert isinstance(node.target, ast.Name)
            assert constants[node.target.id] == text
            expected_order.append(node.target.id)
        elif isinstance(node, ast.FunctionDef):
            assert functions[node.name] == f"{text}\n"
            expected_order.append(node.name)
    assert order == expected_order
    assert len(order) == len(imports) + len(constants) + len(functions)
    assert constants["_FMT_CACHE_LIMIT"] == "_FMT_CACHE_LIMIT = 4096"
    assert constants["_FMT_IDNA_CLASS_CACHE"] == "_FMT_IDNA_CLASS_CACHE: dict[str, int] = {}"
    assert functions["_fmt_json_constant"].startswith(
        "def _fmt_json_constant(name: str) -> None:\n"
    )
    assert functions["_fmt_json_constant"].endswith("    raise ValueError(name)\n")


def test_source_lines_split_at_every_line_end_as_ast_does() -> None:
    assert formats._source_lines("a\r\nb\rc\nd") == ["a\r\n", "b\r", "c\n", "d"]
    assert formats._source_lines("a\n\n") == ["a\n", "\n"]
    assert formats._source_lines("") == []
    assert formats._source_lines("x") == ["x"]


@pytest.mark.parametrize(
    "source",
    [
        'x = "\u00e9"; y = "\u00fc"\n',  # two statements on a line: offsets count UTF-8 bytes
        'w = 1; v = ("\u00e9",\n  "\u00fc",\n  "\u00f6"); u = 2\n',  # one over three lines
        "def f():\r\n    return 1\r\n\r\ng = 2\r\n",
    ],
)
def test_segment_is_ast_get_source_segment(source: str) -> None:
    lines = formats._source_lines(source)
    for node in ast.parse(source).body:
        assert formats._segment(lines, node) == ast.get_source_segment(source, node)


def test_read_depends_gives_the_known_names_each_definition_uses() -> None:
    _, _, _, order = formats._read_checkers()
    depends = formats._read_depends(order)
    assert set(depends) == {*order, "annotations"}  # (the __future__ import is read too)
    for name in ("annotations", "_binascii", "_json", "_re", "_unicodedata", "_bisect_right"):
        assert depends[name] == ()
    assert depends["_format_date"] == ("_FMT_DATE_RE", "_fmt_valid_date")
    assert depends["_FMT_DATE_RE"] == ("_re",)
    assert depends["_FMT_JOINING_TABLE"] == ()  # an annotated assignment
    assert depends["_FMT_URI_PARTS"] == (
        "_FMT_URI_PATH_RE",
        "_FMT_URI_QUERY_RE",
        "_FMT_URI_REG_NAME_RE",
        "_FMT_URI_USERINFO_RE",
    )
    assert depends["_fmt_joining_type"] == (
        "_FMT_JOINING_TABLE",
        "_FMT_JOINING_TYPES",
        "_bisect_right",
        "_unicodedata",
    )
    # only the names asked about count
    assert formats._read_depends(["_FMT_DATE_RE", "_format_date"])["_format_date"] == (
        "_FMT_DATE_RE",
    )
