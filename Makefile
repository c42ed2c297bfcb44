# Cube Theory Lab: `make run` starts the app, `make test` runs every check (what CI runs),
# `make check` every check that needs no browser (the edit-test loop, <= 5 minutes).
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8501
export VENV
# Compiled bytecode in one cache beside the venv, outside the tree: a run starts many
# Python processes (pytest's workers, the servers and subprocesses the tests start, the
# benches), and without a cache each compiles numpy, pandas, scipy, plotly and streamlit
# from source again (uv installs no .pyc; a shell may set PYTHONDONTWRITEBYTECODE to keep
# __pycache__ out of the tree). Importing the app's stack took 4.5-5.1 s of CPU without
# it and 1.6 s with it (2026-11-24, 2 cores AMD EPYC).
export PYTHONPYCACHEPREFIX := $(abspath $(VENV))/pycache
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check typecheck lock lowest bench load soak abuse scale coldstart fragments stress suitefloor classroom screenshots clean

run:
	scripts/ensure-venv.sh requirements.lock
	$(PY) -m ui.serve --server.address localhost --server.port $(PORT)

# Lint, types and every test; prints its wall time at the end. PYTEST_ARGS go to pytest.
test:
	scripts/test.sh $(PYTEST_ARGS)

# The same without the browser tests (pytest -m "not browser"); prints its wall time too.
check:
	scripts/test.sh --check $(PYTEST_ARGS)

typecheck:
	scripts/ensure-venv.sh requirements-dev.lock
	$(PY) -m mypy

# Regenerate requirements.lock and requirements-dev.lock from requirements*.txt (uv, PyPI).
# UPGRADE=1 takes the newest allowed versions; otherwise locked versions are kept.
lock:
	scripts/ensure-venv.sh requirements-dev.lock
	scripts/lock.sh

# Prove that the lowest version of every declared range installs together and passes the
# compute tests (a throw-away venv; needs PyPI). Not part of `make test`.
lowest:
	scripts/ensure-venv.sh requirements-dev.lock
	scripts/check-lowest.sh

bench:
	scripts/ensure-venv.sh requirements-dev.lock
	$(PY) -m bench

load:
	scripts/ensure-venv.sh requirements-dev.lock
	$(PY) -m bench load --sessions 30 --seconds 60

soak:
	scripts/ensure-venv.sh requirements-dev.lock
	$(PY) -m bench soak --sessions 30 --seconds 300

# 30 normal sessions without and with 3 hostile clients, 60 s each (issue #18).
abuse:
	scripts/ensure-venv.sh requirements-dev.lock
	$(PY) -m bench abuse --sessions 30 --seconds 60

# 30 sessions opening pages of a fresh server at once, launcher vs streamlit run (issue #17).
coldstart:
	scripts/ensure-venv.sh requirements-dev.lock
	$(PY) -m bench coldstart --sessions 30 --rounds 3

# Each section's own slider (a fragment rerun) beside the baseline page's slider (issue #17).
fragments:
	scripts/ensure-venv.sh requirements-dev.lock
	$(PY) -m bench fragments --moves 15

# The browser tests 5 times in a row beside two busy processes (issue #17: no flakes).
stress:
	scripts/ensure-venv.sh requirements-dev.lock
	scripts/ensure-system.sh chromium
	$(PY) -m bench stress --runs 5 --hogs 2

# Every page at 1280x800 light, 1280x720 presenter, dark and a 390x844 phone, as PNGs in
# test-artifacts/screenshots/ with an index.html of them all (issue #37; about 2 minutes).
screenshots:
	scripts/ensure-venv.sh requirements-dev.lock
	scripts/ensure-system.sh chromium
	$(PY) -m bench.screenshots $(SCREENSHOT_ARGS)

# The least CPU make test needs for the browser checks it must make, beside its other
# tests as they are (issue #17; about 12 minutes).
suitefloor:
	scripts/ensure-venv.sh requirements-dev.lock
	scripts/ensure-system.sh chromium
	$(PY) -m bench suitefloor --loads 3 --others

scale:
	scripts/ensure-venv.sh requirements-dev.lock
	scripts/ensure-system.sh nginx
	$(PY) -m bench scale --sessions 10 20 30 --seconds 30 --think 1

classroom:
	scripts/ensure-venv.sh requirements-dev.lock
	scripts/ensure-system.sh postgresql nginx
	$(PY) -m bench classroom --students 40 --questions 10 --processes 2
	$(PY) -m bench classroom --students 40 --questions 10 --processes 2 --restart

clean:
	rm -rf test-artifacts .pytest_cache .ruff_cache .mypy_cache .hypothesis
