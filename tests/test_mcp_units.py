"""generator.runtime.mcp's parts that need no server: the argument checks of the servers and the
protocol handler, how a tools/call result becomes the output (or a typed error), the isError
results the served runtime answers with, and the helpers that shape values and reasons.
(tests/test_mcp_serve.py and tests/test_mcp_remote.py test them end to end.)
"""

from __future__ import annotations

import asyncio
import io
import math
from decimal import Decimal
from typing import Any

import pytest

pytest.importorskip("mcp")

import mcp_types  # noqa: E402
import pydantic  # noqa: E402

from generated.tools import math_add  # noqa: E402
from generator.runtime import ToolRuntime, mcp  # noqa: E402
from generator.runtime.mcp import (  # noqa: E402
    HttpServer,
    MalformedResponse,
    ProtocolError,
    RemoteError,
    RemoteToolError,
    SDKNotInstalled,
    StdioServer,
    protocol_handler,
)

SERVER = StdioServer(["python", "server.py"])


def _result(texts: list[str], **fields: Any) -> mcp_types.CallToolResult:
    return mcp_types.CallToolResult(
        content=[mcp_types.TextContent(text=text) for text in texts], **fields
    )


# ------------------------------------------------------------------------------ servers


def test_servers_describe_themselves() -> None:
    stdio = StdioServer(["python", "server.py", "--quiet"], env={"A": "1"}, cwd="/srv")
    assert str(stdio) == "the server 'python server.py --quiet'"
    assert repr(stdio) == "StdioServer(['python', 'server.py', '--quiet'])"
    assert (stdio.command, stdio.env, stdio.cwd, stdio.errlog) == (
        ["python", "server.py", "--quiet"],
        {"A": "1"},
        "/srv",
        None,
    )
    assert stdio.connect_timeout == 30.0 and type(stdio.connect_timeout) is float
    http = HttpServer("https://example.invalid/mcp", connect_timeout=2)
    assert (str(http), repr(http)) == (
        "the server at https://example.invalid/mcp",
        "HttpServer('https://example.invalid/mcp')",
    )
    assert http.connect_timeout == 2.0 and type(http.connect_timeout) is float
    assert StdioServer(("python",)).command == ["python"]  # a tuple is a sequence too


def test_a_server_copies_its_command_and_environment() -> None:
    command, env = ["python", "server.py"], {"A": "1"}
    server = StdioServer(command, env=env)
    command.append("--other")
    env["B"] = "2"
    assert server.command == ["python", "server.py"] and server.env == {"A": "1"}


@pytest.mark.parametrize(
    "command",
    ["python server.py", b"python", [], ["python", 3], 3, None],
    ids=repr,
)
def test_a_stdio_command_must_be_a_non_empty_list_of_strings(command: Any) -> None:
    with pytest.raises(TypeError) as refused:
        StdioServer(command)
    assert str(refused.value) == (
        "StdioServer takes the command as a non-empty list of strings, "
        "e.g. StdioServer([sys.executable, 'server.py'])"
    )


@pytest.mark.parametrize("env", [{"A": 1}, {1: "a"}, [("A", "1")], "A=1"], ids=repr)
def test_a_stdio_environment_must_be_a_dict_of_strings(env: Any) -> None:
    with pytest.raises(TypeError) as refused:
        StdioServer(["python"], env=env)
    assert str(refused.value) == "env must be a dict of strings"


@pytest.mark.parametrize("seconds", [0, -1, math.inf, math.nan, True, "5", None], ids=repr)
def test_timeouts_must_be_positive_finite_numbers(seconds: Any) -> None:
    with pytest.raises(ValueError) as connect:
        StdioServer(["python"], connect_timeout=seconds)
    assert str(connect.value) == (
        f"connect_timeout must be a positive number of seconds, not {seconds!r}"
    )
    with pytest.raises(ValueError):
        HttpServer("http://127.0.0.1:9/mcp", connect_timeout=seconds)
    with pytest.raises(ValueError) as call:
        protocol_handler(SERVER, "add", timeout=seconds)
    assert str(call.value) == f"timeout must be a positive number of seconds, not {seconds!r}"


@pytest.mark.parametrize("url", ["ftp://host/mcp", "127.0.0.1:8000", "", 8000], ids=repr)
def test_an_http_server_takes_an_http_url(url: Any) -> None:
    with pytest.raises(ValueError) as refused:
        HttpServer(url)
    assert str(refused.value) == f"HttpServer takes an http:// or https:// URL, not {url!r}"


def test_a_protocol_handler_needs_a_server_and_a_tool_name() -> None:
    with pytest.raises(TypeError) as not_a_server:
        protocol_handler("python server.py", "add")
    assert str(not_a_server.value) == "server must be a StdioServer or an HttpServer, not str"
    for tool in ("", None, 3):
        with pytest.raises(TypeError) as no_tool:
            protocol_handler(SERVER, tool)
        assert str(no_tool.value) == "the remote tool's name must be a non-empty string"
    handler = protocol_handler(SERVER, "add", timeout=2)
    assert (handler.server, handler.tool, handler.timeout) == (SERVER, "add", 2.0)  # type: ignore[attr-defined]
    assert type(handler.timeout) is float  # type: ignore[attr-defined]
    assert protocol_handler(SERVER, "add").timeout == 30.0  # type: ignore[attr-defined]


def test_register_protocol_names_the_remote_tool_after_the_contract_by_default() -> None:
    runtime = ToolRuntime()
    other = _renamed("other")
    runtime.register_protocol(math_add, SERVER)
    runtime.register_protocol(other, SERVER, tool="add", budget=1, timeout=5)
    assert runtime.tools() == ["math.add", "other"]
    first = runtime._tools["math.add"].handler
    second = runtime._tools["other"].handler
    assert (first.tool, first.timeout) == ("math.add", 30.0)
    assert (second.tool, second.timeout) == ("add", 5.0)
    assert runtime.remaining_budget("other") == 1 and runtime.contract("other") is other
    assert runtime._servers == [SERVER]  # one server, held once
    runtime.close()  # never connected: nothing to end


def _renamed(name: str) -> Any:
    import generator

    return generator.compile_contract_module(
        {"name": name, "input": math_add.INPUT_SCHEMA, "output": math_add.OUTPUT_SCHEMA},
        format=False,
    )


def test_closing_the_runtime_closes_each_server_once() -> None:
    closed: list[str] = []

    class Counting(StdioServer):
        def close(self) -> None:
            closed.append(self.command[0])

    one, two = Counting(["one"]), Counting(["two"])
    runtime = ToolRuntime()
    runtime.register_protocol(math_add, one)
    runtime.register_protocol(_renamed("again"), one, tool="add")
    runtime.register_protocol(_renamed("other"), two, tool="add")
    runtime.close()
    assert closed == ["one", "two"]
    with runtime as entered:
        assert entered is runtime
    assert closed == ["one", "two"] * 2


def test_list_tools_needs_a_server() -> None:
    with pytest.raises(TypeError) as refused:
        mcp.list_tools(["python", "server.py"])
    assert str(refused.value) == "server must be a StdioServer or an HttpServer, not list"


def test_without_the_sdk_the_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    assert str(SDKNotInstalled()) == (
        "protocol tools need the Model Context Protocol SDK, which is not installed: "
        "pip install 'straightline[mcp]'"
    )
    assert isinstance(SDKNotInstalled(), ImportError)
    mcp.require_sdk()  # installed here
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(SDKNotInstalled):
        mcp.require_sdk()
    with pytest.raises(SDKNotInstalled):
        protocol_handler(SERVER, "add")

    def broken(name: str) -> Any:
        raise ValueError("mcp.__spec__ is None")

    monkeypatch.setattr(importlib.util, "find_spec", broken)
    with pytest.raises(SDKNotInstalled):
        mcp.require_sdk()


# ---------------------------------------------------------------------- the remote output


def test_structured_content_is_the_output_before_any_text() -> None:
    assert mcp._output(_result(["not json"], structured_content={"a": 1}), "add", SERVER) == {
        "a": 1
    }
    assert mcp._output(_result(['{"a": [2]}']), "add", SERVER) == {"a": [2]}
    image = mcp_types.ImageContent(data="AA==", mime_type="image/png")
    mixed = mcp_types.CallToolResult(content=[image, mcp_types.TextContent(text="[3]")])
    assert mcp._output(mixed, "add", SERVER) == [3]  # only text blocks are read


def test_an_is_error_result_is_a_remote_tool_error_with_its_text() -> None:
    for texts, shown in ((["the disk", "is full"], "the disk\nis full"), ([], "(no text)")):
        with pytest.raises(RemoteToolError) as failed:
            mcp._output(_result(texts, is_error=True, structured_content={"a": 1}), "add", SERVER)
        error = failed.value
        assert error.message == f"add: the remote tool failed: {shown}"
        assert (error.text, error.tool, error.server) == (
            "\n".join(texts),
            "add",
            "the server 'python server.py'",
        )
        assert isinstance(error, ProtocolError)


@pytest.mark.parametrize("texts", [[], ["1", "2"]])
def test_without_structured_content_one_text_is_needed(texts: list[str]) -> None:
    with pytest.raises(MalformedResponse) as malformed:
        mcp._output(_result(texts), "add", SERVER)
    assert malformed.value.message == (
        f"add: the result has no structuredContent and {len(texts)} text contents "
        "(one JSON text is taken as the output)"
    )
    assert (malformed.value.tool, malformed.value.server) == ("add", str(SERVER))


def test_text_that_is_not_json_is_a_malformed_response() -> None:
    with pytest.raises(MalformedResponse) as malformed:
        mcp._output(_result(["{x"]), "add", SERVER)
    assert malformed.value.message == (
        "add: the result has no structuredContent and its text is not JSON: Expecting property "
        "name enclosed in double quotes: line 1 column 2 (char 1)"
    )
    assert isinstance(malformed.value.__cause__, ValueError)


def test_protocol_errors_keep_their_fields() -> None:
    error = RemoteError("add: refused", code=-32602, tool="add", server="s")
    assert (str(error), error.message, error.code, error.tool, error.server) == (
        "add: refused",
        "add: refused",
        -32602,
        "add",
        "s",
    )
    plain = ProtocolError("gone")
    assert (plain.tool, plain.server) == (None, "")


# ------------------------------------------------------------------------ what is served


class _Error:
    def __init__(self, location: str, keyword: str, message: str) -> None:
        self.instance_location = location
        self.keyword_location = keyword
        self.message = message


def test_an_error_result_lists_each_error_in_text_and_as_json() -> None:
    errors = [_Error("", "/required", "a is required"), _Error("/b", "/type", "b is no string")]
    result = mcp._error_result("denied", "t: input rejected", errors)
    assert result.is_error
    [text] = result.content
    assert isinstance(text, mcp_types.TextContent)
    assert text.text == "t: input rejected:\n- at the root: a is required\n- at /b: b is no string"
    assert result.structured_content == {
        "outcome": "denied",
        "message": "t: input rejected",
        "errors": [
            {"instanceLocation": "", "keywordLocation": "/required", "message": "a is required"},
            {"instanceLocation": "/b", "keywordLocation": "/type", "message": "b is no string"},
        ],
    }
    bare = mcp._error_result("budget_exhausted", "t: the call budget is exhausted", ())
    assert bare.content[0].text == "t: the call budget is exhausted"  # type: ignore[union-attr]
    assert bare.structured_content == {
        "outcome": "budget_exhausted",
        "message": "t: the call budget is exhausted",
        "errors": [],
    }


class _Chooser:
    """A contract module stand-in whose best_match picks a given error (or raises)."""

    NAME = "chooser"
    DESCRIPTION = ""
    CATALOG_ENTRY: dict[str, Any] = {}
    EnvelopeError = ValueError

    def __init__(self) -> None:
        self.pick: Any = None
        self.asked: list[list[Any]] = []

    def best_match(self, errors: list[Any]) -> Any:
        self.asked.append(list(errors))
        if isinstance(self.pick, Exception):
            raise self.pick
        return self.pick

    def is_valid_input(self, instance: Any) -> bool:
        return True

    def input_errors(self, instance: Any) -> list[Any]:
        return []

    is_valid_output = is_valid_input
    output_errors = input_errors


def test_the_best_match_comes_first_and_the_rest_keep_their_order() -> None:
    chooser = _Chooser()
    runtime = ToolRuntime()
    runtime.register(chooser, lambda request: request)  # type: ignore[arg-type]
    a, b, c = _Error("/a", "", "a"), _Error("/b", "", "b"), _Error("/c", "", "c")
    chooser.pick = c
    assert mcp._best_first(runtime, "chooser", (a, b, c)) == [c, a, b]
    chooser.pick = b
    assert mcp._best_first(runtime, "chooser", [a, b, c]) == [b, a, c]
    chooser.pick = a
    assert mcp._best_first(runtime, "chooser", [a, b, c]) == [a, b, c]
    chooser.pick = _Error("/a", "", "a")  # equal, but not one of them: nothing moves
    assert mcp._best_first(runtime, "chooser", [b, a]) == [b, a]
    chooser.pick = RuntimeError("best_match broke")
    assert mcp._best_first(runtime, "chooser", [b, c]) == [b, c]
    asked = len(chooser.asked)
    chooser.pick = a
    assert mcp._best_first(runtime, "chooser", [b]) == [b]  # one error: nothing to choose
    assert len(chooser.asked) == asked
    assert mcp._best_first(runtime, "no.such.tool", [b, a]) == [b, a]
    runtime.register(math_add, lambda request: request)
    assert mcp._best_first(runtime, "math.add", [b, a]) == [b, a]  # math_add's own best_match


def test_build_server_and_serve_refuse_what_is_not_a_runtime() -> None:
    for entry in (mcp.build_server, mcp.serve):
        with pytest.raises(TypeError) as refused:
            entry(math_add)  # type: ignore[arg-type]
        assert str(refused.value) == "serve takes a ToolRuntime, not module"


# ---------------------------------------------------------------------------- helpers


def test_values_go_on_the_wire_as_json_numbers() -> None:
    value = {"a": [Decimal("2"), Decimal("0.5"), Decimal("1E+2")], "b": {"c": Decimal("-0")}}
    wired = mcp._wire(value, "t", "output")
    assert wired == {"a": [2, 0.5, 100], "b": {"c": 0}}
    assert [type(v) for v in wired["a"]] == [int, float, int]
    assert mcp._wire("x", "t", "output") == "x" and mcp._wire(None, "t", "output") is None
    assert (
        mcp._json_text(mcp._wire({"a": [Decimal("1.5"), "é"]}, "t", "output")) == '{"a":[1.5,"é"]}'
    )
    with pytest.raises(ValueError):  # (a value not wired: JSON has no infinity)
        mcp._json_text({"a": float("inf")})


def test_an_unsendable_number_says_which_tool_what_and_where() -> None:
    """The whole message: the number (a long one shortened to its first 20 and last 12
    characters), the tool, what holds it and the JSON pointer ("/" for the whole value)."""
    tail = ", a number the protocol cannot carry (its numbers are sent as ints and doubles, and a double cannot hold this one)"
    error = mcp.UnsendableNumber(Decimal("1e-400"), tool="t", what="output", location="/a/0")
    assert str(error) == "t: the output holds 1E-400 at /a/0" + tail
    assert (error.tool, error.what, error.location) == ("t", "output", "/a/0")
    whole = mcp.UnsendableNumber(Decimal("-1e-400"), tool="u", what="input schema", location="")
    assert str(whole) == "u: the input schema holds -1E-400 at /" + tail
    forty, forty_one = "1" * 38 + ".5", "1" * 39 + ".5"
    assert f"holds {forty} at" in str(
        mcp.UnsendableNumber(Decimal(forty), tool="t", what="o", location="")
    )
    shortened = str(mcp.UnsendableNumber(Decimal(forty_one), tool="t", what="o", location=""))
    assert "holds " + "1" * 20 + "..." + "1" * 10 + ".5 at" in shortened
    digits = "1234567890" * 4 + ".5"
    shortened = str(mcp.UnsendableNumber(Decimal(digits), tool="t", what="o", location=""))
    assert "holds 12345678901234567890...1234567890.5 at" in shortened
    with pytest.raises(mcp.UnsendableNumber) as caught:
        mcp._wire({"x": [Decimal("1" + "0" * 400 + ".5")]}, "t", "output")
    assert str(caught.value).startswith(
        "t: the output holds 10000000000000000000...0000000000.5 at /x/0,"
    )


def test_a_reason_is_one_line_the_first_leaf_of_a_group() -> None:
    group = ExceptionGroup("outer", [ExceptionGroup("inner", [ValueError("first\nsecond")])])
    assert mcp._reason(group) == "ValueError: first"
    assert mcp._reason(OSError("  padded  ")) == "OSError: padded"
    assert mcp._reason(ValueError("")) == "ValueError"
    assert mcp._reason(BaseExceptionGroup("empty?", [KeyboardInterrupt()])) == "KeyboardInterrupt"


def test_a_response_problem_names_the_first_error_and_where() -> None:
    with pytest.raises(pydantic.ValidationError) as invalid:
        mcp_types.CallToolResult.model_validate({"content": 3})
    assert mcp._first_problem(invalid.value) == "Input should be a valid list at content"

    class Problems:
        def __init__(self, *errors: dict[str, Any]) -> None:
            self.listed = list(errors)

        def errors(self) -> list[dict[str, Any]]:
            return self.listed

    nested = Problems({"loc": ("content", 0, "text"), "msg": "bad"}, {"loc": ("x",), "msg": "2"})
    assert mcp._first_problem(nested) == "bad at content/0/text"
    assert mcp._first_problem(Problems({"msg": "wrong"})) == "wrong at the root"
    assert mcp._first_problem(Problems({"loc": ()})) == " at the root"
    assert mcp._first_problem(ValueError("not pydantic")) == "ValueError: not pydantic"


def test_a_stream_without_a_descriptor_is_replaced_by_standard_error() -> None:
    import sys

    captured = io.StringIO()
    assert mcp._with_descriptor(captured) is (sys.__stderr__ or captured)
    assert mcp._with_descriptor(sys.__stderr__) is sys.__stderr__  # type: ignore[arg-type]


def test_cancelling_is_read_from_the_current_task() -> None:
    async def body() -> list[bool]:
        seen = [mcp._current_task_cancelling()]
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            seen.append(mcp._current_task_cancelling())
        return seen

    assert asyncio.run(body()) == [False, True]


def test_register_protocol_refuses_a_contract_without_a_name_when_no_tool_is_given() -> None:
    class Nameless:
        pass

    runtime = ToolRuntime()
    with pytest.raises(TypeError) as refused:
        runtime.register_protocol(Nameless(), SERVER)  # type: ignore[arg-type]
    assert str(refused.value) == "the remote tool's name must be a non-empty string"
    assert runtime.tools() == []
