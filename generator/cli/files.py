"""Files for the CLI: which module a source becomes, atomic writes, exact JSON output, and how a
failure is reported (one line naming the file and the place in it)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

from ..errors import OptionError, StraightlineError
from ..render.module import module_name_for
from ..values import dumps_exact


def split_source(source: str) -> tuple[str, str]:
    """FILE#/pointer -> (FILE, /pointer); a file whose own name has '#' is taken whole."""
    if "#" in source and not Path(source).exists():
        path, _, fragment = source.partition("#")
        return path, fragment
    return source, ""


def report(path: str, error: StraightlineError) -> None:
    print(f"{path}:{error.pointer or '/'}: {error.message} [{error.code}]", file=sys.stderr)


def module_path(out: Path, source: str) -> Path:
    """The module file SRC is compiled to: its file name as an identifier (a fragment's last
    token appended)."""
    path, fragment = split_source(source)
    stem = Path(path).name
    if stem.endswith(".json"):
        stem = stem[: -len(".json")]
    if fragment:
        stem += "_" + fragment.strip("#/").rsplit("/", 1)[-1]
    return out / (module_name_for(stem) + ".py")


def targets(sources: Sequence[str], out: Path) -> dict[str, Path]:
    """Each source's module file; two sources that would share one are an OptionError."""
    found: dict[str, Path] = {}
    seen: dict[Path, str] = {}
    for source in sources:
        target = module_path(out, source)
        if target in seen and seen[target] != source:
            raise OptionError(f"{source} and {seen[target]} would both be written to {target}")
        seen[target] = source
        found[source] = target
    return found


def write_atomic(target: Path, text: str) -> None:
    """Write through a temporary file in the same directory and rename it over the target, so a
    reader sees the old file or the new one, never half of one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix="." + target.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def dump_exact(value: Any) -> str:
    """Indented JSON text keeping every number exact (Decimals and ints past Python's digit limit
    as their digits: values.dumps_exact)."""
    return dumps_exact(value, indent=2, ensure_ascii=False) + "\n"
