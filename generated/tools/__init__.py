"""Contract validators compiled by straightline (see [tool.straightline] in pyproject.toml)."""
