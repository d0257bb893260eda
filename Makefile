# tablesim: `make demo` sets everything up and runs the demo; `make test` runs the test suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: demo test install install-dev bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(STAMP)

install: $(STAMP)
install-dev: $(DEVSTAMP)

## demo: create .venv, install tablesim, run the demo experiments and write their reports
demo: $(STAMP)
	$(BIN)/tablesim demo

## test: install the dev extras and run the whole test suite
test: $(DEVSTAMP)
	$(BIN)/python -m pytest -q

## bench: print the performance figures of benchmarks/
bench: $(DEVSTAMP)
	$(BIN)/tablesim bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
