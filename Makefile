# Two commands for a fresh machine: `make demo` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: demo test quick lint lab clean bench docs

# One venv; each target installs the extras it needs (pip skips what is there).
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# The extras the test venv holds; scripts/quick_on_pythons.sh's venvs take what `make quick` needs.
EXTRAS ?= test,demo,df,e2e,docs
# The C parts (jq's main.c loop, libjq 1.8.2 with -O2 from vendor/jq-1.8.2) are compiled
# by the install (setup.py): a changed source installs again.
C_PARTS := setup.py $(wildcard jqmagic/core/query/*.c jqmagic/core/query/*.h) vendor/README.md
$(VENV)/.test: $(VENV)/bin/python pyproject.toml $(C_PARTS)
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	touch $@

# The jq 1.8.2 command line, built from vendor/jq-1.8.2 (the sources of the package's own
# libjq): the oracle the drop-in tests compare `jqmagic query` with
# (tests/cli/test_gojq_cli.py), cached in ~/.cache/jqmagic: see scripts/build_jq_oracle.sh.
$(VENV)/bin/jq-1.8.2: $(VENV)/.test scripts/build_jq_oracle.sh vendor/README.md
	scripts/build_jq_oracle.sh $@

# The suite on two pytest-xdist workers, a test file to a worker at a time, the notebook,
# browser and Binder tests together on one (tests/conftest.py makes the groups); the package
# byte-compiled once first (under PYTHONDONTWRITEBYTECODE every jqmagic process the suite
# starts, worker or command line, compiled it again: 0.45 s a command line, not 0.28 s).
XDIST := -n 2 --dist loadgroup --no-loadscope-reorder
test: $(VENV)/.test $(VENV)/bin/jq-1.8.2
	$(PY) -m compileall -q jqmagic
	$(PY) -m pytest -q $(XDIST)

# The quick loop, under a minute: no jq oracle to build, no slow file (tests/conftest.py).
quick: $(VENV)/.test
	$(PY) -m compileall -q jqmagic
	$(PY) -m pytest -q $(XDIST) -m "not slow and not oracle and not e2e and not binder"

# ruff with the rules chosen in pyproject.toml, over the package, tests, bench and scripts.
lint: $(VENV)/.test
	$(PY) -m pip install -q ruff
	$(PY) -m ruff check jqmagic tests bench scripts

$(VENV)/.demo: $(VENV)/bin/python pyproject.toml $(C_PARTS)
	$(PY) -m pip install -q -e '.[demo,df]'
	touch $@

demo: $(VENV)/.demo
	$(PY) scripts/run_notebook.py notebooks/01-tour.ipynb build/tour.html
	@echo "The tour ran headless: open file://$(CURDIR)/build/tour.html in a browser."
	@echo "For JupyterLab on notebooks/ (the tour, learn-jq, big files, agents): make lab"

lab: $(VENV)/.demo
	$(PY) -m pip install -q -e '.[lab]'
	$(VENV)/bin/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# The user guide (docs/, mkdocs.yml) -> build/site; any warning (a broken link or anchor, a
# page out of the navigation, a docstring it cannot read) fails the build.
$(VENV)/.docs: $(VENV)/bin/python pyproject.toml $(C_PARTS)
	$(PY) -m pip install -q -e '.[docs]'
	touch $@

docs: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir build/site

# The query benchmark against the jq CLI, jaq and plain Python -> bench/RESULTS.md.
bench: $(VENV)/.test
	$(PY) -m pip install -q -e '.[bench]'
	@command -v jq >/dev/null || (echo "jq CLI missing: apt-get install -y jq" && false)
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) build
