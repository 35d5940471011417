VENV ?= .venv
PY := $(VENV)/bin/python
# Two installs, from nothing either way: running (`make run`: the package, the
# playground extra and pybabel for the catalogs) and, on top of it, developing
# (`make test`: the test, lint and type-check tools).
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# Options for `python -m bot`: make run ARGS="--port 9000"
ARGS ?=

.PHONY: test quick lint typecheck run bench clean catalogs messages

$(RUN_STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[playground,catalogs]'
	touch $@

$(DEV_STAMP): $(RUN_STAMP) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev,playground]'
	touch $@

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(DEV_STAMP)
	$(VENV)/bin/mypy

# Compile the translations (bot/locales/*/LC_MESSAGES/dominobot.po -> .mo; the .mo
# files are not committed).
catalogs: $(RUN_STAMP)
	$(VENV)/bin/pybabel compile -d bot/locales -D dominobot --statistics

# After changing user-facing text: extract the template from the code (babel.cfg)
# and merge it into every catalog; then translate what is new or fuzzy.
messages: $(RUN_STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -o bot/locales/dominobot.pot \
		--project=dominobot --version=0.1.0 --copyright-holder="the Dominobot authors" \
		--add-comments=TRANSLATORS: --add-location=file \
		--sort-by-file .
	$(VENV)/bin/pybabel update -i bot/locales/dominobot.pot -d bot/locales -D dominobot \
		--no-fuzzy-matching --ignore-obsolete

# Everything, the browser test of the playground included (tests/playground, marker
# `browser`: it needs Chromium at /usr/bin/chromium; `pytest -m "not browser"` skips it).
test: $(DEV_STAMP) lint typecheck catalogs
	$(PY) -m pytest

# The quick part while working (under a minute): no SimCord bots, no PostgreSQL, no
# subprocesses or browser (the marker `slow`, tests/conftest.py). `make test` runs all.
quick: $(DEV_STAMP) catalogs
	$(PY) -m pytest -m "not slow"

# With DISCORD_TOKEN (environment or .env): the real bot. Without: the offline playground
# (which takes its options here: make run ARGS="--port 9000"). `python -m bot --help`.
run: $(RUN_STAMP) catalogs
	$(PY) -m bot $(ARGS)

bench: $(RUN_STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/engine_bench.py

clean:
	rm -rf $(VENV)
