"""Built-in schemas: the configuration files teams check most (GitHub workflows and actions,
Dependabot, GitLab CI, pyproject.toml, ...), vendored with their licence and origin
(vendor/ORIGIN.md) and precompiled into modules/ (generator/builtin/build.py writes them), so
`straightline validate --builtin-schema vendor.NAME` never compiles, and never imports the
compiler.

The names are check-jsonschema's (`--builtin-schema vendor.github-workflows`, and its own
`custom.github-workflows-require-timeout`), so a pre-commit configuration or a CI line written for
it translates word for word; `vendor.pyproject` is ours (check-jsonschema has none). Each entry also holds its hook's file pattern, the one
check-jsonschema's hook uses (a regular expression over the path from the repository's root).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from ..errors import OptionError

PREFIX = "vendor."
PREFIXES = (PREFIX, "custom.")
HERE = Path(__file__).parent
VENDOR = HERE / "vendor"
MODULES = HERE / "modules"


@dataclass(frozen=True)
class Builtin:
    """One built-in schema: its name (less `vendor.`), the vendored file it is compiled from
    (relative to vendor/), what it checks, where it came from, its licence file (relative to
    vendor/), the profile it is compiled with where its $schema does not name one we know, the
    files its pre-commit hook checks, and the prefix of its full name."""

    name: str
    source: str
    title: str
    origin: str
    licence: str
    files: str
    profile: str | None = None
    prefix: str = PREFIX

    @property
    def module(self) -> str:
        """The module's name in modules/ (github-workflows: github_workflows)."""
        return self.name.replace("-", "_")

    @property
    def module_path(self) -> Path:
        return MODULES / f"{self.module}.py"

    @property
    def full_name(self) -> str:
        return self.prefix + self.name


_SCHEMASTORE = "https://json.schemastore.org/"
_SS_LICENCE = "schemastore/LICENSE"
_CJ = "check-jsonschema/"

BUILTINS: tuple[Builtin, ...] = (
    Builtin(
        "bamboo-spec",
        "schemastore/bamboo-spec.json",
        "Bamboo Specs",
        _SCHEMASTORE + "bamboo-spec.json",
        _SS_LICENCE,
        r"^bamboo-specs/.*\.(yml|yaml)$",
    ),
    Builtin(
        "bitbucket-pipelines",
        _CJ + "bitbucket-pipelines.json",
        "Bitbucket Pipelines",
        "https://api.bitbucket.org/schemas/pipelines-configuration",
        _CJ + "licenses/LICENSE.bitbucket-pipelines",
        r"bitbucket-pipelines\.(yml|yaml)$",
    ),
    Builtin(
        "buildkite",
        _CJ + "buildkite.json",
        "Buildkite Pipelines",
        "https://raw.githubusercontent.com/buildkite/pipeline-schema/main/schema.json",
        _CJ + "licenses/LICENSE.buildkite",
        r"(buildkite\.(yml|yaml|json)|buildkite\.(.+)\.(yml|yaml|json)"
        r"|(.*/)?\.buildkite/pipeline\.(yml|yaml|json)|(.*/)?\.buildkite/pipeline\.(.+)\.(yml|yaml|json))$",
    ),
    Builtin(
        "changie",
        _CJ + "changie.json",
        "Changie configuration",
        "https://changie.dev/schema.json",
        _CJ + "licenses/LICENSE.changie",
        r"^\.changie\.(yml|yaml)$",
    ),
    Builtin(
        "citation-file-format",
        _CJ + "citation-file-format.json",
        "Citation File Format",
        "https://raw.githubusercontent.com/citation-file-format/citation-file-format/main/schema.json",
        _CJ + "licenses/LICENSE.citation-file-format",
        r"^CITATION\.cff$",
    ),
    Builtin(
        "cloudbuild",
        "schemastore/cloudbuild.json",
        "Google Cloud Build configuration",
        _SCHEMASTORE + "cloudbuild.json",
        _SS_LICENCE,
        r"^cloudbuild\.(yml|yaml|json)$",
    ),
    Builtin(
        "codecov",
        "schemastore/codecov.json",
        "Codecov configuration",
        _SCHEMASTORE + "codecov.json",
        _SS_LICENCE,
        r"^((\.github|dev)/)?\.?codecov\.ya?ml$",
    ),
    Builtin(
        "compose-spec",
        _CJ + "compose-spec.json",
        "Docker Compose files",
        "https://raw.githubusercontent.com/compose-spec/compose-spec/master/schema/compose-spec.json",
        _CJ + "licenses/LICENSE.compose-spec",
        r"(([^/]*/)*docker-compose(\.[\.a-zA-Z0-9_-]*)*\.(yml|yaml)|([^/]*/)*compose(\.[\.a-zA-Z0-9_-]*)*\.(yml|yaml))$",
        profile="draft7",
    ),  # its $schema, https://json-schema.org/draft-07/schema, is draft 7's
    Builtin(
        "dependabot",
        "schemastore/dependabot-2.0.json",
        "Dependabot configuration (v2)",
        _SCHEMASTORE + "dependabot-2.0.json",
        _SS_LICENCE,
        r"^\.github/dependabot\.(yml|yaml)$",
    ),
    Builtin(
        "drone-ci",
        "schemastore/drone.json",
        "Drone CI configuration",
        _SCHEMASTORE + "drone.json",
        _SS_LICENCE,
        r"^\.drone\.yml$",
    ),
    Builtin(
        "github-actions",
        "schemastore/github-action.json",
        "GitHub Actions (action.yml)",
        _SCHEMASTORE + "github-action.json",
        _SS_LICENCE,
        r"(action\.(yml|yaml)|\.github/actions/(.+/)?action\.(yml|yaml))$",
    ),
    Builtin(
        "github-discussion",
        "schemastore/github-discussion.json",
        "GitHub discussion templates",
        _SCHEMASTORE + "github-discussion.json",
        _SS_LICENCE,
        r"^\.github/DISCUSSION_TEMPLATE/.+\.ya?ml$",
    ),
    Builtin(
        "github-issue-config",
        "schemastore/github-issue-config.json",
        "GitHub issue template configuration",
        _SCHEMASTORE + "github-issue-config.json",
        _SS_LICENCE,
        r"^\.github/ISSUE_TEMPLATE/config\.yml$",
    ),
    Builtin(
        "github-issue-forms",
        "schemastore/github-issue-forms.json",
        "GitHub issue forms",
        _SCHEMASTORE + "github-issue-forms.json",
        _SS_LICENCE,
        r"^\.github/ISSUE_TEMPLATE/(?!config\.ya?ml$).+$",
    ),
    Builtin(
        "github-workflows",
        "schemastore/github-workflow.json",
        "GitHub workflows",
        _SCHEMASTORE + "github-workflow.json",
        _SS_LICENCE,
        r"^\.github/workflows/[^/]+$",
    ),
    Builtin(
        "github-workflows-require-timeout",
        _CJ + "custom/github-workflows-require-timeout.json",
        "GitHub workflow jobs set timeout-minutes",
        "https://github.com/python-jsonschema/check-jsonschema (src/check_jsonschema/builtin_schemas/custom/"
        "github-workflows-require-timeout.json)",
        _CJ + "LICENSE",
        r"^\.github/workflows/[^/]+$",
        prefix="custom.",
    ),
    Builtin(
        "gitlab-ci",
        _CJ + "gitlab-ci.json",
        "GitLab CI configuration",
        "https://gitlab.com/gitlab-org/gitlab/-/raw/master/app/assets/javascripts/editor/schema/ci.json",
        _CJ + "licenses/LICENSE.gitlab",
        r"^.*\.gitlab-ci\.(yml|yaml)$",
    ),
    Builtin(
        "meltano",
        _CJ + "meltano.json",
        "Meltano configuration",
        "https://raw.githubusercontent.com/meltano/meltano/main/src/meltano/schemas/meltano.schema.json",
        _CJ + "licenses/LICENSE.meltano",
        r"(.*meltano\.yml|meltano-manifest\.json|meltano-manifest\..+\.json)$",
    ),
    Builtin(
        "pyproject",
        "schemastore/pyproject.json",
        "pyproject.toml (PEP 517, 518, 621 and tools' tables)",
        _SCHEMASTORE + "pyproject.json",
        _SS_LICENCE,
        r"(^|/)pyproject\.toml$",
    ),
    Builtin(
        "readthedocs",
        _CJ + "readthedocs.json",
        "Read the Docs configuration",
        "https://raw.githubusercontent.com/readthedocs/readthedocs.org/main/readthedocs/rtd_tests/fixtures/spec/"
        "v2/schema.json",
        _CJ + "licenses/LICENSE.readthedocs",
        r"^\.readthedocs\.(yml|yaml)$",
    ),
    Builtin(
        "renovate",
        _CJ + "renovate.json",
        "Renovate configuration (AGPL-3.0 schema)",
        "https://docs.renovatebot.com/renovate-schema.json",
        _CJ + "licenses/LICENSE.renovate",
        r"(renovate\.(json|json5)|\.(github|gitlab)/renovate\.(json|json5)|\.renovaterc|\.renovaterc\.(json|json5))$",
    ),
    Builtin(
        "taskfile",
        _CJ + "taskfile.json",
        "Taskfile configuration",
        "https://taskfile.dev/schema.json",
        _CJ + "licenses/LICENSE.task",
        r"([Tt]askfile\.(yml|yaml)|[Tt]askfile\.dist\.(yml|yaml))$",
    ),
    Builtin(
        "travis",
        "schemastore/travis.json",
        "Travis CI configuration",
        _SCHEMASTORE + "travis.json",
        _SS_LICENCE,
        r"^\.travis\.(yml|yaml)$",
    ),
)

_BY_NAME = {builtin.full_name: builtin for builtin in BUILTINS}


def find(name: str) -> Builtin:
    """The built-in schema `name` (`vendor.dependabot`; `dependabot` alone is taken too), else an
    OptionError naming the close ones and `--list-builtin`."""
    for candidate in (name, *(prefix + name for prefix in PREFIXES)):
        if candidate in _BY_NAME:
            return _BY_NAME[candidate]
    close = difflib.get_close_matches(
        name if name.startswith(PREFIXES) else PREFIX + name, list(_BY_NAME), n=3
    )
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise OptionError(
        f"--builtin-schema {name}: no such built-in schema{hint} "
        "(straightline validate --list-builtin lists them)"
    )


def listing() -> str:
    """`--list-builtin`: each name and what it checks, one a line."""
    width = max(len(builtin.full_name) for builtin in BUILTINS)
    return "".join(f"{builtin.full_name:<{width}}  {builtin.title}\n" for builtin in BUILTINS)


__all__ = ["BUILTINS", "Builtin", "find", "listing"]
