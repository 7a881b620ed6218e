"""`straightline mcp`: protocol tools over the Model Context Protocol (generator/runtime/mcp.py).

`mcp serve MODULE:ATTR [--http HOST:PORT]` serves the ToolRuntime found there (or made by it, when
it is a function) over stdio, or over streamable HTTP. `mcp import -o DIR -- COMMAND ARGS...` (or
`--url URL`) reads a server's tools/list and writes one tool contract file per tool, checked
against the chosen profile as `straightline compile` checks it; a tool whose schemas fall outside
the profile is reported at its pointer and not written.

Exit status: 0 done; 1 a tool not written, or the server could not be reached or answered
wrongly; 2 a usage error (a MODULE:ATTR that cannot be loaded, a bad address, the SDK missing).
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import re
import sys
import warnings
from pathlib import Path
from typing import Any

from ..errors import SchemaWarning, StraightlineError, shown_pointer
from ..files import dump_exact, write_atomic
from ..names import PROFILE_NAMES
from .files import OutputLost, report, say

# The tool names SEP-986 allows, which are also safe file names (not starting with a dot).
_FILE_SAFE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}")
DEFAULT_PROFILE = "draft2020-12"  # MCP's schemas are 2020-12 unless they name another draft


class _UsageError(Exception):
    """A mistake in the command's arguments: one line, exit status 2."""


def add_mcp_parser(commands: Any) -> None:
    """The `mcp` subcommand and its own subcommands (registered by main's parser)."""
    mcp = commands.add_parser(
        "mcp",
        help="serve or import tools over the Model Context Protocol",
        description="Serve a ToolRuntime's contract-guarded tools over the Model "
        "Context Protocol, or import a server's tools as contract files. "
        "Needs the SDK: pip install 'straightline[mcp]'.",
    )
    actions = mcp.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)
    serve = actions.add_parser(
        "serve",
        help="serve a ToolRuntime's tools",
        description="Serve the ToolRuntime at MODULE:ATTR (or the one ATTR returns, "
        "when it is a function) over stdio, or over streamable HTTP "
        "with --http. MODULE is imported from the current directory.",
    )
    serve.add_argument("target", metavar="MODULE:ATTR", help="e.g. app.tools:runtime")
    serve.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve over streamable HTTP at http://HOST:PORT/mcp (port 0: a free one; "
        "the URL is printed on standard error once it listens)",
    )
    serve.add_argument("--name", default="straightline", help="the server's name in the handshake")
    import_ = actions.add_parser(
        "import",
        help="write a server's tools as contract files",
        description="Connect to an MCP server, read tools/list and write "
        "DIR/<tool>.json for each tool (input and output from its "
        "schemas), each checked against the profile.",
    )
    import_.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        required=True,
        help="directory for the contract files (created if missing)",
    )
    import_.add_argument(
        "--profile",
        choices=PROFILE_NAMES,
        help=f"the profile the contracts are written in (default: {DEFAULT_PROFILE})",
    )
    import_.add_argument("--url", help="a streamable HTTP server's URL instead of a command")
    import_.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to wait for the server (default: 30)",
    )
    import_.add_argument(
        "server_command",
        metavar="COMMAND",
        nargs="*",
        help="after --: the command that runs a stdio server, and its arguments",
    )


def mcp_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from ..runtime.mcp import SDKNotInstalled, UnsendableNumber

    try:
        if args.mcp_command == "serve":
            return _serve(args)
        return _import(args)
    except _UsageError as error:
        parser.error(str(error))
    except (SDKNotInstalled, UnsendableNumber) as error:
        say(f"straightline mcp: {error}", sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


# ---------------------------------------------------------------------------------- serve


def _serve(args: argparse.Namespace) -> int:
    from ..runtime.mcp import parse_address, serve

    if args.http is not None:
        try:
            parse_address(args.http)
        except ValueError as error:
            raise _UsageError(f"--http: {error}") from None
    runtime = load_runtime(args.target)
    with runtime:  # the connections of its protocol tools end with the server
        serve(
            runtime,
            http=args.http,
            name=args.name,
            announce=lambda url: say(
                f"straightline mcp: serving {len(runtime.tools())} tools at {url}", sys.stderr
            ),
        )
    return 0


def load_runtime(target: str) -> Any:
    """The ToolRuntime that MODULE:ATTR names (or returns, when it is a function)."""
    from ..runtime import ToolRuntime

    module_name, colon, attribute = target.partition(":")
    if not colon or not module_name or not attribute:
        raise _UsageError(f"{target}: expected MODULE:ATTR, e.g. app.tools:runtime")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and (
            module_name == error.name or module_name.startswith(error.name + ".")
        ):
            raise _UsageError(
                f"{target}: no module named {error.name!r} (from {os.getcwd()})"
            ) from None
        raise _UsageError(
            f"{target}: importing {module_name} failed: {type(error).__name__}: {error}"
        ) from None
    except Exception as error:  # the user's module raised: one line, not its traceback
        raise _UsageError(
            f"{target}: importing {module_name} failed: {type(error).__name__}: {error}"
        ) from None
    value: Any = module
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise _UsageError(f"{target}: {module_name} has no attribute {attribute!r}")
        value = getattr(value, part)
    if not isinstance(value, ToolRuntime) and callable(value):
        try:
            value = value()
        except Exception as error:
            raise _UsageError(
                f"{target}: calling {attribute}() failed: {type(error).__name__}: {error}"
            ) from None
    if not isinstance(value, ToolRuntime):
        raise _UsageError(
            f"{target}: is a {type(value).__name__}, not a ToolRuntime (or a function "
            "that returns one)"
        )
    return value


# --------------------------------------------------------------------------------- import


def _import(args: argparse.Namespace) -> int:
    from ..runtime.mcp import HttpServer, ProtocolError, StdioServer, list_tools

    if bool(args.url) == bool(args.server_command):
        raise _UsageError("give the server as -- COMMAND ARGS... or as --url URL (one of them)")
    if not (args.timeout > 0 and math.isfinite(args.timeout)):
        raise _UsageError(f"--timeout must be a positive number of seconds, not {args.timeout}")
    try:
        server = (
            HttpServer(args.url, connect_timeout=args.timeout)
            if args.url
            else StdioServer(args.server_command, errlog=sys.stderr, connect_timeout=args.timeout)
        )
    except ValueError as error:
        raise _UsageError(f"--url: {error}") from None
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise _UsageError(f"-o {args.output}: not a directory")
    try:
        tools = list_tools(server, timeout=args.timeout)
    except ProtocolError as error:
        say(f"straightline mcp import: {error.message}", sys.stderr)
        return 1
    profile = args.profile or DEFAULT_PROFILE
    written = failed = 0
    seen: set[str] = set()
    lost: list[OutputLost | OSError] = []
    for tool in tools:
        name = tool.get("name")
        shown = f"tool {name!r}"
        if not isinstance(name, str) or not _FILE_SAFE_NAME.fullmatch(name):
            say(
                f"straightline mcp import: {shown}: the name is not a file-safe tool name "
                "(letters, digits, _ . -; up to 128): not written",
                sys.stderr,
            )
            failed += 1
            continue
        if name in seen:
            say(f"straightline mcp import: {shown}: listed twice: written once", sys.stderr)
            failed += 1
            continue
        seen.add(name)
        contract = contract_of(tool, profile)
        path = out / f"{name}.json"
        if not _compiles(contract, str(path)):
            say(f"{path}: not written ({shown} is outside the {profile} profile)", sys.stderr)
            failed += 1
            continue
        try:
            write_atomic(path, dump_exact(contract))
        except OSError as error:
            say(f"{path}: cannot write: {error.strerror or error}", sys.stderr)
            failed += 1
            continue
        if not lost:  # a refused line stops the listing, not the import
            try:
                say(f"{path}: {name}")
            except (OutputLost, BrokenPipeError) as error:
                lost.append(error)
        written += 1
    say(f"straightline mcp import: {written} of {len(tools)} tools written to {out}", sys.stderr)
    if lost:
        raise lost[0]
    return 1 if failed else 0


def contract_of(tool: dict[str, Any], profile: str) -> dict[str, Any]:
    """The tool contract for a listed tool. A contract needs an output schema: where the server
    declares none, it is an open one (any JSON object or array), which says so."""
    output = tool.get("outputSchema")
    if output is None:
        output = {"description": "The server declares no outputSchema: any JSON object or array."}
    contract: dict[str, Any] = {"name": tool["name"]}
    if tool.get("description"):
        contract["description"] = tool["description"]
    contract.update({"profile": profile, "input": tool.get("inputSchema", {}), "output": output})
    return contract


def _compiles(contract: dict[str, Any], shown: str) -> bool:
    """Whether the contract compiles; its errors and warnings reported as compile reports them."""
    from ..contracts import compile_contract_source

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SchemaWarning)
        try:
            compile_contract_source(contract, format=False, unknown_keywords="warn")
            ok = True
        except StraightlineError as error:
            report(shown, error)
            ok = False
    for caught_warning in caught:
        found = caught_warning.message
        if isinstance(found, SchemaWarning):
            say(
                f"{shown}:{shown_pointer(found.pointer)}: warning: {found.message} [{found.code}]",
                sys.stderr,
            )
    return ok
