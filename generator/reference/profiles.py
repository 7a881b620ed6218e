"""The reference interpreter for a named profile: the schema is preflighted against the profile,
then walked by the same walk as the drafts (validator.py), with the profile's table (drafts.py).

Which schemas a profile accepts (its limits, unknown keywords, unsafe patterns) is preflight's
definition, shared with the compiler; only the verdicts are the reference's own. So preflight, and
the keyword tables the pipeline hands it, are imported when a Reference is made, never by
importing this package."""

from __future__ import annotations

from typing import Any

from ..format_options import DEFAULT as DEFAULT_FORMATS
from ..format_options import FormatOptions
from .drafts import DRAFTS
from .results import Error
from .validator import DraftReference

__all__ = ["Error", "Reference"]


class Reference:
    """A validator that interprets `schema` under `profile` (a profile's name; checked by
    preflight first), with `format_options` and the limits in `options` as the compiler takes
    them."""

    def __init__(
        self,
        schema: Any,
        profile: str,
        *,
        format_options: FormatOptions = DEFAULT_FORMATS,
        **options: Any,
    ) -> None:
        from ..pipeline import TABLES, get_profile
        from ..preflight import preflight
        from ..profiles import with_formats, with_options

        chosen = with_formats(with_options(get_profile(profile), options), format_options, TABLES)
        preflight(schema, chosen, tables=TABLES)
        self.schema = schema
        if profile in DRAFTS:
            self._walk = DraftReference(schema, profile, format_options=format_options)
        else:  # a seed profile: no references, its keywords read as 2020-12's
            self._walk = DraftReference(
                schema, "draft2020-12", profile=profile, format_options=format_options
            )

    def errors(self, instance: Any) -> list[Error]:
        return self._walk.errors(instance)

    def is_valid(self, instance: Any) -> bool:
        return self._walk.is_valid(instance)
