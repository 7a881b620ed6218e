"""The protocol-tool examples run as their docstrings say, and pass mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

from .conftest import ROOT  # noqa: E402


def test_the_guarded_remote_example_denies_before_the_server_and_keeps_the_budget() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "examples.mcp_guarded_remote"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (
        lines[0]
        == "{'city': 'Lyon', 'forecast': [{'day': 0, 'celsius': 20}, {'day': 1, 'celsius': 21}]}"
    )
    assert lines[1].startswith("weather.forecast: input rejected: ") and lines[1].endswith(
        " at /days"
    )
    assert lines[2] == "9 ['accepted', 'denied']"


def test_the_served_example_answers_an_sdk_client_over_stdio() -> None:
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "examples.mcp_math_server"], cwd=str(ROOT)
    )

    async def session() -> Any:
        with anyio.fail_after(120):
            async with Client(parameters, cache=None) as client:
                listed = await client.list_tools()
                return [tool.name for tool in listed.tools], await client.call_tool(
                    "math.add", {"left": 2, "right": 2}
                )

    names, result = anyio.run(session)
    assert names == ["math.add"]
    assert result.structured_content == {"total": 4}


@pytest.mark.parametrize(
    "example",
    [
        "examples/mcp_math_server.py",
        "examples/mcp_guarded_remote.py",
        "examples/mcp_weather_server.py",
    ],
)
def test_the_examples_pass_mypy_strict(example: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", example],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
