VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PLAYGROUND := $(VENV)/.playground

.PHONY: test lint typecheck run bench clean catalogs messages

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,playground]'
	touch $(STAMP)

# The playground extra (SimCord's preview page): `make run` without a token needs it.
$(PLAYGROUND): $(STAMP)
	$(PY) -m pip install --quiet -e '.[playground]'
	touch $(PLAYGROUND)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# Compile the translations (bot/locales/*/LC_MESSAGES/dominobot.po -> .mo; the .mo
# files are not committed).
catalogs: $(STAMP)
	$(VENV)/bin/pybabel compile -d bot/locales -D dominobot --statistics

# After changing user-facing text: extract the template from the code (babel.cfg)
# and merge it into every catalog; then translate what is new or fuzzy.
messages: $(STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -o bot/locales/dominobot.pot \
		--project=dominobot --version=0.1.0 --copyright-holder="the Dominobot authors" \
		--add-comments=TRANSLATORS: --add-location=file \
		--sort-by-file .
	$(VENV)/bin/pybabel update -i bot/locales/dominobot.pot -d bot/locales -D dominobot \
		--no-fuzzy-matching --ignore-obsolete

# Everything, the browser test of the playground included (tests/playground, marker
# `browser`: it needs Chromium at /usr/bin/chromium; `pytest -m "not browser"` skips it).
test: lint typecheck catalogs
	$(PY) -m pytest

# With DISCORD_TOKEN (environment or .env): the real bot. Without: the offline playground.
run: catalogs $(PLAYGROUND)
	$(PY) -m bot

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/engine_bench.py

clean:
	rm -rf $(VENV)
