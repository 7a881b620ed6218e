"""Tests of straightline as a user's build meets it: the stale check, file modes, the project
configuration, schema hygiene, YAML sources, the build hooks, pre-commit and packaging."""
