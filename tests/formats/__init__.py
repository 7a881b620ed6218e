"""Tests of generator/formats: the format and content checkers and their registry."""
