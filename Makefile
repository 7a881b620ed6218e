# The two commands of the README: `make generate`, then `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
.PHONY: generate test check bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# Compile every contract into generated/ as [tool.straightline] in pyproject.toml lists them
# (atomic writes; a failing contract fails the target).
generate: $(STAMP)
	$(BIN)/straightline compile

# The whole test suite (HYPOTHESIS_PROFILE=ci bounds the property tests; CI sets CI=true).
test: $(STAMP)
	$(BIN)/python -m pytest

# Exit non-zero if generated/ is missing a module or holds a stale one (naming the reason).
check: $(STAMP)
	$(BIN)/straightline check

# The benchmark (bench/README.md), then its chart (docs/images/bench.svg, which the README shows).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python -m bench
	$(BIN)/python -m bench.chart

# The documentation site (mkdocs.yml, docs/) into site/, strictly: a broken link fails it.
docs: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,docs]"
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis site
