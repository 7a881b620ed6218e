"""The reference interpreter for a named profile: the schema is preflighted against the profile,
then walked by the same walk as the drafts (drafts.py), with the profile's keywords."""

from __future__ import annotations

from typing import Any

from ..format_options import DEFAULT as DEFAULT_FORMATS
from ..format_options import FormatOptions
from ..preflight import preflight
from ..profiles import Profile, get_profile, with_formats, with_options
from .drafts import DraftReference
from .results import Error

__all__ = ["Error", "Reference"]


class Reference:
    """A validator that interprets `schema` under `profile` (checked by preflight first), with
    `format_options` as the compiler takes them."""

    def __init__(
        self,
        schema: Any,
        profile: str | Profile,
        *,
        format_options: FormatOptions = DEFAULT_FORMATS,
        **options: Any,
    ) -> None:
        chosen = get_profile(profile) if isinstance(profile, str) else profile
        self.profile = with_formats(with_options(chosen, options), format_options)
        preflight(schema, self.profile)
        self.schema = schema
        if self.profile.draft is not None:
            self._walk = DraftReference(schema, self.profile.draft, format_options=format_options)
        else:  # a seed profile: no references, its keywords read as 2020-12's
            self._walk = DraftReference(schema, "draft2020-12", profile=self.profile)

    def errors(self, instance: Any) -> list[Error]:
        return self._walk.errors(instance)

    def is_valid(self, instance: Any) -> bool:
        return self._walk.is_valid(instance)
