"""The documentation: README.md and the site under docs/ (mkdocs.yml), built with `mkdocs build
--strict` (a broken link or a page missing from the nav fails it), and their examples run.

Which examples run, by their fence:
- ```console: a shell session. Each `$ ` line is a command (a heredoc's lines up to its end word
  belong to it), run with bash in a directory of the page's own (the page's sessions share it, in
  order), straightline's command and Python first on PATH; the lines after it, up to the next
  command, are what it must print (standard error and output, as a terminal shows them: a
  command's warnings come before its buffered output).
- ```pycon: a Python session, run as a doctest in that directory in a process of its own, after
  the console blocks above it (so it may import a module they compiled); each block stands alone.
Other fences (sh, toml, python, text, ...) are shown, not run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
HEREDOC = re.compile(r"<<-?\s*'?\"?(\w+)'?\"?")
HANG_LIMIT = 300  # seconds: catches a hang, times nothing


def _blocks(page: Path) -> list[tuple[str, str, int]]:
    """(language, text, line) of each fenced block of a page."""
    text = page.read_text(encoding="utf-8")
    return [
        (m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)
    ]


def _session(text: str) -> list[tuple[str, str]]:
    """(command, expected output) of each `$ ` line of a console block."""
    steps: list[tuple[str, list[str]]] = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith("$ "):
            command = [line[2:]]
            heredoc = HEREDOC.search(line)
            if heredoc:
                while index < len(lines) and lines[index] != heredoc.group(1):
                    command.append(lines[index])
                    index += 1
                command.append(lines[index] if index < len(lines) else "")
                index += 1
            steps.append(("\n".join(command), []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise AssertionError(
                f"a console block starts with output, not a `$ ` command: {line!r}"
            )
    return [(command, "\n".join(output).rstrip("\n")) for command, output in steps]


def _environment() -> dict[str, str]:
    return {
        **os.environ,
        "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
        "PYTHONDONTWRITEBYTECODE": "1",
        "COLUMNS": "100",
        "NO_COLOR": "1",
        "NO_MKDOCS_2_WARNING": "1",
    }


RUNNABLE = [
    (page, line)
    for page in PAGES
    for language, _, line in _blocks(page)
    if language in ("console", "pycon")
]


def test_the_readme_and_the_pages_have_examples_that_run() -> None:
    pages = {page.name for page, _ in RUNNABLE}
    assert "README.md" in pages and len(pages) >= 4, pages


@pytest.mark.parametrize("page", sorted({page for page, _ in RUNNABLE}), ids=lambda page: page.name)
def test_examples(page: Path, tmp_path: Path) -> None:
    """Every console and pycon block of the page, in order, in one directory."""
    environment = _environment()
    for language, text, line in _blocks(page):
        where = f"{page.name}:{line}"
        if language == "console":
            for command, expected in _session(text):
                done = subprocess.run(
                    ["bash", "-c", command],
                    cwd=tmp_path,
                    env=environment,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    timeout=HANG_LIMIT,
                )
                printed = done.stdout.rstrip("\n")
                assert (
                    printed == expected
                ), f"{where}: `{command.splitlines()[0]}` printed:\n{printed}"
        elif language == "pycon":
            script = tmp_path / f".doctest-{line}.txt"
            script.write_text(text, encoding="utf-8")
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "doctest",
                    "-o",
                    "ELLIPSIS",
                    "-o",
                    "NORMALIZE_WHITESPACE",
                    script.name,
                ],
                cwd=tmp_path,
                env={**environment, "PYTHONPATH": str(tmp_path)},
                capture_output=True,
                text=True,
                timeout=HANG_LIMIT,
            )
            assert done.returncode == 0, f"{where}: the doctest failed:\n{done.stdout}{done.stderr}"


def test_the_readme_is_the_short_front_door() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 260
    first_block = FENCE.search(text)
    assert first_block is not None and first_block.group(2).split("\n")[:2] == [
        "make generate   # a .venv with straightline and its test extra; compiles contracts/ into generated/",
        "make test       # the whole test suite",
    ]
    assert "docs/images/bench.svg" in text


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """mkdocs-material is in the test extra: the build is never skipped."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=HANG_LIMIT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "index.html").exists()
    built = {
        path.relative_to(tmp_path / "site").as_posix()
        for path in (tmp_path / "site").rglob("index.html")
    }
    for page in (ROOT / "docs").glob("*.md"):
        name = "index.html" if page.stem == "index" else f"{page.stem}/index.html"
        assert name in built, f"docs/{page.name} is not in the built site"
