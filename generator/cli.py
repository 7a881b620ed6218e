"""The `straightline` command: compile, check and preflight contracts."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

from . import __version__
from .api import compile_source, module_name_for, recorded_options
from .contracts import catalog_entry, compile_contract_source, is_contract, load_contract
from .errors import OptionError, StraightlineError
from .loader import read_source
from .profiles import DRAFT_PROFILES, LIMIT_OPTIONS, PROFILES, get_profile, with_options

_HEADER = re.compile(r"^# (straightline-version|profile|options|source-sha256): (.*)$", re.M)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", metavar="SRC", nargs="+",
                        help="contract files (JSON); FILE#/json/pointer names one subschema of FILE")
    parser.add_argument("--profile", choices=sorted(PROFILES),
                        help="the schema profile the contracts are written in (default: the draft "
                             "their $schema names, else draft2020-12)")
    parser.add_argument("--registry", metavar="DIR",
                        help="a directory of schema files that $ref may name (never the network)")
    for option in LIMIT_OPTIONS:
        parser.add_argument("--" + option.replace("_", "-"), dest=option, type=int, metavar="N",
                            help=f"override the profile's {option.replace('_', ' ')} limit")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="straightline",
        description="Compile JSON contracts into standalone Python validator modules.",
    )
    parser.add_argument("--version", action="version", version=f"straightline {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    compile_ = commands.add_parser("compile", help="compile contracts into modules",
                                   description="Compile each contract into DIR/<name>.py (atomic writes).")
    _add_common(compile_)
    compile_.add_argument("--out", required=True, metavar="DIR", help="directory for the generated modules")

    check = commands.add_parser("check", help="fail if a generated module is missing or stale",
                                description="Exit non-zero, naming the files, if any module in DIR is "
                                            "missing or was made from another source or with other options.")
    _add_common(check)
    check.add_argument("--out", required=True, metavar="DIR", help="directory of the generated modules")

    catalog = commands.add_parser("catalog", help="the tool catalog of contract files, as JSON",
                                  description="Write the catalog entries (name, description, input "
                                              "and output schema) of tool contract files as a JSON array.")
    catalog.add_argument("sources", metavar="SRC", nargs="+", help="tool contract files (JSON)")
    catalog.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")

    preflight = commands.add_parser("preflight", help="validate contracts against their profile only",
                                    description="Check each contract against the profile; write nothing.")
    _add_common(preflight)
    return parser


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {k: getattr(args, k) for k in LIMIT_OPTIONS if getattr(args, k) is not None}


def _split(source: str) -> tuple[str, str]:
    """FILE#/pointer -> (FILE, /pointer); a file whose own name has '#' is taken whole."""
    if "#" in source and not Path(source).exists():
        path, _, fragment = source.partition("#")
        return path, fragment
    return source, ""


def _read(source: str, args: argparse.Namespace) -> bytes:
    profile = get_profile(args.profile) if args.profile else DRAFT_PROFILES["draft2020-12"]
    limits = with_options(profile, _options(args)).limits
    return read_source(_split(source)[0], max_bytes=limits.max_source_bytes)


def _compile_options(source: str, args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments of compile_source/prepare for one SRC."""
    path, fragment = _split(source)
    extra: dict[str, Any] = {"profile": args.profile, **_options(args)}
    if fragment:
        extra["fragment"] = fragment
    if args.registry:
        extra["registry"] = args.registry
        extra["base_uri"] = Path(path).resolve().as_uri()
    return extra


def _report(path: str, error: StraightlineError) -> None:
    print(f"{path}:{error.pointer or '/'}: {error.message} [{error.code}]", file=sys.stderr)


def _module_path(out: Path, source: str) -> Path:
    path, fragment = _split(source)
    stem = Path(path).name
    if stem.endswith(".json"):
        stem = stem[: -len(".json")]
    if fragment:
        stem += "_" + fragment.strip("#/").rsplit("/", 1)[-1]
    return out / (module_name_for(stem) + ".py")


def _targets(sources: Sequence[str], out: Path) -> dict[str, Path]:
    targets: dict[str, Path] = {}
    seen: dict[Path, str] = {}
    for source in sources:
        target = _module_path(out, source)
        if target in seen and seen[target] != source:
            raise OptionError(f"{source} and {seen[target]} would both be written to {target}")
        seen[target] = source
        targets[source] = target
    return targets


def _write_atomic(target: Path, text: str) -> None:
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


def _is_contract_file(source: str, raw: bytes) -> bool:
    """Whether SRC is a tool contract file (which names its own profiles) rather than a schema."""
    if _split(source)[1]:
        return False
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return False  # the loader reports it properly (too deep: limit-exceeded)
    return is_contract(value)


def _build(source: str, args: argparse.Namespace, *, name: str | None, format: bool = True) -> str:
    """The module text for one SRC: a tool contract file, or a schema."""
    raw = _read(source, args)
    if _is_contract_file(source, raw):
        extra = {k: v for k, v in _compile_options(source, args).items() if k not in ("profile", "base_uri")}
        return compile_contract_source(raw, name=name, format=format, **extra)
    return compile_source(raw, name=name, format=format, **_compile_options(source, args))


def _compile(args: argparse.Namespace) -> int:
    out = Path(args.out)
    failed = 0
    for source, target in _targets(args.sources, out).items():
        try:
            text = _build(source, args, name=target.stem)
        except StraightlineError as error:
            _report(source, error)
            failed += 1
            continue
        try:
            _write_atomic(target, text)
        except OSError as error:
            print(f"{target}: cannot write: {error.strerror or error}", file=sys.stderr)
            failed += 1
            continue
        print(f"{source} -> {target}")
    return 1 if failed else 0


def read_header(path: Path) -> dict[str, str] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(4096)
    except (OSError, UnicodeDecodeError):
        return None
    return dict(_HEADER.findall(head))


def _check(args: argparse.Namespace) -> int:
    import hashlib

    stale = 0
    for source, target in _targets(args.sources, Path(args.out)).items():
        expected_options = recorded_options(_options(args), _split(source)[1])
        try:
            raw = _read(source, args)
        except StraightlineError as error:
            _report(source, error)
            stale += 1
            continue
        header = read_header(target)
        if header is None:
            print(f"{target}: missing (compile {source})", file=sys.stderr)
            stale += 1
            continue
        reasons = []
        if header.get("source-sha256") != hashlib.sha256(raw).hexdigest():
            reasons.append("the source changed")
        # a contract names its own profile: --profile does not apply to it (as in compile)
        if args.profile and header.get("profile") != args.profile and not _is_contract_file(source, raw):
            reasons.append(f"profile {header.get('profile')} is not {args.profile}")
        if header.get("options") != expected_options:
            reasons.append(f"options {header.get('options')} are not {expected_options}")
        if header.get("straightline-version") != __version__:
            reasons.append(f"made by straightline {header.get('straightline-version')}, this is {__version__}")
        if reasons:
            print(f"{target}: stale ({'; '.join(reasons)}; recompile {source})", file=sys.stderr)
            stale += 1
        else:
            print(f"{target}: up to date")
    return 1 if stale else 0


def _preflight(args: argparse.Namespace) -> int:
    failed = 0
    for source in args.sources:
        try:
            _build(source, args, name=None, format=False)
        except StraightlineError as error:
            _report(source, error)
            failed += 1
            continue
        print(f"{source}: ok")
    return 1 if failed else 0


def _catalog(args: argparse.Namespace) -> int:
    entries = []
    failed = 0
    for source in args.sources:
        try:
            contract, _ = load_contract(read_source(source, max_bytes=64 * 1024 * 1024))
        except StraightlineError as error:
            _report(source, error)
            failed += 1
            continue
        entries.append(catalog_entry(contract))
    if failed:
        return 1
    text = _dump_exact(entries)
    if args.output:
        try:
            _write_atomic(Path(args.output), text)
        except OSError as error:
            print(f"{args.output}: cannot write: {error.strerror or error}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


def _dump_exact(value: Any) -> str:
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "catalog":
            return _catalog(args)
        with_options(get_profile(args.profile) if args.profile else DRAFT_PROFILES["draft2020-12"], _options(args))
        if args.registry and not Path(args.registry).is_dir():
            raise OptionError(f"--registry {args.registry}: not a directory")
    except OptionError as error:
        parser.error(error.message)  # a usage error: exit status 2
    try:
        return {"compile": _compile, "check": _check, "preflight": _preflight}[args.command](args)
    except StraightlineError as error:
        print(f"straightline: {error.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
