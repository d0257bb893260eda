# tablesim: `make demo` sets everything up and runs the demo; `make test` runs the test suite.
# Each step prints one line; pip runs quietly (-qq: errors only).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install -qq
STAMP  := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
TEST_WORKERS ?= 2

.PHONY: demo test lint docs install install-dev bench clean

$(BIN)/python:
	@echo "make: creating $(VENV) with $$($(PYTHON) --version)"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	@echo "make: installing tablesim and its dependencies into $(VENV) (a few minutes the first time)"
	@$(PIP) -e .
	@touch $@

# The dev extras, and Pig (tests/testgame): a game packaged outside tablesim and registered only
# through its entry point, which the tests run through every command.
$(DEVSTAMP): pyproject.toml tests/testgame/pyproject.toml | $(BIN)/python
	@echo "make: installing tablesim with the dev extras and the test game plugin into $(VENV)"
	@$(PIP) -e ".[dev]" -e tests/testgame
	@touch $@ $(STAMP)

install: $(STAMP)
install-dev: $(DEVSTAMP)

## demo: create .venv, install tablesim, run the demo experiments and write their reports
demo: $(STAMP)
	@echo "make: running tablesim demo"
	@$(BIN)/tablesim demo

## test: install the dev extras and run the whole test suite (both cores; the slowest tests listed).
## The games' numba kernels are compiled once first (tests/warmup.py), so that the workers load
## numba's cache instead of each compiling every game (a clean clone: ~50 s instead of ~100 s).
test: $(DEVSTAMP)
	@$(BIN)/python -m tests.warmup --jobs $(TEST_WORKERS)
	@echo "make: running the test suite on $(TEST_WORKERS) workers"
	@$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --durations=25

## lint: ruff over the whole repository, its rules and its formatter (pyproject.toml's [tool.ruff])
lint: $(DEVSTAMP)
	@$(BIN)/ruff check --quiet .
	@$(BIN)/ruff format --check --quiet .

## docs: build the documentation site into site/ (warnings are errors; open site/index.html)
docs: $(DEVSTAMP)
	@NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	@echo "make: documentation built in site/ (open site/index.html)"

## bench: print the performance figures of benchmarks/
bench: $(DEVSTAMP)
	$(BIN)/tablesim bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis site
