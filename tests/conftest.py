"""Shared test set-up: Hypothesis profiles and paths."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

# `ci` keeps `make test` within a few minutes on 2 cores; `dev` digs deeper when asked for:
# HYPOTHESIS_PROFILE=dev make test
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # the same examples on every run: a property test that catches a mutant once catches it
    # every time (the JSON-equality property in test_differential among them)
    derandomize=True,
    print_blob=True,
)
settings.register_profile(
    "dev",
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
