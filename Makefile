# Cube Theory Lab: `make run` starts the app, `make test` runs every test.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run test bench load soak scale classroom clean

run:
	scripts/ensure-venv.sh requirements.txt
	$(PY) -m streamlit run app.py --server.address localhost --server.port $(PORT)

test:
	scripts/ensure-venv.sh requirements-dev.txt
	scripts/ensure-chromium.sh
	scripts/ensure-postgresql.sh
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest

bench:
	scripts/ensure-venv.sh requirements-dev.txt
	$(PY) -m bench

load:
	scripts/ensure-venv.sh requirements-dev.txt
	$(PY) -m bench load --sessions 30 --seconds 60

soak:
	scripts/ensure-venv.sh requirements-dev.txt
	$(PY) -m bench soak --sessions 30 --seconds 300

scale:
	scripts/ensure-venv.sh requirements-dev.txt
	$(PY) -m bench scale --sessions 10 20 30 --seconds 30 --think 1

classroom:
	scripts/ensure-venv.sh requirements-dev.txt
	scripts/ensure-postgresql.sh
	$(PY) -m bench classroom --students 40 --questions 10 --processes 2
	$(PY) -m bench classroom --students 40 --questions 10 --processes 2 --restart

clean:
	rm -rf test-artifacts .pytest_cache .ruff_cache .hypothesis
