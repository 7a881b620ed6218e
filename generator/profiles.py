"""Profiles: named schema subsets, as data. A profile says which keywords it enforces and which it
knows as annotations (both read from the keyword units' declarations, in the registry's tables
that the pipeline hands in: profiles_of), whether an unknown keyword rejects the schema
(fail-closed) or is ignored, its limits, and its dialect: the rules that differ between drafts,
each a named flag."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

from .dialects import DIALECTS, Dialect, Limits
from .errors import OptionError, SchemaError
from .format_options import DEFAULT as DEFAULT_FORMATS
from .format_options import FormatOptions
from .ir import TYPE_NAMES
from .keywords.base import KeywordTables
from .names import LIMIT_OPTIONS, PROFILE_NAMES, UNSAFE_PATTERN_POLICIES, limit_problem
from .resolve import META_SCHEMAS, RegistryProblem, normalize_meta_uri

__all__ = [
    "DIALECTS",
    "DRAFT_NAMES",
    "Dialect",
    "Limits",
    "PROFILE_OPTIONS",
    "Profile",
    "TYPE_NAMES",
    "asserts_formats_by_vocabulary",
    "get_profile",
    "profiles_of",
    "related_profile",
    "with_formats",
    "with_options",
]


@dataclass(frozen=True)
class Profile:
    name: str
    enforced: frozenset[str]
    annotations: frozenset[str]
    fail_closed: bool  # unknown keywords reject the schema (True) or are ignored (False)
    limits: Limits
    dialect: Dialect = DIALECTS["seed"]
    type_arrays: bool = True  # "type": ["string", "null"]
    schema_additional_properties: bool = True  # additionalProperties may be a schema
    boolean_subschemas: bool = True  # true/false may stand for a subschema
    integer_multiple_of_only: bool = False
    draft: str | None = None  # the JSON Schema draft a full-draft profile implements
    # a pattern no linear-time engine runs (names.UNSAFE_PATTERN_POLICIES): a fail-closed
    # profile refuses it ("error"), the others warn and run it in `re` unless told otherwise
    unsafe_patterns: str = "warn"
    # format and content (see with_formats): the options in force, and whether a custom
    # meta-schema's $vocabulary asks for format assertion (2019-09 and 2020-12)
    format_options: FormatOptions = DEFAULT_FORMATS
    format_vocabulary: bool = False

    @property
    def float_integers(self) -> bool:
        return self.dialect.float_integers

    def keyword_status(self, keyword: str) -> str:
        """'enforced', 'annotation' or 'unknown'."""
        if keyword in self.enforced:
            return "enforced"
        if keyword in self.annotations:
            return "annotation"
        return "unknown"


# The profiles' own facts; their keyword sets are filled from the registry's tables (profiles_of).
_NO_KEYWORDS: frozenset[str] = frozenset()

_OCTOSCRIPT = Profile(
    name="octoscript",
    enforced=_NO_KEYWORDS,
    annotations=_NO_KEYWORDS,
    fail_closed=True,
    limits=Limits(
        max_source_bytes=32 * 1024, max_depth=32, max_properties=128, max_enum_values=128
    ),
    type_arrays=False,
    schema_additional_properties=False,
    boolean_subschemas=False,
    unsafe_patterns="error",
)

_STRICT = Profile(
    name="strict",
    enforced=_NO_KEYWORDS,
    annotations=_NO_KEYWORDS,
    fail_closed=True,
    limits=Limits(
        max_source_bytes=16 * 1024 * 1024, max_depth=64, max_properties=None, max_enum_values=None
    ),
    integer_multiple_of_only=True,
    unsafe_patterns="error",
)

_LENIENT = Profile(
    name="lenient",
    enforced=_NO_KEYWORDS,
    annotations=_NO_KEYWORDS,
    fail_closed=False,
    limits=Limits(
        max_source_bytes=16 * 1024 * 1024, max_depth=64, max_properties=None, max_enum_values=None
    ),
)

# The draft profiles, newest first.
DRAFT_NAMES = ("draft2020-12", "draft2019-09", "draft7", "draft6", "draft4")


def _draft(name: str) -> Profile:
    return Profile(
        name=name,
        enforced=_NO_KEYWORDS,
        annotations=_NO_KEYWORDS,
        fail_closed=False,
        limits=Limits(
            max_source_bytes=16 * 1024 * 1024,
            max_depth=128,
            max_properties=None,
            max_enum_values=None,
        ),
        dialect=DIALECTS[name],
        draft=name,
    )


@functools.cache
def profiles_of(tables: KeywordTables) -> dict[str, Profile]:
    """Every named profile, its keyword sets read from the registry's tables (built once per
    tables: generator/pipeline.py PROFILES)."""
    found = {
        p.name: replace(
            p, enforced=tables.enforced_by(p.name), annotations=tables.annotations_of(p.name)
        )
        for p in (_OCTOSCRIPT, _STRICT, _LENIENT, *map(_draft, DRAFT_NAMES))
    }
    assert sorted(found) == list(PROFILE_NAMES), "names.PROFILE_NAMES lists every profile"
    return found


def get_profile(name: Any, tables: KeywordTables) -> Profile:
    profiles = profiles_of(tables)
    if not isinstance(name, str) or name not in profiles:
        raise OptionError(
            f"unknown profile {name!r}; choose one of: {', '.join(sorted(profiles))}",
            code="unknown-profile",
        )
    return profiles[name]


# The options with_options takes: the limits, and the unsafe-pattern policy.
PROFILE_OPTIONS = (*LIMIT_OPTIONS, "unsafe_patterns")


def with_options(profile: Profile, options: dict[str, Any]) -> Profile:
    """The profile with limits (and the unsafe-pattern policy) overridden by options. Unknown
    options are an OptionError. A fail-closed profile keeps refusing unsafe patterns."""
    unknown = sorted(set(options) - set(PROFILE_OPTIONS))
    if unknown:
        raise OptionError(
            f"unknown option(s): {', '.join(unknown)}; known: {', '.join(PROFILE_OPTIONS)}"
        )
    profile = _with_unsafe_patterns(profile, options.get("unsafe_patterns"))
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key == "unsafe_patterns":
            continue
        if value is None and key != "max_depth":
            changes[key] = None
            continue
        problem = limit_problem(key, value)
        if problem is not None:
            raise OptionError(f"option {key} {problem}")
        changes[key] = value
    if not changes:
        return profile
    return replace(profile, limits=replace(profile.limits, **changes))


def _with_unsafe_patterns(profile: Profile, policy: Any) -> Profile:
    if policy is None:
        return profile
    if policy not in UNSAFE_PATTERN_POLICIES:
        raise OptionError(
            f"unsafe_patterns must be one of {', '.join(UNSAFE_PATTERN_POLICIES)}, not {policy!r}"
        )
    return profile if profile.fail_closed else replace(profile, unsafe_patterns=policy)


def with_formats(profile: Profile, options: FormatOptions, tables: KeywordTables) -> Profile:
    """The profile with each optional assertion (`format`; contentEncoding and contentMediaType in
    draft 7) a check or an annotation as `options` say. Their default is the registry's (`known_by`:
    annotations everywhere), except that `format` asserts under a meta-schema whose $vocabulary
    names format assertion. Derived from the registry each time, so applying it again with other
    options gives what applying those alone would."""
    enforced, annotations = set(profile.enforced), set(profile.annotations)
    for keyword in tables.optional_assertions(profile.name):
        if keyword.vocabulary == "format":
            on = options.asserts_format(
                profile.name in keyword.known_by or profile.format_vocabulary
            )
        else:
            on = options.asserts_content(profile.name in keyword.known_by)
        (enforced if on else annotations).add(keyword.name)
        (annotations if on else enforced).discard(keyword.name)
    return replace(
        profile,
        enforced=frozenset(enforced),
        annotations=frozenset(annotations),
        format_options=options,
    )


def profile_below(
    draft: str | None, outer: Profile, root: Profile, tables: KeywordTables
) -> Profile:
    """The profile in force below a `$schema` naming `draft` (None: none we know), `outer` in force
    above it: that draft's (related_profile) where it is another; a profile that is no draft is
    in force everywhere (it has no `$schema` of its own)."""
    if draft is not None and draft != outer.draft and root.draft is not None:
        return related_profile(draft, root, tables)
    return outer


def related_profile(draft: str, root: Profile, tables: KeywordTables) -> Profile:
    """The profile of another draft met inside a schema of `root` (a `$schema` below the root, a
    referenced document): that draft's rules, with the root's limits, unsafe-pattern policy and
    format options."""
    if draft == root.draft:
        return root
    profile = replace(
        profiles_of(tables)[draft], limits=root.limits, unsafe_patterns=root.unsafe_patterns
    )
    return with_formats(profile, root.format_options, tables)


# The vocabularies that make `format` an assertion when a custom meta-schema's $vocabulary names
# them: 2020-12's format-assertion (whatever its boolean: that only says what an implementation
# that does not know it must do), and 2019-09's format vocabulary declared `true` (its standard
# meta-schema declares it `false`: annotation).
_FORMAT_ASSERTION_2020 = "https://json-schema.org/draft/2020-12/vocab/format-assertion"
_FORMAT_2019 = "https://json-schema.org/draft/2019-09/vocab/format"


def asserts_formats_by_vocabulary(vocabulary: Any) -> bool:
    """Whether a meta-schema's $vocabulary asks for format assertion."""
    if not isinstance(vocabulary, dict):
        return False
    return _FORMAT_ASSERTION_2020 in vocabulary or vocabulary.get(_FORMAT_2019) is True


def choose_profile(
    value: Any, profile: str | None, registry: dict[str, Any], tables: KeywordTables
) -> Profile:
    """The named profile; else the draft `$schema` names; else draft 2020-12. A custom
    meta-schema (found in the registry) gives its own draft, less the vocabularies it leaves out."""
    drafts = profiles_of(tables)
    named = get_profile(profile, tables) if profile is not None else None
    if named is not None and named.draft is None:
        return named
    meta = value.get("$schema") if isinstance(value, dict) else None
    if not isinstance(meta, str):
        return named or drafts["draft2020-12"]
    uri = normalize_meta_uri(meta)
    if uri in META_SCHEMAS:
        return named or drafts[META_SCHEMAS[uri]]
    custom = registry.get(uri, registry.get(meta))
    if isinstance(custom, RegistryProblem):  # a registry file that could not be loaded
        raise custom.error(f"$schema {meta!r}", "/$schema")
    if not isinstance(custom, dict):
        if named is not None:
            return named
        raise SchemaError(
            f"$schema {meta!r} names no known draft and no meta-schema in the registry",
            code="unknown-profile",
            pointer="/$schema",
        )
    parent = custom.get("$schema")
    base = named or (
        drafts[META_SCHEMAS.get(normalize_meta_uri(parent), "draft2020-12")]
        if isinstance(parent, str)
        else drafts["draft2020-12"]
    )
    vocabulary = custom.get("$vocabulary")
    if not isinstance(vocabulary, dict):
        return base
    dropped: set[str] = set()
    # (the keywords each vocabulary of a custom meta-schema can switch off)
    for name in ("validation", "applicator", "unevaluated"):
        if not any(
            isinstance(v, str) and v.rstrip("/").endswith("/vocab/" + name) for v in vocabulary
        ):
            dropped |= tables.vocabulary(name)
    return replace(
        base,
        enforced=base.enforced - dropped,
        format_vocabulary=asserts_formats_by_vocabulary(vocabulary),
    )
