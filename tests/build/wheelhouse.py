"""A local wheelhouse made OFFLINE from the distributions installed in this environment, so a test
can let pip install packages (pre-commit's hook environments do) with no index at all.

Each installed distribution is packed back into a wheel from its RECORD: the files it installed
below site-packages (compiled bytecode and the console scripts, which pip writes anew from
entry_points.txt, are left out), its .dist-info with a fresh RECORD, and the tags its WHEEL file
names. These are the same files PyPI's wheels hold; nothing is downloaded."""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.metadata as metadata
import io
import re
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

_LEFT_OUT = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def requirement_closure(roots: list[str]) -> dict[str, metadata.Distribution]:
    """The installed distributions `roots` need, with their own requirements (no extras), by name."""
    found: dict[str, metadata.Distribution] = {}
    pending = list(roots)
    while pending:
        requirement = Requirement(pending.pop())
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        distribution = metadata.distribution(name)
        found[name] = distribution
        pending.extend(distribution.requires or [])
    return found


def _record_line(path: str, data: bytes) -> list[str]:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [path, f"sha256={digest}", str(len(data))]


def repack(distribution: metadata.Distribution, out: Path) -> Path:
    """The installed distribution as a wheel file in `out`."""
    name = re.sub(r"[-_.]+", "_", distribution.metadata["Name"]).lower()
    version = distribution.version
    tags = [
        line.split(":", 1)[1].strip()
        for line in (distribution.read_text("WHEEL") or "").splitlines()
        if line.startswith("Tag:")
    ]
    tag = tags[0] if tags else "py3-none-any"
    wheel = out / f"{name}-{version}-{tag}.whl"
    record: list[list[str]] = []
    info_dir = ""
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in distribution.files or []:
            parts = file.parts
            if parts[0] == ".." or "__pycache__" in parts or file.suffix == ".pyc":
                continue
            if parts[0].endswith(".dist-info"):
                info_dir = parts[0]
                if len(parts) == 2 and parts[1] in _LEFT_OUT:
                    continue
            data = Path(str(distribution.locate_file(file))).read_bytes()
            archive.writestr(file.as_posix(), data)
            record.append(_record_line(file.as_posix(), data))
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows([*record, [f"{info_dir}/RECORD", "", ""]])
        archive.writestr(f"{info_dir}/RECORD", text.getvalue())
    return wheel


def build_wheelhouse(roots: list[str], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    return [repack(distribution, out) for distribution in requirement_closure(roots).values()]
