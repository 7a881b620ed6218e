# The two commands of the README: `make generate`, then `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
.PHONY: generate builtin test coverage check bench docs mutate clean

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

# The whole test suite (HYPOTHESIS_PROFILE=ci bounds the property tests; CI sets CI=true), with
# the branch coverage of generator/ ([tool.coverage] in pyproject.toml).
test: $(STAMP)
	$(BIN)/python -m pytest --cov --cov-report=term:skip-covered

# The suite again, measuring also the Python subprocesses the tests start (the CLI's commands,
# servers, workers): on demand, as it makes those tests about twice as slow.
coverage: $(STAMP)
	$(BIN)/python -m pytest --cov --cov-config=tests/coverage-subprocesses.toml \
		--cov-report=term:skip-covered

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

# Mutation testing (mutmut) of the modules that decide answers, each against its own tests, at
# low priority; on demand, never part of `make test`. MODULES="simplify fuse" runs some of them;
# tests/mutation/modules.toml lists them, docs/testing.md says how to read the report.
MODULES ?=
mutate: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,mutate]"
	nice -n 10 $(BIN)/python -m tests.mutation.run $(MODULES)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mutate .coverage site
