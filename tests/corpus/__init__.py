"""Corpus runs: real public schemas compiled and held to their own test instances, on demand."""
