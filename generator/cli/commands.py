"""The commands that compile: compile, check, preflight and catalog, one function each, taking the
parsed arguments and returning the exit status."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from .. import __version__
from ..api import compile_source
from ..contracts import catalog_entry, compile_contract_source, is_contract, load_contract
from ..errors import StraightlineError
from ..load import read_source
from ..profiles import DRAFT_PROFILES, LIMIT_OPTIONS, get_profile, with_options
from ..render.header import read_header, recorded_options
from .files import dump_exact, report, say, split_source, targets, write_atomic

# A tool contract file may be larger than a schema: it holds two of them.
_CONTRACT_BYTES = 64 * 1024 * 1024


def limit_options(args: argparse.Namespace) -> dict[str, Any]:
    """The limit overrides given on the command line."""
    return {k: getattr(args, k) for k in LIMIT_OPTIONS if getattr(args, k) is not None}


def _read(source: str, args: argparse.Namespace) -> bytes:
    profile = get_profile(args.profile) if args.profile else DRAFT_PROFILES["draft2020-12"]
    limits = with_options(profile, limit_options(args)).limits
    return read_source(split_source(source)[0], max_bytes=limits.max_source_bytes)


def _compile_options(source: str, args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments of compile_source for one SRC."""
    path, fragment = split_source(source)
    extra: dict[str, Any] = {"profile": args.profile, **limit_options(args)}
    if fragment:
        extra["fragment"] = fragment
    if args.registry:
        extra["registry"] = args.registry
        extra["base_uri"] = Path(path).resolve().as_uri()
    return extra


def _is_contract_file(source: str, raw: bytes) -> bool:
    """Whether SRC is a tool contract file (which names its own profiles) rather than a schema."""
    if split_source(source)[1]:
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


def compile_command(args: argparse.Namespace) -> int:
    failed = 0
    for source, target in targets(args.sources, Path(args.out)).items():
        try:
            text = _build(source, args, name=target.stem)
        except StraightlineError as error:
            report(source, error)
            failed += 1
            continue
        try:
            write_atomic(target, text)
        except OSError as error:
            say(f"{target}: cannot write: {error.strerror or error}", sys.stderr)
            failed += 1
            continue
        say(f"{source} -> {target}")
    return 1 if failed else 0


def check_command(args: argparse.Namespace) -> int:
    stale = 0
    for source, target in targets(args.sources, Path(args.out)).items():
        expected_options = recorded_options(limit_options(args), split_source(source)[1])
        try:
            raw = _read(source, args)
        except StraightlineError as error:
            report(source, error)
            stale += 1
            continue
        header = read_header(target)
        if header is None:
            say(f"{target}: missing (compile {source})", sys.stderr)
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
            say(f"{target}: stale ({'; '.join(reasons)}; recompile {source})", sys.stderr)
            stale += 1
        else:
            say(f"{target}: up to date")
    return 1 if stale else 0


def preflight_command(args: argparse.Namespace) -> int:
    failed = 0
    for source in args.sources:
        try:
            _build(source, args, name=None, format=False)
        except StraightlineError as error:
            report(source, error)
            failed += 1
            continue
        say(f"{source}: ok")
    return 1 if failed else 0


def catalog_command(args: argparse.Namespace) -> int:
    entries = []
    failed = 0
    for source in args.sources:
        try:
            contract, _ = load_contract(read_source(source, max_bytes=_CONTRACT_BYTES))
        except StraightlineError as error:
            report(source, error)
            failed += 1
            continue
        entries.append(catalog_entry(contract))
    if failed:
        return 1
    text = dump_exact(entries)
    if args.output:
        try:
            write_atomic(Path(args.output), text)
        except OSError as error:
            say(f"{args.output}: cannot write: {error.strerror or error}", sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0
