"""Stage 3, resolve: schema resources, their canonical URIs, and reference lookup.

A Registry holds documents by URI (the schema being compiled, the bundled meta-schemas, and any
the user supplies: a mapping of URI to schema, or a directory of schema files; never the network).
It walks each document once, indexing every schema resource (`$id`, `id` in draft 4), anchor
(`$anchor`, plain-name `$id` fragments), `$dynamicAnchor` and `$recursiveAnchor`. A location is
(document URI, JSON pointer); `lookup` turns a reference into one, or raises SchemaError.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from dataclasses import dataclass, field
from importlib import resources as _resources
from pathlib import Path, PurePosixPath
from typing import Any, Iterator, Mapping
from urllib.parse import unquote, urldefrag, urljoin, urlsplit, uses_relative

from .errors import OptionError, SchemaError, join_pointer
from .uris import not_a_uri, uri_problem

DRAFTS = ("draft2020-12", "draft2019-09", "draft7", "draft6", "draft4")

# Meta-schema URIs (as written in $schema, without a trailing '#') and the draft each names.
META_SCHEMAS = {
    "https://json-schema.org/draft/2020-12/schema": "draft2020-12",
    "https://json-schema.org/draft/2019-09/schema": "draft2019-09",
    "http://json-schema.org/draft-07/schema": "draft7",
    "http://json-schema.org/draft-06/schema": "draft6",
    "http://json-schema.org/draft-04/schema": "draft4",
}
_BUNDLED = {
    "https://json-schema.org/draft/2020-12/schema": "draft2020-12.json",
    "https://json-schema.org/draft/2019-09/schema": "draft2019-09.json",
    "http://json-schema.org/draft-07/schema": "draft7.json",
    "http://json-schema.org/draft-06/schema": "draft6.json",
    "http://json-schema.org/draft-04/schema": "draft4.json",
}
for _vocab in (
    "applicator",
    "content",
    "core",
    "format-annotation",
    "format-assertion",
    "meta-data",
    "unevaluated",
    "validation",
):
    _BUNDLED[f"https://json-schema.org/draft/2020-12/meta/{_vocab}"] = f"vocab2020/{_vocab}.json"
for _vocab in ("applicator", "content", "core", "format", "meta-data", "validation"):
    _BUNDLED[f"https://json-schema.org/draft/2019-09/meta/{_vocab}"] = f"vocab2019/{_vocab}.json"


def normalize_meta_uri(uri: str) -> str:
    return uri[:-1] if uri.endswith("#") else uri


def embedded_draft(schema: dict[str, Any], pointer: str) -> str | None:
    """The draft a `$schema` below a document's root (`pointer` not empty) names, if one we know:
    it switches the draft for that subschema (a bundled resource of another draft)."""
    meta = schema.get("$schema")
    return META_SCHEMAS.get(normalize_meta_uri(meta)) if pointer and isinstance(meta, str) else None


class MalformedURI(ValueError):
    """A URI (reference) urllib cannot split: `http://[::1/x` (an unclosed IPv6 host),
    `http://[foo]/` (a bracketed host that is no IP address). Schemas and registries are written
    by anyone, so each caller says it as a typed error at its keyword: an `$id` that is no URI is
    `bad-keyword-value`, a reference that is none does not resolve (`unresolvable-ref`)."""


def check_base_uri(base_uri: Any) -> None:
    """The API's `base_uri=`: a string urllib can split, else an OptionError."""
    if not isinstance(base_uri, str):
        raise OptionError(f"base_uri must be a string (a URI), not {type(base_uri).__name__}")
    problem = uri_problem(base_uri)
    if problem is not None:
        raise OptionError(f"base_uri {base_uri!r} is not a URI: {problem}")


def join_id(base: str, ident: str, word: str, pointer: str) -> str:
    """The base URI inside a schema whose identifier keyword `word` (at `pointer`) says `ident`;
    a SchemaError (not_a_uri) where urllib cannot split it."""
    try:
        return join_uri(base, ident)
    except MalformedURI as exc:
        raise not_a_uri(word, ident, str(exc), pointer) from None


@functools.lru_cache(maxsize=1 << 16)
def join_uri(base: str, ref: str) -> str:
    """RFC 3986 reference resolution that also works for URNs and other non-hierarchical bases
    (cached: a schema resolves the same few references against the same few bases many times).
    MalformedURI when urllib cannot split either."""
    try:
        if urlsplit(ref).scheme:
            return ref
        scheme = urlsplit(base).scheme
        if scheme and scheme not in uses_relative:
            if ref.startswith("#") or ref == "":
                return urldefrag(base)[0] + ref
            return ref
        return urljoin(base, ref)
    except ValueError as exc:
        raise MalformedURI(str(exc)) from None


@dataclass(frozen=True)
class KeywordReading:
    """What indexing needs to know of the keywords (the compiler's from the registry's tables,
    lower.compiler_reading; the reference interpreter brings its own): per draft, an object with
    `id_keyword`, `id_fragment` and `ref_alone` (as profiles.Dialect has them); per keyword,
    whether its value may be a schema, an array of schemas, a map of schemas."""

    dialects: Mapping[str, Any]
    holding: Mapping[str, tuple[bool, bool, bool]]


def subschema_positions(
    schema: Any, holding: Mapping[str, tuple[bool, bool, bool]]
) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """(path below `schema`, subschema) for the schemas directly inside `schema`, where `holding`
    says each keyword holds schemas (KeywordReading.holding), whatever the draft."""
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        forms = holding.get(key) if isinstance(key, str) else None
        if forms is None:
            continue
        one, many, named = forms
        if one and isinstance(value, (dict, bool)):
            yield (key,), value
        elif many and isinstance(value, list):
            for i, sub in enumerate(value):
                yield (key, i), sub
        elif named and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, (dict, bool)):
                    yield (key, name), sub


@dataclass
class Document:
    uri: str
    value: Any
    draft: str


@dataclass
class Location:
    document: Document
    pointer: str
    base: str  # the base URI in force at this location

    @property
    def key(self) -> str:
        return self.document.uri + "#" + self.pointer

    @property
    def schema(self) -> Any:
        return resolve_pointer(self.document.value, self.pointer)


@dataclass
class Registry:
    draft: str  # the draft of documents that name none
    # what the index reads of the keywords (lower.compiler_reading: the units' declarations; the
    # reference interpreter brings its own)
    reading: KeywordReading
    documents: dict[str, Document] = field(default_factory=dict)
    resources: dict[str, tuple[str, str]] = field(default_factory=dict)  # uri -> (doc, pointer)
    anchors: dict[str, tuple[str, str]] = field(default_factory=dict)  # uri#name -> (doc, pointer)
    dynamic_anchors: dict[str, dict[str, str]] = field(
        default_factory=dict
    )  # resource -> name -> pointer uri
    recursive_anchors: set[str] = field(
        default_factory=set
    )  # resources with $recursiveAnchor: true
    bases: dict[str, str] = field(default_factory=dict)  # location key -> base URI
    resource_of: dict[str, str] = field(
        default_factory=dict
    )  # location key -> its resource URI, if a root
    # location key -> draft, where an embedded `$schema` changes the draft below a document's root
    dialects: dict[str, str] = field(default_factory=dict)
    supplied: Mapping[str, Any] = field(default_factory=dict)
    # the documents read from `supplied` (a registry's files), in the order references reached them
    from_supplied: list[Document] = field(default_factory=list)

    # -- documents ------------------------------------------------------------------------
    def add(self, uri: str, value: Any, draft: str | None = None) -> Document:
        uri = urldefrag(uri)[0]
        if uri in self.documents:
            return self.documents[uri]
        chosen = draft or self.draft_of(value) or self.draft
        document = Document(uri, value, chosen)
        self.documents[uri] = document
        self._index(document)
        return document

    def copy(self, supplied: Mapping[str, Any]) -> Registry:
        """A registry holding what this one has indexed so far (its own tables: adding to one
        leaves the other as it was), that reads further documents from `supplied`."""
        return Registry(
            draft=self.draft,
            documents=dict(self.documents),
            resources=dict(self.resources),
            anchors=dict(self.anchors),
            dynamic_anchors={uri: dict(names) for uri, names in self.dynamic_anchors.items()},
            recursive_anchors=set(self.recursive_anchors),
            bases=dict(self.bases),
            resource_of=dict(self.resource_of),
            dialects=dict(self.dialects),
            supplied=supplied,
            reading=self.reading,
        )

    def draft_of(self, value: Any) -> str | None:
        if isinstance(value, dict) and isinstance(value.get("$schema"), str):
            return META_SCHEMAS.get(normalize_meta_uri(value["$schema"]))
        return None

    def _index(self, document: Document) -> None:
        dialects, holding = self.reading.dialects, self.reading.holding
        if not isinstance(document.value, dict):  # a boolean document is a resource all the same
            self.resources.setdefault(document.uri, (document.uri, ""))
            self.resource_of.setdefault(document.uri + "#", urldefrag(document.uri)[0])
        stack: list[tuple[str, Any, str, str]] = [
            ("", document.value, document.uri, document.draft)
        ]
        while stack:
            pointer, schema, base, draft = stack.pop()
            key = document.uri + "#" + pointer
            if isinstance(schema, dict):
                if pointer and isinstance(schema.get("$schema"), str):
                    draft = META_SCHEMAS.get(normalize_meta_uri(schema["$schema"]), draft)
                    self.dialects[key] = draft
                dialect = dialects[draft]
                # before 2019-09 an $id's fragment names an anchor; from then on $anchor does
                fragment_anchors = dialect.id_fragment != "none"
                ident = schema.get(dialect.id_keyword)
                if dialect.ref_alone and "$ref" in schema:
                    ident = None  # $ref siblings, $id included, are ignored before 2019-09
                if isinstance(ident, str):
                    if fragment_anchors and ident.startswith("#"):
                        self.anchors[join_uri(base, ident)] = (document.uri, pointer)
                    else:
                        # (preflight says a bad one first where it walks; this is every place indexed)
                        base = join_id(
                            base,
                            ident,
                            dialect.id_keyword,
                            join_pointer(pointer, dialect.id_keyword),
                        )
                        resource = urldefrag(base)[0]
                        self.resources.setdefault(resource, (document.uri, pointer))
                        self.resource_of[key] = resource
                        fragment = urldefrag(join_uri(base, ident))[1]
                        if fragment_anchors and fragment:
                            self.anchors[join_uri(base, "#" + fragment)] = (document.uri, pointer)
                resource = _without_fragment(base)
                if not pointer:
                    self.resource_of.setdefault(key, resource)
                    self.resources.setdefault(resource, (document.uri, pointer))
                    self.resources.setdefault(document.uri, (document.uri, pointer))
                if not fragment_anchors:
                    for word in ("$anchor", "$dynamicAnchor"):
                        name = schema.get(word)
                        if isinstance(name, str):
                            self.anchors.setdefault(resource + "#" + name, (document.uri, pointer))
                            if word == "$dynamicAnchor":
                                self.dynamic_anchors.setdefault(resource, {})[name] = key
                    if schema.get("$recursiveAnchor") is True and self.resource_of.get(key):
                        self.recursive_anchors.add(resource)
            self.bases[key] = base
            for path, sub in subschema_positions(schema, holding):
                stack.append((join_pointer(pointer, *path), sub, base, draft))

    def _document_for(self, uri: str, ref: str = "", where: str = "") -> Document | None:
        if uri in self.documents:
            return self.documents[uri]
        if uri in self.supplied:
            supplied = self.supplied[uri]
            if isinstance(supplied, RegistryProblem):  # a broken or ambiguous registry entry
                raise supplied.error(f"$ref {ref!r}", where)
            try:
                document = self.add(uri, supplied)
            except SchemaError as error:  # (a bad $id found indexing it) located in that document
                raise error.in_document(uri) from None
            self.from_supplied.append(document)
            return document
        meta = _BUNDLED.get(uri)
        if meta is not None:
            text = (
                _resources.files("generator")
                .joinpath("metaschemas")
                .joinpath(meta)
                .read_text("utf-8")
            )
            return self.add(uri, json.loads(text))
        return None

    # -- lookup -----------------------------------------------------------------------------
    def location(self, document_uri: str, pointer: str) -> Location:
        document = self.documents[document_uri]
        key = document_uri + "#" + pointer
        base = self.bases.get(key)
        if base is None:
            base = self._base_by_walking(document, pointer)
        return Location(document, pointer, base)

    def _base_by_walking(self, document: Document, pointer: str) -> str:
        """The base URI at a location the index did not visit (inside an unknown keyword)."""
        best, best_len = document.uri, -1
        for key, base in self.bases.items():
            doc, _, at = key.partition("#")
            if (
                doc == document.uri
                and (pointer == at or pointer.startswith(at + "/"))
                and len(at) > best_len
            ):
                best, best_len = base, len(at)
        return best

    def lookup(self, ref: str, base: str, where: str) -> Location:
        """The location `ref` names, resolved against `base`; `where` is the $ref's pointer."""
        try:
            uri, fragment = _split_reference(base, ref)
        except MalformedURI as exc:
            word = where.rpartition("/")[2]
            word = word if word in ("$dynamicRef", "$recursiveRef") else "$ref"
            raise SchemaError(
                f"{word} {ref!r} does not resolve: it is not a URI reference: {exc}",
                code="unresolvable-ref",
                pointer=where,
            ) from None
        if fragment and not fragment.startswith("/"):
            found = self.anchors.get(uri + "#" + fragment)
            if found is None:
                self._document_for(uri, ref, where)
                found = self.anchors.get(uri + "#" + fragment)
            if found is None:
                raise SchemaError(
                    f"$ref {ref!r} names no anchor {fragment!r} in {uri or 'this document'}",
                    code="unresolvable-ref",
                    pointer=where,
                )
            return self.location(*found)
        if uri not in self.resources:
            self._document_for(uri, ref, where)
        if uri not in self.resources:
            raise SchemaError(
                f"$ref {ref!r} does not resolve: no schema is known as {uri or '(empty URI)'}"
                " (remote references are served only from the registry, never the network)",
                code="unresolvable-ref",
                pointer=where,
            )
        document_uri, at = self.resources[uri]
        pointer = at + fragment
        try:
            resolve_pointer(self.documents[document_uri].value, pointer)
        except KeyError:
            raise SchemaError(
                f"$ref {ref!r} does not resolve: nothing at {fragment!r} in {uri or 'this document'}",
                code="unresolvable-ref",
                pointer=where,
            ) from None
        return self.location(document_uri, pointer)


@functools.lru_cache(maxsize=1 << 16)
def _without_fragment(uri: str) -> str:
    """urldefrag(uri)[0], once per base URI (indexing asks it for every subschema, and a
    document has few bases)."""
    return urldefrag(uri)[0]


@functools.lru_cache(maxsize=1 << 16)
def _split_reference(base: str, ref: str) -> tuple[str, str]:
    """The document URI and the (percent-decoded) fragment a reference names from `base`
    (cached: a schema makes the same references from the same bases many times)."""
    try:
        uri, fragment = urldefrag(join_uri(base, ref))
    except ValueError as exc:  # (MalformedURI from join_uri, or urllib's own)
        raise MalformedURI(str(exc)) from None
    if not uri and not base:
        uri = ""
    return uri, unquote(fragment)


def resolve_pointer(document: Any, fragment: str) -> Any:
    """The value at a JSON pointer (RFC 6901) inside a document; KeyError if absent."""
    node = document
    if not fragment:
        return node
    if not fragment.startswith("/"):
        raise KeyError(fragment)
    for token in fragment[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            # an array index is ASCII digits (RFC 6901), and one longer than any index is absent
            # (never int() of thousands of digits, past Python's limit)
            if (
                not (token.isascii() and token.isdigit())
                or len(token) > 19
                or int(token) >= len(node)
                or (token != "0" and token.startswith("0"))
            ):
                raise KeyError(token)
            node = node[int(token)]
        elif isinstance(node, dict) and token in node:
            node = node[token]
        else:
            raise KeyError(token)
    return node


class RegistryWarning(UserWarning):
    """A file of a registry directory that cannot be used (unreadable, not a regular file, not
    JSON) or an `$id` that several files declare. Loading goes on without it; a `$ref` that
    reaches it is then a SchemaError naming the file(s)."""


@dataclass(frozen=True)
class RegistryProblem:
    """Stands in a registry mapping for an entry that cannot be used: `files` and why. Looking it
    up (a `$ref`, or `$schema` naming it) is an error naming them; nothing else reads it."""

    files: tuple[str, ...]
    reason: str

    def error(self, ref: str, where: str) -> SchemaError:
        if len(self.files) > 1:
            return SchemaError(
                f"{ref} is ambiguous: {self.reason}", code="unresolvable-ref", pointer=where
            )
        return SchemaError(
            f"{ref} names registry file {self.files[0]}, which cannot be used: {self.reason}",
            code="unresolvable-ref",
            pointer=where,
        )


# A registry file is held to the drafts' source limit.
REGISTRY_FILE_BYTES = 16 * 1024 * 1024


def _registry_files(root: Path) -> Iterator[Path]:
    """Every entry named *.json under root, files and directories alike, in a fixed order;
    symbolic links to directories are not followed (a link loop cannot make the walk endless)."""

    def unreadable(error: OSError) -> None:
        warnings.warn(
            f"{error.filename}: cannot list the directory: {error.strerror or error}; skipped",
            RegistryWarning,
            stacklevel=4,
        )

    for directory, subdirectories, files in os.walk(root, onerror=unreadable):
        subdirectories.sort()
        for name in sorted(subdirectories + files):
            if name.endswith(".json"):
                yield Path(directory) / name


def _read_registry_file(file: Path, max_bytes: int) -> Any:
    """The value of one registry file; SchemaError (its message says why) when it has none."""
    from .load import load_json, read_regular

    try:
        raw = read_regular(file, max_bytes + 1)
    except OSError as exc:
        raise SchemaError(f"cannot read it: {exc.strerror or exc}", code="unreadable") from None
    if len(raw) > max_bytes:
        raise SchemaError(f"it is over the limit of {max_bytes} bytes", code="limit-exceeded")
    return load_json(raw, max_bytes=max_bytes, what="registry file")


def file_uri(path: Path, root: Path | None = None) -> str:
    """The file URI of `path`; with a `root` it lies under, relative to that root
    (`file:///schemas/order.json` for ROOT/schemas/order.json): a module compiled in one checkout
    then records the same URIs as in any other (its header and its absolute keyword locations)."""
    resolved = path.resolve()
    if root is not None:
        try:
            return PurePosixPath("/", resolved.relative_to(root.resolve()).as_posix()).as_uri()
        except ValueError:
            pass  # outside the root: where it is
    return resolved.as_uri()


def load_registry_directory(
    path: str | Path,
    *,
    base_uri: str | None = None,
    max_bytes: int = REGISTRY_FILE_BYTES,
    uri_root: Path | None = None,
) -> dict[str, Any]:
    """A directory of *.json schema files as a registry mapping: each file under its `$id` if it
    has one, under its file URI (relative to `uri_root` when it lies under it: file_uri), and
    under `base_uri` + its relative path when a base is given.

    A file that cannot be used (unreadable, a directory or other special file, which is never
    opened, over `max_bytes`, not JSON) does not stop the others: it is reported with a
    RegistryWarning and mapped to a RegistryProblem, so a `$ref` to it is an error naming it.
    An `$id` that two files declare is mapped to a RegistryProblem naming both (never silently
    the first one); each file is still reachable by its own path."""
    root = Path(path)
    mapping: dict[str, Any] = {}
    claims: dict[str, list[tuple[Path, Any]]] = {}  # $id -> (file, value) of each file declaring it
    for file in _registry_files(root):
        keys = [file_uri(file, uri_root)]
        if base_uri is not None:
            keys.insert(0, base_uri.rstrip("/") + "/" + file.relative_to(root).as_posix())
        try:
            value = _read_registry_file(file, max_bytes)
        except SchemaError as error:
            where = f" at {error.pointer}" if error.pointer else ""
            problem = RegistryProblem((str(file),), f"{error.message}{where}")
            warnings.warn(
                f"{file}: {problem.reason}; skipped (a $ref to it is an error)",
                RegistryWarning,
                stacklevel=2,
            )
            for key in keys:
                mapping.setdefault(key, problem)
            continue
        for key in keys:
            mapping.setdefault(key, value)
        # (an $id urllib cannot split claims nothing: a $ref by the file's path reaches it and
        # is refused there, `bad-keyword-value` at that $id)
        if (
            isinstance(value, dict)
            and isinstance(value.get("$id"), str)
            and uri_problem(value["$id"]) is None
        ):
            claims.setdefault(urldefrag(value["$id"])[0], []).append((file, value))
    for ident, claimants in claims.items():
        files = tuple(dict.fromkeys(str(file) for file, _ in claimants))
        if len(files) > 1:
            problem = RegistryProblem(
                files,
                f"$id {ident!r} is declared by {len(files)} registry files: " f"{', '.join(files)}",
            )
            warnings.warn(
                f"{problem.reason}; a $ref to it is an error", RegistryWarning, stacklevel=2
            )
            mapping[ident] = problem
        else:
            mapping.setdefault(ident, claimants[0][1])
    return mapping


def registry_mapping(registry: Any) -> dict[str, Any]:
    """The documents `$ref` may name: a mapping of URI to schema, or a directory of schema files
    (read once); nothing is ever fetched."""
    if isinstance(registry, ReadLog):
        return registry  # compile_source's own: it keeps the record of what was read
    if registry is None:
        return {}
    if isinstance(registry, (str, Path)):
        if not Path(registry).is_dir():
            raise OptionError(f"registry {str(registry)!r} is not a directory of schema files")
        return load_registry_directory(registry)
    if isinstance(registry, Mapping):
        odd = [key for key in registry if not isinstance(key, str)]
        if odd:  # (a $ref names a document by a string: no other key is ever looked up)
            raise OptionError(
                f"registry keys must be URIs (strings), not {type(odd[0]).__name__} ({odd[0]!r})"
            )
        return dict(registry)
    raise OptionError(
        f"registry must be a mapping of URI to schema, or a directory, not {type(registry).__name__}"
    )


class ReadLog(dict[str, Any]):
    """A registry mapping (URI -> schema) that remembers every URI a compile asked it for, found
    or not, in order: the module header records exactly those documents (or their absence), so
    `straightline check` knows when a registry change would change the module."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.asked: dict[str, None] = {}  # an ordered set

    def __contains__(self, uri: object) -> bool:
        if isinstance(uri, str):
            self.asked[uri] = None
        return super().__contains__(uri)

    def __getitem__(self, uri: str) -> Any:
        self.asked[uri] = None
        return super().__getitem__(uri)

    def get(self, uri: str, default: Any = None) -> Any:
        self.asked[uri] = None
        return super().get(uri, default)
