"""Files for the CLI: which module a source becomes, atomic writes, exact JSON output, and how a
failure is reported (one line naming the file and the place in it)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

from ..errors import OptionError, StraightlineError
from ..render.module import module_name_for


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
    for suffix in (".json", ".yaml", ".yml"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
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
        os.fchmod(fd, new_file_mode())  # mkstemp makes 0600, which the rename would keep
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def new_file_mode() -> int:
    """The mode a newly created ordinary file gets: 0666 less the umask."""
    return 0o666 & ~_umask()


def _umask() -> int:
    """The process umask, read without changing it where Linux shows it (/proc), since setting
    it to read it back would race with other threads (a build hook runs inside the builder)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def dump_exact(value: Any) -> str:
    """JSON text keeping Decimal numbers exact (json.dumps would turn them into floats or fail):
    each Decimal goes out as a unique marker string that is then replaced by its digits."""
    import uuid
    from decimal import Decimal

    token = uuid.uuid4().hex
    numbers: dict[str, str] = {}

    def mark(node: Any) -> Any:
        if isinstance(node, Decimal):
            marker = f"{token}:{len(numbers)}"
            numbers[json.dumps(marker)] = str(node)
            return marker
        if isinstance(node, dict):
            return {k: mark(v) for k, v in node.items()}
        if isinstance(node, list):
            return [mark(v) for v in node]
        return node

    text = json.dumps(mark(value), indent=2, ensure_ascii=False)
    for marker, digits in numbers.items():
        text = text.replace(marker, digits)
    return text + "\n"
