"""The project configuration, `[tool.straightline]` in pyproject.toml, and the jobs it describes:
one job per contract (a source file, or FILE#/pointer), with the module it is compiled to and the
settings it is compiled with. `straightline compile`/`check` with no SRC, and the build hooks,
run these jobs. Every path is relative to the directory of the pyproject.toml.

    [tool.straightline]
    out = "src/app/contracts"            # the output package (a directory; __init__.py written)
    contracts = ["schemas/*.json", "schemas/api.json#/$defs/order"]   # compiled into out/
    profile = "draft2020-12"             # optional; default: each schema's $schema
    registry = "schemas/shared"          # optional; a directory of schemas $ref may name
    unknown-keywords = "warn"            # ignore | warn | error
    unsafe-patterns = "warn"             # allow | warn | error (drafts; strict always refuses)
    max-depth = 64                       # and max-source-bytes, max-properties, max-enum-values
    native = true                        # also build each module's C extension ("mypyc": with mypyc)
    formats = true                       # optional: `format` asserts (false: an annotation)
    unknown-formats = "error"            # ignore | error (a format asserted but unknown)
    content = true                       # optional: draft 7's contentEncoding/contentMediaType
    fetch-remote = true                  # optional: retrieve http(s) $refs at compile time (cached)
    cache-dir = ".cache/straightline"    # optional: where they are cached (generator/remote.py)

    [tool.straightline.formats]          # instead of `formats = true`: custom formats (they assert)
    sku = "mypkg.formats:is_sku"

    [tool.straightline.groups.tools]     # compiled into out/tools/ (a subpackage)
    contracts = ["contracts/tools/*.json"]
    profile = "strict"                   # any setting above except out; overrides it here

A key that does not exist, a value of the wrong kind, a glob that matches nothing, two
contracts that would share one module, or a module named as a group's package (out/a.py and
out/a/: the package would shadow it) is a ConfigError naming the file and the key.
"""

from __future__ import annotations

import difflib
import glob
import keyword
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from .errors import ConfigError, OptionError
from .files import module_path
from .format_options import UNKNOWN_FORMAT_POLICIES, FormatOptions, custom_formats, format_options
from .names import NATIVE_BACKENDS, PROFILE_NAMES, UNSAFE_PATTERN_POLICIES, limit_problem

CONFIG_FILE = "pyproject.toml"
TABLE = "tool.straightline"
UNKNOWN_KEYWORD_POLICIES = ("ignore", "warn", "error")
_LIMIT_KEYS = {
    "max-source-bytes": "max_source_bytes",
    "max-depth": "max_depth",
    "max-properties": "max_properties",
    "max-enum-values": "max_enum_values",
}
_SETTING_KEYS = (
    "profile",
    "registry",
    "unknown-keywords",
    "unsafe-patterns",
    "native",
    *_LIMIT_KEYS,
    "formats",
    "unknown-formats",
    "content",
    "fetch-remote",
    "cache-dir",
)
_TOP_KEYS = ("out", "contracts", "groups", *_SETTING_KEYS)
_GROUP_KEYS = ("contracts", *_SETTING_KEYS)
INIT_TEXT = (
    '"""Contract validators compiled by straightline (see [tool.straightline] in '
    'pyproject.toml)."""\n'
)


@dataclass(frozen=True)
class Settings:
    """How a contract is compiled (the CLI flags, or the config's keys)."""

    profile: str | None = None
    registry: Path | None = None
    limits: tuple[tuple[str, int], ...] = ()  # (option name, value), e.g. ("max_depth", 64)
    unknown_keywords: str = "warn"
    native: bool = False  # also compile the module into a C extension beside it
    native_backend: str = "c"  # how: "c" (generator/native/c_build.py) or "mypyc"
    unsafe_patterns: str | None = None  # None: the profile's own policy
    format_assertion: bool | None = None  # None: the profile's default
    formats: tuple[tuple[str, str], ...] = ()  # custom formats: (name, "module:function")
    unknown_formats: str = "ignore"
    content_assertion: bool | None = None
    # the directory file URIs are written relative to (the project's, or where the command runs):
    # a module then records `file:///schemas/order.json`, never where the checkout is; None (the
    # API): absolute file URIs
    uri_root: Path | None = None
    fetch_remote: bool = (
        False  # retrieve http(s) $refs the registry does not hold (generator/remote.py)
    )
    cache_dir: Path | None = None  # where they are cached; None: remote.default_cache_dir()

    def limit_options(self) -> dict[str, int]:
        return dict(self.limits)

    def compile_options(self) -> dict[str, int | str]:
        """The options of the compile that its module's header records: the limits, and the
        unsafe-pattern policy where one is set."""
        policy: dict[str, str] = (
            {"unsafe_patterns": self.unsafe_patterns} if self.unsafe_patterns else {}
        )
        return {**self.limit_options(), **policy}

    def format_kwargs(self) -> dict[str, Any]:
        """The format options as compile_source takes them (only those given)."""
        kwargs: dict[str, Any] = {}
        if self.format_assertion is not None:
            kwargs["format_assertion"] = self.format_assertion
        if self.formats:
            kwargs["formats"] = dict(self.formats)
        if self.unknown_formats != "ignore":
            kwargs["unknown_formats"] = self.unknown_formats
        if self.content_assertion is not None:
            kwargs["content_assertion"] = self.content_assertion
        return kwargs

    def format_options(self) -> FormatOptions:
        """The checked format options (OptionError for a bad custom format)."""
        return format_options(**self.format_kwargs())


@dataclass(frozen=True)
class Job:
    """One contract to compile: `source` is read (FILE or FILE#/pointer), `shown` names it in
    messages, `target` is the module file written."""

    source: str
    shown: str
    target: Path
    settings: Settings


@dataclass
class Project:
    """A configured project: its jobs, and the package directories that get an __init__.py."""

    config: Path
    root: Path
    out: Path
    jobs: list[Job] = field(default_factory=list)
    packages: list[Path] = field(default_factory=list)


def identifier(name: str) -> str:
    """A directory or module name as a Python identifier (the rule module files are named by)."""
    from .names import module_name_for

    return module_name_for(name)


def find_config(start: Path) -> Path:
    """The nearest pyproject.toml with a [tool.straightline] table, from `start` upwards."""
    here = start.resolve()
    for directory in (here, *here.parents):
        candidate = directory / CONFIG_FILE
        if candidate.is_file() and _straightline_table(_read_toml(candidate)) is not None:
            return candidate
    raise ConfigError(
        f"no {CONFIG_FILE} with a [{TABLE}] table in {here} or any directory above it: "
        "add one (see docs/build-integration.md, 'Project configuration'), or name the contracts: SRC... "
        "(and --out DIR to compile or check)"
    )


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None


def _straightline_table(document: dict[str, Any]) -> Any:
    tool = document.get("tool")
    return tool.get("straightline") if isinstance(tool, dict) else None


def load_project(config: Path) -> Project:
    """The project a pyproject.toml configures; ConfigError naming the key for any mistake."""
    config = config.resolve()
    table = _straightline_table(_read_toml(config))
    if table is None:
        raise ConfigError(f"{config}: has no [{TABLE}] table")
    reader = _Reader(config)
    if not isinstance(table, dict):
        raise reader.error(TABLE, "must be a table")
    reader.keys(TABLE, table, _TOP_KEYS)
    root = config.parent
    if "out" not in table:
        raise reader.error(TABLE, "needs `out`, the directory of the output package")
    written = reader.string(TABLE, "out", table["out"])
    if Path(written).is_absolute() or ".." in Path(written).parts:
        # (as the contracts: a project's build writes inside the project; --out DIR writes anywhere)
        raise reader.error(TABLE, f"out: {written!r} must be a directory inside the project")
    out = root / written
    _stays_inside(reader, TABLE, f"out: {written!r}", out)
    if not out.name.isidentifier() or keyword.iskeyword(out.name):
        raise reader.error(
            TABLE,
            f"out: {out.name!r} is not an importable package name "
            f"(try {identifier(out.name)!r})",
        )
    base = reader.settings(TABLE, table, Settings(uri_root=root))
    project = Project(config=config, root=root, out=out, packages=[out])
    if "contracts" in table:
        project.jobs += reader.jobs(TABLE, table["contracts"], out, base)
    groups = table.get("groups", {})
    if not isinstance(groups, dict):
        raise reader.error(
            TABLE, "groups: must be a table of tables ([tool.straightline.groups.NAME])"
        )
    seen: dict[str, str] = {}
    group_of: dict[Path, str] = {}  # each group's package directory, and its table
    for name, group in groups.items():
        where = f"{TABLE}.groups.{name}"
        if not isinstance(group, dict):
            raise reader.error(where, "must be a table")
        reader.keys(where, group, _GROUP_KEYS)
        package = identifier(name)
        if package in seen:
            raise reader.error(where, f"is written to {package}/, as group {seen[package]!r} is")
        seen[package] = name
        if "contracts" not in group:
            raise reader.error(where, "needs `contracts`, a list of files, globs or FILE#/pointer")
        _stays_inside(
            reader,
            where,
            f"its package {(out / package).relative_to(root).as_posix()!r}",
            out / package,
        )
        project.packages.append(out / package)
        group_of[out / package] = where
        project.jobs += reader.jobs(
            where, group["contracts"], out / package, reader.settings(where, group, base)
        )
    if not project.jobs:
        raise reader.error(
            TABLE, "lists no contracts (give `contracts`, or groups with `contracts`)"
        )
    _no_shared_targets(reader, project.jobs)
    _no_module_shadows_a_package(reader, project.jobs, group_of)
    return project


def _stays_inside(reader: _Reader, where: str, what: str, directory: Path) -> None:
    """Refuse an output directory that a symbolic link (itself, or one on its way) takes out of
    the project: compile writes there and removes the generated modules it finds below it that
    no contract writes, so it would do both wherever the link points."""
    resolved = directory.resolve()
    if not resolved.is_relative_to(reader.root.resolve()):
        raise reader.error(
            where,
            f"{what} leads outside the project, to {resolved}, through a symbolic "
            "link: the output package must be inside it",
        )


def _no_shared_targets(reader: _Reader, jobs: list[Job]) -> None:
    seen: dict[Path, Job] = {}
    for job in jobs:
        if job.target in seen and seen[job.target].source != job.source:
            raise reader.error(
                TABLE,
                f"contracts {seen[job.target].shown} and {job.shown} would both "
                f"be written to {job.target.relative_to(reader.root)}",
            )
        seen[job.target] = job


def _no_module_shadows_a_package(
    reader: _Reader, jobs: list[Job], group_of: dict[Path, str]
) -> None:
    """Refuse a module whose path is a group's package (out/a.py beside out/a/): both would be
    written, and `import out.a` would silently load the package, never the module."""
    for job in jobs:
        where = group_of.get(job.target.with_suffix(""))
        if where is not None:
            package = job.target.with_suffix("").relative_to(reader.root).as_posix()
            raise reader.error(
                where,
                f"its package {package}/ has the name of the module "
                f"{job.target.relative_to(reader.root).as_posix()} of contract "
                f"{job.shown}: `import` would find the package only; rename the "
                "group or the contract",
            )


class _Reader:
    """Reads the values of the table, raising ConfigError naming the file, table and key."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.root = config.parent

    def error(self, where: str, message: str) -> ConfigError:
        return ConfigError(f"{self.config}: [{where}] {message}")

    def keys(self, where: str, table: dict[str, Any], allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key.replace("_", "-"), allowed, n=1, cutoff=0.6)
                hint = (
                    f" (did you mean {close[0]!r}?)"
                    if close
                    else f"; known keys: {', '.join(allowed)}"
                )
                raise self.error(where, f"unknown key {key!r}{hint}")

    def choice(self, where: str, table: dict[str, Any], key: str, choices: Sequence[str]) -> str:
        """table[key], which must be one of `choices`."""
        value = table[key]
        if value not in choices:
            raise self.error(where, f"{key}: must be one of {', '.join(choices)}, not {value!r}")
        return value  # type: ignore[no-any-return]

    def flag(self, where: str, table: dict[str, Any], key: str) -> bool:
        """table[key], which must be true or false."""
        value = table[key]
        if type(value) is not bool:
            raise self.error(where, f"{key}: must be true or false, not {value!r}")
        return value

    def string(self, where: str, key: str, value: Any) -> str:
        if not isinstance(value, str) or not value:
            raise self.error(where, f"{key}: must be a non-empty string, not {value!r}")
        return value

    def settings(self, where: str, table: dict[str, Any], base: Settings) -> Settings:
        settings = base
        if "profile" in table:
            profile = self.string(where, "profile", table["profile"])
            if profile not in PROFILE_NAMES:
                raise self.error(
                    where,
                    f"profile: unknown profile {profile!r}; choose one of: "
                    f"{', '.join(sorted(PROFILE_NAMES))}",
                )
            settings = replace(settings, profile=profile)
        if "registry" in table:
            registry = self.root / self.string(where, "registry", table["registry"])
            if not registry.is_dir():
                raise self.error(where, f"registry: {table['registry']!r} is not a directory")
            settings = replace(settings, registry=registry)
        if "unknown-keywords" in table:
            settings = replace(
                settings,
                unknown_keywords=self.choice(
                    where, table, "unknown-keywords", UNKNOWN_KEYWORD_POLICIES
                ),
            )
        if "native" in table:
            native = table["native"]
            if native in NATIVE_BACKENDS and type(native) is str:
                settings = replace(settings, native=True, native_backend=native)
            elif type(native) is bool:
                settings = replace(settings, native=native)
            else:
                raise self.error(
                    where, f'native: must be true, false, "c" or "mypyc", not {native!r}'
                )
        if "unsafe-patterns" in table:
            settings = replace(
                settings,
                unsafe_patterns=self.choice(
                    where, table, "unsafe-patterns", UNSAFE_PATTERN_POLICIES
                ),
            )
        if "fetch-remote" in table:
            settings = replace(settings, fetch_remote=self.flag(where, table, "fetch-remote"))
        if "cache-dir" in table:
            settings = replace(
                settings, cache_dir=self.root / self.string(where, "cache-dir", table["cache-dir"])
            )
        settings = self.format_settings(where, table, settings)
        limits = dict(settings.limits)
        for key, option in _LIMIT_KEYS.items():
            if key in table:
                value = table[key]
                problem = limit_problem(option, value)
                if problem is not None:
                    raise self.error(where, f"{key}: {problem}")
                limits[option] = value
        return replace(settings, limits=tuple(sorted(limits.items())))

    def format_settings(self, where: str, table: dict[str, Any], settings: Settings) -> Settings:
        """`formats` (true, false, or a table of custom formats), `unknown-formats`, `content`."""
        if "formats" in table:
            value = table["formats"]
            if isinstance(value, bool):
                settings = replace(settings, format_assertion=value)
            elif isinstance(value, dict):
                try:
                    found = custom_formats(value)
                except OptionError as error:
                    raise self.error(where, f"formats: {error.message}") from None
                settings = replace(settings, formats=tuple((c.name, c.spec) for c in found))
            else:
                raise self.error(
                    where,
                    "formats: must be true, false, or a table of custom formats "
                    f'(name = "module:function"), not {value!r}',
                )
        if "unknown-formats" in table:
            settings = replace(
                settings,
                unknown_formats=self.choice(
                    where, table, "unknown-formats", UNKNOWN_FORMAT_POLICIES
                ),
            )
        if "content" in table:
            settings = replace(settings, content_assertion=self.flag(where, table, "content"))
        return settings

    def jobs(self, where: str, entries: Any, out: Path, settings: Settings) -> list[Job]:
        if not isinstance(entries, list) or not entries:
            raise self.error(
                where, "contracts: must be a non-empty list of files, globs or FILE#/pointer"
            )
        jobs: list[Job] = []
        for entry in entries:
            entry = self.string(where, "contracts", entry)
            for path, fragment in self._expand(where, entry):
                source = str(path) + ("#" + fragment if fragment else "")
                shown = path.relative_to(self.root).as_posix() + (
                    "#" + fragment if fragment else ""
                )
                target = module_path(out, source)  # (any file name makes a module name)
                if all(job.source != source for job in jobs):
                    jobs.append(Job(source, shown, target, settings))
        return jobs

    def _expand(self, where: str, entry: str) -> list[tuple[Path, str]]:
        """The files an entry names (a glob in sorted order), each with its fragment."""
        pattern, fragment = entry, ""
        if "#" in entry and not (self.root / entry).exists():
            pattern, _, fragment = entry.partition("#")
            if fragment and not fragment.startswith("/"):
                raise self.error(
                    where,
                    f"contracts: {entry!r}: the part after '#' must be a JSON "
                    "pointer (#/$defs/name)",
                )
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            raise self.error(where, f"contracts: {entry!r} must be a path inside the project")
        if glob.has_magic(pattern):
            found = sorted(glob.glob(pattern, root_dir=self.root, recursive=True))
            files = [self.root / p for p in found if (self.root / p).is_file()]
            if not files:
                raise self.error(where, f"contracts: {entry!r} matches no file")
            return [(p, fragment) for p in files]
        path = self.root / pattern
        if not path.is_file():
            raise self.error(where, f"contracts: {pattern!r} is not a file")
        return [(path, fragment)]
