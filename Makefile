# Both `make run` and `make test` build .venv themselves: a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean postgres tools

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Without DISCORD_TOKEN: the console, with the tournament pages on 127.0.0.1:8080 (WEB_HOST, WEB_PORT).
run: $(STAMP)
	$(BIN)/croupier start

test: $(STAMP) lint typecheck postgres tools pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# Start the local PostgreSQL when it is installed but down, and make sure the test database exists.
postgres:
	@bash scripts/ensure-postgres.sh

# Tools beyond Python packages the suite needs: docker-compose (validates the compose file), and Debian's
# chromium for the browser tests of the web pages. Waits for another apt; under CI, an install that fails
# stops here.
tools:
	@bash scripts/ensure-tools.sh

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
