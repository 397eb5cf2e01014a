# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3
PORT ?= 8501
REPLICAS ?= 2
SERVE_PORT ?= 8080

.PHONY: run serve test lint audit bench data install install-dev tools clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# --no-compile: pip byte-compiles every file it installs (plotly alone has thousands); Python compiles
# what is imported, when it is first imported. Measured on 2 cores: the dev install 38-47 s -> 18-22 s.
# subtle: that relies on Python keeping what it compiled. With PYTHONDONTWRITEBYTECODE set (some
# containers and CI images set it) nothing is kept, and every process (each test worker, each
# Streamlit server, each CLI run) compiled streamlit, plotly, pandas and our tests from source again:
# about 1.8 s of CPU per process for the libraries alone. So recipes run without it.
unexport PYTHONDONTWRITEBYTECODE
$(VENV)/.run-installed: requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install -q --no-compile -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(PY) -m pip install -q --no-compile -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

# Locust (bench/load_protocol.py) and pip-audit: not in `make test`'s install (about 35 packages fewer).
$(VENV)/.tools-installed: requirements.txt requirements-dev.txt requirements-tools.txt | $(VENV)/bin/python
	$(PY) -m pip install -q --no-compile -r requirements-tools.txt
	touch $@ $(VENV)/.dev-installed $(VENV)/.run-installed

install: $(VENV)/.run-installed
install-dev: $(VENV)/.dev-installed
tools: $(VENV)/.tools-installed

run: install
	$(PY) -m streamlit run app.py --server.port $(PORT)

# For a room: REPLICAS streamlit processes on SERVE_PORT+1 … behind HAProxy on SERVE_PORT (README, "Serving a room").
serve: install
	$(PY) -m deploy.room --replicas $(REPLICAS) --port $(SERVE_PORT)

# Three pytest-xdist workers on this 2-core machine (a worker often waits on its server or its browser:
# measured, two workers left the cores idle a fifth of the time, and the suite took 598 s against 554 s
# with three), file by file, the longest files first (tests/file_seconds.json; a run with
# PLAYGROUND_WRITE_FILE_SECONDS=1 measures them anew); a test that asserts a wall-clock bound runs while
# the other workers wait (tests/conftest.py). `make test TEST_WORKERS=0`: one process.
TEST_WORKERS ?= 3
test: install-dev
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# Before a talk: fetch every tokenizer and corpus into the cache (sha256-checked) and list what is ready.
data: install
	$(PY) -m playground data

lint: install-dev
	$(PY) -m ruff check .

# Known advisories of every installed package (PyPI's advisory data: needs the network, so not in test).
# --strict: a package that could not be checked fails the audit instead of passing unseen.
audit: tools
	$(PY) -m pip_audit --strict --progress-spinner off

bench: install-dev
	$(PY) bench/playground.py
	$(PY) bench/bpe_train.py
	$(PY) bench/language_tax.py
	$(PY) bench/compression_sweep.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
