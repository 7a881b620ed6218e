"""Files the compiler writes: which module a source becomes, atomic writes (never half a file),
and exact JSON text. Library code: the CLI, the project build and the native build share it."""

from __future__ import annotations

import contextlib
import errno
import importlib.machinery
import os
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

try:
    import fcntl
except ImportError:  # Windows: no flock, so no clean-up of left-over temporary files
    fcntl = None  # type: ignore[assignment]

from .errors import OptionError
from .names import module_name_for
from .values import dumps_exact


def split_source(source: str) -> tuple[str, str]:
    """FILE#/pointer -> (FILE, /pointer); a file whose own name has '#' is taken whole."""
    if "#" in source and not Path(source).exists():
        path, _, fragment = source.partition("#")
        return path, fragment
    return source, ""


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


def shadowing_package(module: Path) -> Path | None:
    """The package beside `module` that has its name (out/m/ with an __init__ of any suffix
    Python imports, for out/m.py): `import` finds it first, so never the module. None when there is
    none (a directory without an __init__ is a namespace portion, which the module wins over)."""
    package = module.with_suffix("")
    for suffix in importlib.machinery.all_suffixes():
        if (package / f"__init__{suffix}").is_file():
            return package
    return None


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


# A temporary file of a write is `.NAME.<8 characters of mkstemp>.tmp` beside the target.
_TEMPORARY = re.compile(r"\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp")
# A temporary file whose writer holds no lock on it and that is at least this old (seconds) is a
# left-over of a writer that was killed: the next write of the same target removes it. The age
# only covers the instant between a writer creating its file and locking it.
STALE_AFTER = 10.0


def write_atomic(target: Path, data: str | bytes, *, executable: bool = False) -> None:
    """Write through a temporary file in the same directory and rename it over the target, so a
    reader sees the old file or the new one, never half of one (the target is replaced, a new
    inode, never rewritten in place: a process that has a native module loaded keeps its copy).
    Text is written as UTF-8 with its newlines as they are; bytes as they are (`executable`: the
    mode a linker gives a shared library). The writer holds an exclusive lock on its temporary
    file until the rename, so a later write can tell a live writer's file from a dead one's: it
    first removes the target's temporary files that nobody holds (see remove_stale_temporaries)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a file in the directory's place, or on its way
        raise NotADirectoryError(
            errno.ENOTDIR, f"{file_on_the_way(target.parent)} is a file, not a directory"
        ) from None
    remove_stale_temporaries(target)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix="." + target.name + ".", suffix=".tmp")
    try:
        mode = new_file_mode() | (0o111 & ~_umask() if executable else 0)
        os.fchmod(fd, mode)  # mkstemp makes 0600, which the rename would keep
        with os.fdopen(fd, "wb") as handle:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # released when the file is closed
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
            if fcntl is not None:
                os.replace(tmp, target)  # under the lock (Windows cannot rename an open file)
        if fcntl is None:
            os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def file_on_the_way(directory: Path) -> Path:
    """The first part of `directory` that exists and is not a directory."""
    for part in reversed([directory, *directory.parents]):
        if part.exists() and not part.is_dir():
            return part
    return directory


def remove_stale_temporaries(target: Path, *, older_than: float = STALE_AFTER) -> list[Path]:
    """Remove the temporary files of writes of `target` that were never finished (a writer
    killed before its rename), and return them. Safe beside a concurrent write of the same
    target: a file is removed only if no process holds its writer's lock, it is `older_than`
    seconds old, and it is still the file that was locked. Does nothing where there is no
    flock (Windows)."""
    if fcntl is None:
        return []
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    removed = []
    now = time.time()
    for name in sorted(names):
        found = _TEMPORARY.fullmatch(name)
        if found is None or found.group("target") != target.name:
            continue
        path = target.parent / name
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or now - info.st_mtime < older_than:
            continue
        if _remove_if_unlocked(path):
            removed.append(path)
    return removed


def _remove_if_unlocked(path: Path) -> bool:
    assert fcntl is not None
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # a live writer holds it
        if not os.path.samestat(os.fstat(fd), os.lstat(path)):
            return False  # renamed or replaced since it was opened
        os.unlink(path)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


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
    """Indented JSON text keeping every number exact (Decimals and ints past Python's digit limit
    as their digits: values.dumps_exact)."""
    return dumps_exact(value, indent=2, ensure_ascii=False) + "\n"
