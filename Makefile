# The two commands of the README: `make generate`, then `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PROFILES := octoscript strict lenient draft2020-12
# Subschemas compiled on their own (FILE#/pointer).
FRAGMENTS := 'contracts/draft2020-12/tool-package.schema.json\#/$$defs/invocation'

.PHONY: generate test check bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# Compile every contract into generated/ (atomic writes; a failing contract fails the target).
# contracts/<profile>/*.json are compiled with that profile into generated/<profile>/.
generate: $(STAMP)
	@set -e; for p in $(PROFILES); do \
	  $(BIN)/straightline compile contracts/$$p/*.json --profile $$p --out generated/$$p; \
	done
	$(BIN)/straightline compile $(FRAGMENTS) --out generated/draft2020-12
	$(BIN)/straightline compile contracts/tools/*.json --out generated/tools

# The whole test suite (HYPOTHESIS_PROFILE=ci bounds the property tests; CI sets CI=true).
test: $(STAMP)
	$(BIN)/python -m pytest

# Exit non-zero if generated/ is missing a module or holds a stale one.
check: $(STAMP)
	@set -e; for p in $(PROFILES); do \
	  $(BIN)/straightline check contracts/$$p/*.json --profile $$p --out generated/$$p; \
	done
	$(BIN)/straightline check $(FRAGMENTS) --out generated/draft2020-12
	$(BIN)/straightline check contracts/tools/*.json --out generated/tools

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
