"""Remote references on request (generator/remote.py), against an HTTP server on 127.0.0.1 that
each test starts itself: nothing is fetched without --fetch-remote; with it, the documents a
`$ref` needs (and the ones they need, by relative URI) are retrieved once, cached on disk with the
compiled module, reused while fresh without a request or a compile, revalidated by ETag, used
offline with a note, and compiled anew when they change; a project's `fetch-remote = true` does
the same for compile and check, and the modules compiled never fetch."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from .conftest import STRAIGHTLINE, run, write
from .test_command import BLOCKED

LOOPBACK = {"no_proxy": "127.0.0.1", "NO_PROXY": "127.0.0.1", "http_proxy": "", "HTTP_PROXY": ""}


class Server:
    """Documents by path, each with its ETag and Cache-Control; every request logged as
    (path, If-None-Match, status)."""

    def __init__(self) -> None:
        self.documents: dict[str, tuple[bytes, str | None, str | None]] = {}
        self.log: list[tuple[str, str | None, int]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                found = outer.documents.get(self.path)
                asked = self.headers.get("If-None-Match")
                if found is None:
                    status, body, headers = 404, b"not here", {}
                else:
                    body, etag, cache_control = found
                    headers = {
                        key: value
                        for key, value in (("ETag", etag), ("Cache-Control", cache_control))
                        if value is not None
                    }
                    status = 304 if etag is not None and asked == etag else 200
                outer.log.append((self.path, asked, status))
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                if status == 304:
                    self.end_headers()
                    return
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def put(
        self, path: str, value: Any, etag: str | None = None, cache_control: str | None = None
    ) -> None:
        self.documents[path] = (json.dumps(value).encode(), etag, cache_control)

    def stop(self) -> None:
        """Stop serving (once: the fixture stops it too)."""
        if self.thread.is_alive():
            self.http.shutdown()
            self.http.server_close()
            self.thread.join(timeout=60)


@pytest.fixture
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.stop()


def _project(tmp_path: Path, server: Server, **cache: str) -> Path:
    """A schema whose property refers to the server's item.json, which refers on to defs.json
    by a relative URI; two data files, one valid."""
    server.put(
        "/schemas/item.json",
        {
            "$id": f"{server.url}/schemas/item.json",
            "type": "object",
            "properties": {"size": {"$ref": "defs.json#/$defs/size"}},
        },
        **cache,
    )
    server.put(
        "/schemas/defs.json", {"$defs": {"size": {"type": "integer", "maximum": 10}}}, **cache
    )
    write(
        tmp_path / "schema.json",
        {"type": "object", "properties": {"item": {"$ref": f"{server.url}/schemas/item.json"}}},
    )
    write(tmp_path / "good.json", {"item": {"size": 3}})
    write(tmp_path / "bad.json", {"item": {"size": 30}})
    return tmp_path


def _blocker(tmp_path: Path) -> dict[str, str]:
    """An environment in which importing the compiler fails (as in the --module test)."""
    blocker = tmp_path / "blocker"
    write(
        blocker / "sitecustomize.py",
        f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in {BLOCKED!r}):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
""",
    )
    return {**LOOPBACK, "PYTHONPATH": str(blocker)}


VERDICT = [
    "bad.json:/item/size: 30 is greater than the maximum of 10",
    "2 records in 2 files: 1 valid, 1 invalid, 0 unreadable",
]


def _validate(cwd: Path, *extra: str, env: dict[str, str] | None = None) -> Any:
    return run(
        "--schema", "schema.json", *extra, "good.json", "bad.json", cwd=cwd, env=env or LOOPBACK
    )


def test_nothing_is_fetched_without_the_flag(tmp_path: Path, server: Server) -> None:
    _project(tmp_path, server)
    result = _validate(tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert "does not resolve" in result.stderr and "/schemas/item.json" in result.stderr
    assert server.log == []


def test_fetch_remote_retrieves_what_the_refs_need_once(tmp_path: Path, server: Server) -> None:
    _project(tmp_path, server)
    result = _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache")
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == VERDICT
    assert [path for path, _, _ in server.log] == ["/schemas/item.json", "/schemas/defs.json"]
    assert result.stderr == ""


def test_a_fresh_copy_is_used_without_a_request_or_a_compile(
    tmp_path: Path, server: Server
) -> None:
    _project(tmp_path, server, cache_control="max-age=3600")
    first = _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache")
    assert first.stdout.splitlines() == VERDICT
    requests = len(server.log)
    again = _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache", env=_blocker(tmp_path))
    assert again.stdout.splitlines() == VERDICT, again.stderr
    assert "blocked" not in again.stderr
    assert len(server.log) == requests  # no request at all


def test_a_stale_copy_is_revalidated_by_its_etag(tmp_path: Path, server: Server) -> None:
    _project(tmp_path, server, etag='"v1"', cache_control="max-age=0")
    _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache")
    server.log.clear()
    again = _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache", env=_blocker(tmp_path))
    assert again.stdout.splitlines() == VERDICT, again.stderr
    assert sorted(server.log) == [
        ("/schemas/defs.json", '"v1"', 304),
        ("/schemas/item.json", '"v1"', 304),
    ]


def test_a_changed_document_is_compiled_anew(tmp_path: Path, server: Server) -> None:
    _project(tmp_path, server, etag='"v1"', cache_control="max-age=0")
    _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache")
    server.put(
        "/schemas/defs.json",
        {"$defs": {"size": {"type": "integer", "maximum": 100}}},
        etag='"v2"',
        cache_control="max-age=0",
    )
    again = _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache")
    assert (again.returncode, again.stdout) == (
        0,
        "2 records in 2 files: 2 valid, 0 invalid, 0 unreadable\n",
    )


def test_offline_the_cached_copies_are_used_with_a_note(tmp_path: Path, server: Server) -> None:
    _project(tmp_path, server, cache_control="max-age=0")
    _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache")
    server.stop()
    offline = _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache")
    assert offline.stdout.splitlines() == VERDICT
    notes = offline.stderr.splitlines()
    assert len(notes) == 2 and all(
        note.startswith("straightline validate: note: http://127.0.0.1:") for note in notes
    )
    assert all("cannot be reached" in note and "using the copy cached" in note for note in notes)
    elsewhere = _validate(
        tmp_path, "--fetch-remote", "--cache-dir", "other-cache"
    )  # nothing cached there
    assert (elsewhere.returncode, elsewhere.stdout) == (2, "")
    assert "which cannot be retrieved: cannot be reached" in elsewhere.stderr


def test_a_document_the_server_does_not_have_is_a_schema_error_naming_it(
    tmp_path: Path, server: Server
) -> None:
    _project(tmp_path, server)
    del server.documents["/schemas/defs.json"]
    result = _validate(tmp_path, "--fetch-remote", "--cache-dir", "cache")
    assert (result.returncode, result.stdout) == (2, "")
    assert (
        f"$ref 'defs.json#/$defs/size' names {server.url}/schemas/defs.json, which cannot be retrieved: "
        "HTTP 404 Not Found [unresolvable-ref]"
    ) in result.stderr


def test_fetch_remote_is_a_compile_option(tmp_path: Path, server: Server) -> None:
    _project(tmp_path, server)
    refused = run(
        "--builtin-schema", "vendor.dependabot", "--fetch-remote", "good.json", cwd=tmp_path
    )
    assert (
        refused.returncode == 2
        and "--fetch-remote: compile options, for --schema only" in refused.stderr
    )
    alone = _validate(tmp_path, "--cache-dir", "cache")
    assert (alone.returncode, alone.stderr) == (
        2,
        "straightline validate: --cache-dir: the cache of --fetch-remote, which was not given\n",
    )
    assert server.log == []


def _imports(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_a_project_setting_fetches_for_compile_and_check_and_modules_never_fetch(
    tmp_path: Path, server: Server
) -> None:
    _project(tmp_path, server, etag='"v1"', cache_control="max-age=0")
    write(
        tmp_path / "pyproject.toml",
        '[tool.straightline]\nout = "gen"\ncontracts = ["schema.json"]\n'
        'fetch-remote = true\ncache-dir = "cache"\n',
    )

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(STRAIGHTLINE), *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={**os.environ, **LOOPBACK},
            timeout=300,
        )

    compiled = command("compile")
    assert compiled.returncode == 0, compiled.stderr
    module_text = (tmp_path / "gen" / "schema.py").read_text(encoding="utf-8")
    assert not _imports(module_text) & {"urllib", "http", "socket", "ssl", "requests"}
    assert f"{server.url}/schemas/defs.json" in module_text  # the header records the documents read
    checked = command("check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    server.put(
        "/schemas/defs.json", {"$defs": {"size": {"type": "integer", "maximum": 100}}}, etag='"v2"'
    )
    changed = command("check")
    assert changed.returncode == 1 and "stale" in changed.stdout + changed.stderr

    server.stop()  # the module validates with no server at all
    namespace: dict[str, Any] = {}
    exec(compile(module_text, "schema.py", "exec"), namespace)
    assert namespace["is_valid"]({"item": {"size": 3}}) and not namespace["is_valid"](
        {"item": {"size": 30}}
    )

    offline = command(
        "compile"
    )  # the cached copies (the changed one, as check retrieved it), with a note each
    assert offline.returncode == 0, offline.stderr
    notes = [line for line in offline.stderr.splitlines() if line.startswith("note: ")]
    assert len(notes) == 2 and all("cannot be reached" in note for note in notes), offline.stderr
    # check reads the same cached copies, offline too, with the same notes
    offline_check = command("check")
    assert offline_check.returncode == 0, offline_check.stderr
    check_notes = [line for line in offline_check.stderr.splitlines() if line.startswith("note: ")]
    assert sorted(check_notes) == sorted(notes), offline_check.stderr
    recompiled: dict[str, Any] = {}
    exec(
        compile((tmp_path / "gen" / "schema.py").read_text(encoding="utf-8"), "schema.py", "exec"),
        recompiled,
    )
    assert recompiled["is_valid"]({"item": {"size": 30}}) and not recompiled["is_valid"](
        {"item": {"size": 300}}
    )


def test_the_project_settings_are_checked(tmp_path: Path) -> None:
    from generator.errors import ConfigError
    from generator.project import load_project

    write(tmp_path / "s.json", {"type": "object"})
    write(
        tmp_path / "pyproject.toml",
        '[tool.straightline]\nout = "gen"\ncontracts = ["s.json"]\n' 'fetch-remote = "yes"\n',
    )
    with pytest.raises(ConfigError, match="fetch-remote: must be true or false"):
        load_project(tmp_path / "pyproject.toml")
    write(
        tmp_path / "pyproject.toml",
        '[tool.straightline]\nout = "gen"\ncontracts = ["s.json"]\n'
        'fetch-remote = true\ncache-dir = "c"\n',
    )
    (job,) = load_project(tmp_path / "pyproject.toml").jobs
    assert (job.settings.fetch_remote, job.settings.cache_dir) == (True, tmp_path / "c")


# --- RemoteCache and CompiledCache in process, with a stand-in for the network -----------------


class _Response:
    """What urllib's opener returns, as RemoteCache reads it."""

    def __init__(self, body: bytes, url: str, headers: dict[str, str] | None = None) -> None:
        self.body, self.url, self.headers = body, url, headers or {}

    def __enter__(self) -> "_Response":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

    def geturl(self) -> str:
        return self.url

    def read(self, limit: int) -> bytes:
        return self.body[:limit]


def _opener(responses: dict[str, _Response], asked: list[Any]) -> Any:
    def open_(request: Any, timeout: float) -> _Response:
        asked.append(request)
        found = responses.get(request.full_url)
        if found is None:
            raise OSError("network is unreachable")
        return found

    return open_


def test_the_cache_directory_defaults_to_xdg_then_home(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.remote import default_cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", "/var/cache/me")
    assert default_cache_dir() == Path("/var/cache/me/straightline")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", "/home/me")
    assert default_cache_dir() == Path("/home/me/.cache/straightline")


def test_only_http_documents_of_a_safe_size_and_scheme_are_retrieved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator import remote

    url = "https://example.com/s.json"
    responses = {
        url: _Response(b"{}", "file:///etc/passwd"),
        url + "?big": _Response(b"x" * 11, url + "?big"),
    }
    cache = remote.RemoteCache(tmp_path, opener=_opener(responses, []))
    with pytest.raises(remote.FetchError, match="only http and https URIs are retrieved"):
        cache.get("file:///etc/passwd")
    with pytest.raises(remote.FetchError, match="redirected to file:///etc/passwd, which is not"):
        cache.get(url)
    monkeypatch.setattr(remote, "MAX_BYTES", 10)
    with pytest.raises(remote.FetchError, match="larger than 10 bytes"):
        cache.get(url + "?big")
    assert not (tmp_path / "documents").exists()  # nothing refused was cached


def test_a_stale_copy_is_revalidated_by_its_date_and_a_damaged_one_is_no_copy(
    tmp_path: Path,
) -> None:
    from generator.remote import FetchError, RemoteCache

    url = "https://example.com/s.json"
    asked: list[Any] = []
    headers = {"Last-Modified": "Mon, 07 Dec 2026 10:00:00 GMT"}
    responses = {url: _Response(b'{"type": "string"}', url, headers)}
    cache = RemoteCache(tmp_path, opener=_opener(responses, asked), clock=lambda: 1000.0)
    assert cache.get(url) == b'{"type": "string"}'
    assert cache.get(url) == b'{"type": "string"}'  # no max-age: asked again, with the date
    assert asked[1].get_header("If-modified-since") == "Mon, 07 Dec 2026 10:00:00 GMT"
    meta, body = cache._paths(url)
    body.write_bytes(b'{"type": "integer"}')  # the body no longer matches its recorded digest
    assert cache.cached(url) is None
    responses.clear()  # offline, and no usable copy
    with pytest.raises(FetchError, match="cannot be reached"):
        cache.get(url)


def test_a_cache_that_cannot_be_written_is_a_note_and_the_document_is_used(
    tmp_path: Path,
) -> None:
    from generator.remote import CompiledCache, RemoteCache

    url = "https://example.com/s.json"
    (tmp_path / "cache").write_text("a file where the cache directory goes")
    cache = RemoteCache(tmp_path / "cache", opener=_opener({url: _Response(b"{}", url)}, []))
    assert cache.get(url) == b"{}"
    CompiledCache(cache).save("key", "x = 1\n", {url: "digest"})
    assert len(cache.notes) == 2
    assert all(
        note.startswith(f"cannot write the cache {tmp_path / 'cache'}: ") for note in cache.notes
    )
    assert list(tmp_path.iterdir()) == [tmp_path / "cache"]
    other = RemoteCache(tmp_path / "other", opener=cache.opener)
    meta, body = other._paths(url)
    body.mkdir(parents=True)  # a directory where the body goes: the rename fails
    assert other.get(url) == b"{}" and other.notes[0].startswith("cannot write the cache")
    assert sorted(p.name for p in body.parent.iterdir()) == [body.name]  # no temporary left


def test_a_compiled_module_is_reused_only_with_every_document_as_it_was(tmp_path: Path) -> None:
    from generator.remote import CompiledCache, RemoteCache, _digest

    url = "https://example.com/s.json"
    responses = {url: _Response(b"{}", url, {"Cache-Control": "max-age=0"})}
    cache = RemoteCache(tmp_path, opener=_opener(responses, []))
    compiled = CompiledCache(cache)
    compiled.save("k", "x = 1\n", {url: _digest(b"{}")})
    assert compiled.reuse("k") == "x = 1\n"
    responses.clear()
    (tmp_path / "documents").rename(tmp_path / "gone")  # no copy, and the server unreachable
    assert compiled.reuse("k") is None
    (tmp_path / "modules" / "k.json").write_text('{"module": 5, "retrieved": {}}')
    assert compiled.reuse("k") is None  # damaged: compiled anew


def test_a_retrieved_document_that_is_not_json_is_an_error_at_its_reference(
    tmp_path: Path,
) -> None:
    import generator
    from generator.remote import RemoteCache, remote_registry

    url = "https://example.com/s.json"
    cache = RemoteCache(tmp_path, opener=_opener({url: _Response(b"{not json", url)}, []))
    registry = remote_registry({}, cache)
    assert registry.get("https://example.com/other.json") is not None  # (a problem, unreachable)
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source({"$ref": url}, profile="draft2020-12", registry=registry)
    assert raised.value.code == "unresolvable-ref"
    assert f"names {url}, which cannot be retrieved: " in raised.value.message


def test_a_cache_directory_that_is_a_file_is_an_option_error(tmp_path: Path) -> None:
    from generator.errors import OptionError
    from generator.remote import cache_for

    (tmp_path / "cache").write_text("")
    with pytest.raises(OptionError, match="--cache-dir .*cache: not a directory"):
        cache_for(tmp_path / "cache")
