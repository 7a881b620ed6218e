# The two commands of the README: `make generate`, then `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
.PHONY: generate builtin test check bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# Compile every contract into generated/ as [tool.straightline] in pyproject.toml lists them
# (atomic writes; a failing contract fails the target).
generate: $(STAMP)
	$(BIN)/straightline compile

# Compile the built-in schemas (generator/builtin/vendor/) into generator/builtin/modules/.
builtin: $(STAMP)
	$(BIN)/python -m generator.builtin.build

# The whole test suite (HYPOTHESIS_PROFILE=ci bounds the property tests; CI sets CI=true).
test: $(STAMP)
	$(BIN)/python -m pytest

# Exit non-zero if generated/ is missing a module or holds a stale one (naming the reason).
check: $(STAMP)
	$(BIN)/straightline check

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
