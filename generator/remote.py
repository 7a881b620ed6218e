"""Remote references, retrieved only on request: `straightline validate --fetch-remote`, or
`fetch-remote = true` in [tool.straightline] for compile, check and the build hooks. Without it
nothing is ever fetched (a `$ref` to an http(s) URI the registry does not hold is unresolvable).

When it is asked for, a `$ref` the registry does not hold whose URI is http or https (not one of
the meta-schemas straightline bundles) is retrieved at compile time, once per URI, by
RemoteRegistry: the resolver asks the registry for exactly the documents it needs, so relative
references inside a retrieved document resolve against its URI as any other. Compiled modules
never fetch: they hold the checks, not the documents.

Retrieved documents are cached on disk (RemoteCache: `--cache-dir`, else
$XDG_CACHE_HOME/straightline, else ~/.cache/straightline) with their ETag, Last-Modified and
Cache-Control max-age: a copy within its max-age is used without a request; an older one is
revalidated (If-None-Match / If-Modified-Since; 304 keeps it); when the server cannot be reached,
the cached copy is used and a note says so. `validate` also caches the compiled module
(CompiledCache), keyed by the schema's bytes, the compile options and straightline's version,
with the digest of every document it retrieved: a run whose documents are unchanged reuses the
module and never imports the compiler.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import os
import re
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .errors import OptionError

TIMEOUT = 30  # seconds for one request (connect, and each read)
MAX_BYTES = 64 << 20  # a retrieved document larger than this is refused
SCHEMES = ("http://", "https://")


class FetchError(Exception):
    """A document could not be retrieved and no cached copy exists: `reason` says why."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason


def default_cache_dir() -> Path:
    """$XDG_CACHE_HOME/straightline, else ~/.cache/straightline."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "straightline"


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?", re.I)
_NO_CACHE = re.compile(r"(?:^|,)\s*(?:no-cache|no-store)\b", re.I)


def _max_age(cache_control: str | None) -> int:
    """Seconds a response may be used without revalidation (0 without a max-age)."""
    if not cache_control or _NO_CACHE.search(cache_control):
        return 0
    found = _MAX_AGE.search(cache_control)
    return int(found[1]) if found else 0


@dataclass
class CachedDocument:
    """A retrieved document and what the server said of it."""

    url: str
    body: bytes
    etag: str | None
    last_modified: str | None
    fetched_at: float
    max_age: int

    def fresh(self, now: float) -> bool:
        return now < self.fetched_at + self.max_age


Opener = Callable[..., Any]


class RemoteCache:
    """Documents retrieved over http(s), kept in `directory` (documents/<sha256 of the URL>)."""

    def __init__(
        self,
        directory: Path | str | None = None,
        *,
        opener: Opener | None = None,
        clock: Callable[[], float] = time.time,
        timeout: float = TIMEOUT,
    ) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_dir()
        self.opener = opener or urllib.request.build_opener().open
        self.clock = clock
        self.timeout = timeout
        self.notes: list[str] = []  # what the user should know (a cached copy used offline)

    def _paths(self, url: str) -> tuple[Path, Path]:
        stem = self.directory / "documents" / _digest(url.encode("utf-8", "surrogatepass"))
        return stem.with_suffix(".json"), stem.with_suffix(".body")

    def cached(self, url: str) -> CachedDocument | None:
        """The cached copy of `url`, or None (a damaged entry counts as none)."""
        meta_path, body_path = self._paths(url)
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            body = body_path.read_bytes()
            if meta.get("url") != url or meta.get("sha256") != _digest(body):
                return None
            return CachedDocument(
                url,
                body,
                meta.get("etag"),
                meta.get("last_modified"),
                float(meta["fetched_at"]),
                int(meta["max_age"]),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _store(self, document: CachedDocument) -> None:
        meta_path, body_path = self._paths(document.url)
        try:
            _write_atomically(body_path, document.body)
            meta = {
                "url": document.url,
                "sha256": _digest(document.body),
                "etag": document.etag,
                "last_modified": document.last_modified,
                "fetched_at": document.fetched_at,
                "max_age": document.max_age,
            }
            _write_atomically(meta_path, json.dumps(meta, indent=1).encode("utf-8"))
        except OSError as exc:
            self.notes.append(f"cannot write the cache {self.directory}: {exc.strerror or exc}")

    def get(self, url: str) -> bytes:
        """The document at `url`: the cached copy while fresh, else the server's (revalidating a
        cached copy), else, when the server cannot be reached, the cached copy with a note.
        FetchError when there is neither."""
        if not url.startswith(SCHEMES):
            raise FetchError(url, "only http and https URIs are retrieved")
        entry = self.cached(url)
        now = self.clock()
        if entry is not None and entry.fresh(now):
            return entry.body
        headers = {
            "User-Agent": "straightline (JSON Schema compiler)",
            "Accept": "application/schema+json, application/json;q=0.9, */*;q=0.5",
        }
        if entry is not None and entry.etag:
            headers["If-None-Match"] = entry.etag
        if entry is not None and entry.last_modified:
            headers["If-Modified-Since"] = entry.last_modified
        try:
            response = self.opener(
                urllib.request.Request(url, headers=headers), timeout=self.timeout
            )
            with response:
                final = response.geturl() or url
                if not final.startswith(SCHEMES):
                    raise FetchError(url, f"redirected to {final}, which is not http(s)")
                body = response.read(MAX_BYTES + 1)
                if len(body) > MAX_BYTES:
                    raise FetchError(url, f"larger than {MAX_BYTES} bytes")
                document = CachedDocument(
                    url,
                    body,
                    response.headers.get("ETag"),
                    response.headers.get("Last-Modified"),
                    now,
                    _max_age(response.headers.get("Cache-Control")),
                )
        except urllib.error.HTTPError as exc:
            if exc.code == 304 and entry is not None:  # not modified: the cached copy, fresh again
                entry.fetched_at, entry.max_age = now, _max_age(exc.headers.get("Cache-Control"))
                self._store(entry)
                return entry.body
            return self._offline(url, entry, f"HTTP {exc.code} {exc.reason}")
        except (
            urllib.error.URLError,
            OSError,
            ValueError,
        ) as exc:  # unreachable, timed out, a bad URL
            reason = getattr(exc, "reason", None) or exc
            return self._offline(url, entry, f"cannot be reached ({reason})")
        self._store(document)
        return document.body

    def _offline(self, url: str, entry: CachedDocument | None, reason: str) -> bytes:
        if entry is None:
            raise FetchError(url, reason)
        when = email.utils.formatdate(entry.fetched_at, usegmt=True)
        self.notes.append(f"{url}: {reason}; using the copy cached {when}")
        return entry.body


def _bundled(uri: str) -> bool:
    from .resolve import _BUNDLED

    return uri in _BUNDLED


def make_fetch_problem(url: str, reason: str) -> Any:
    """A registry entry standing for a document that could not be retrieved: a `$ref` (or
    `$schema`) reaching it is an unresolvable-ref SchemaError at that reference, saying why."""
    from .errors import SchemaError
    from .resolve import RegistryProblem

    class FetchProblem(RegistryProblem):
        def error(self, ref: str, where: str) -> SchemaError:
            return SchemaError(
                f"{ref} names {url}, which cannot be retrieved: {reason}",
                code="unresolvable-ref",
                pointer=where,
            )

    return FetchProblem((url,), reason)


def remote_registry(
    mapping: dict[str, Any], cache: RemoteCache, *, max_bytes: int | None = None
) -> Any:
    """A registry (a resolve.ReadLog, which compile_source uses as it is) holding `mapping` and,
    on demand, every http(s) document asked for that it does not hold, retrieved through
    `cache` (`.cache`). `.retrieved` maps each retrieved URI to its document's sha256."""
    from .errors import SchemaError
    from .load import load_json
    from .resolve import ReadLog
    from .yaml_loader import is_yaml_path, load_yaml

    class RemoteRegistry(ReadLog):
        retrieved: dict[str, str]
        cache: RemoteCache

        def _retrieve(self, uri: object) -> None:
            if (
                not isinstance(uri, str)
                or dict.__contains__(self, uri)
                or not uri.startswith(SCHEMES)
                or "#" in uri
                or _bundled(uri)
            ):
                return
            try:
                body = cache.get(uri)
            except FetchError as exc:
                dict.__setitem__(self, uri, make_fetch_problem(uri, exc.reason))
                return
            try:
                path = uri.split("?", 1)[0]
                value = (
                    load_yaml(body, max_bytes=max_bytes, what="retrieved document")
                    if is_yaml_path(path)
                    else load_json(body, max_bytes=max_bytes, what="retrieved document")
                )
            except SchemaError as error:
                dict.__setitem__(self, uri, make_fetch_problem(uri, error.message))
                return
            self.retrieved[uri] = _digest(body)
            dict.__setitem__(self, uri, value)

        def __contains__(self, uri: object) -> bool:
            self._retrieve(uri)
            return super().__contains__(uri)

        def __getitem__(self, uri: str) -> Any:
            self._retrieve(uri)
            return super().__getitem__(uri)

        def get(self, uri: str, default: Any = None) -> Any:
            self._retrieve(uri)
            return super().get(uri, default)

    registry = RemoteRegistry(mapping)
    registry.retrieved = {}
    registry.cache = cache
    return registry


class CompiledCache:
    """Modules compiled with retrieved documents (modules/<key>.json in the cache directory):
    the module text and the sha256 of each document it was compiled with."""

    def __init__(self, cache: RemoteCache) -> None:
        self.cache = cache

    @staticmethod
    def key(source: bytes, options: dict[str, Any]) -> str:
        from . import __version__

        recorded = json.dumps(
            {"version": __version__, "source": _digest(source), "options": options},
            sort_keys=True,
            default=str,
        )
        return _digest(recorded.encode("utf-8"))

    def _path(self, key: str) -> Path:
        return self.cache.directory / "modules" / f"{key}.json"

    def reuse(self, key: str) -> str | None:
        """The module compiled under `key`, if every document it was compiled with is still the
        same (retrieved, revalidated or cached as RemoteCache.get decides); else None."""
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
            module, retrieved = entry["module"], entry["retrieved"]
            if not isinstance(module, str) or not isinstance(retrieved, dict):
                return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        for url, digest in retrieved.items():
            try:
                if _digest(self.cache.get(url)) != digest:
                    return None
            except FetchError:
                return None
        return module

    def save(self, key: str, module: str, retrieved: dict[str, str]) -> None:
        try:
            _write_atomically(
                self._path(key),
                json.dumps({"module": module, "retrieved": retrieved}).encode("utf-8"),
            )
        except OSError as exc:
            self.cache.notes.append(
                f"cannot write the cache {self.cache.directory}: {exc.strerror or exc}"
            )


def cache_for(directory: str | Path | None) -> RemoteCache:
    """The RemoteCache of `--cache-dir` (or the default); OptionError if it is not a directory."""
    if directory is not None and Path(directory).exists() and not Path(directory).is_dir():
        raise OptionError(f"--cache-dir {directory}: not a directory")
    return RemoteCache(directory)


__all__ = [
    "CompiledCache",
    "FetchError",
    "RemoteCache",
    "cache_for",
    "default_cache_dir",
    "remote_registry",
]
