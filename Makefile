# Parlor's quick start: `make run` starts the bot, `make test` runs the checks.
# Each target creates the virtual environment it needs in .venv on first use.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# The least line coverage of bot/ and cogs/ that `make test` accepts (91 % was measured when it was set).
COVERAGE_FLOOR ?= 85
# Worker processes of the test run (pytest-xdist); TEST_WORKERS=0 runs the suite in this process.
TEST_WORKERS ?= 4

.PHONY: run test lint sync migrate gallery clean

$(BIN)/parlor: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -qq --upgrade pip
	$(BIN)/python -m pip install -qq -e '.[test]'  # -qq: errors only, no setuptools notices
	@touch $(BIN)/parlor

run: $(BIN)/parlor  ## Start the bot (needs DISCORD_TOKEN or a config file with the token).
	$(BIN)/parlor run

test: $(BIN)/parlor  ## Lint, type-check, then run the whole test suite with a coverage report.
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --cov=bot --cov=cogs --cov-report=term:skip-covered --cov-fail-under=$(COVERAGE_FLOOR)

lint: $(BIN)/parlor  ## Lint and type-check only.
	$(BIN)/ruff check .
	$(BIN)/mypy

sync: $(BIN)/parlor  ## Register slash commands with Discord (GUILD=<id> for one guild).
	$(BIN)/parlor sync $(if $(GUILD),--guild $(GUILD),)

migrate: $(BIN)/parlor
	$(BIN)/parlor migrate

gallery: $(BIN)/parlor  ## Draw the cards, each game's pictures and a screenshot of each game in the web sandbox into docs/gallery/ (commit the PNGs).
	$(BIN)/python -m bot.art.gallery docs/gallery
	$(BIN)/python -m bot.moments docs/gallery
	PARLOR_GALLERY=docs/gallery $(BIN)/python -m pytest -q -p no:cacheprovider tests/e2e/test_web_page.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
