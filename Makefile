# Cube Theory Lab: `make run` starts the app, `make test` runs every test.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run test lint bench load clean

run:
	scripts/ensure-venv.sh requirements.txt
	$(PY) -m streamlit run app.py --server.address localhost --server.port $(PORT)

test:
	scripts/ensure-venv.sh requirements-dev.txt
	scripts/ensure-chromium.sh
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest

bench:
	scripts/ensure-venv.sh requirements-dev.txt
	$(PY) -m bench

clean:
	rm -rf test-artifacts .pytest_cache .ruff_cache .hypothesis
