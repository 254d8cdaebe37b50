# Two commands for a fresh machine: `make demo` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: demo test lint lab bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,demo,df]'
	touch $@

test: $(VENV)/.installed
	$(PY) -m pytest -q

demo: $(VENV)/.installed
	mkdir -p build
	$(PY) -m jqmagic.demo notebooks/01-tour.ipynb build/tour.html
	@echo "Open build/tour.html in a browser, or run 'make lab' to open the notebooks in JupyterLab."

lab: $(VENV)/.installed
	$(VENV)/bin/jupyter lab notebooks/

clean:
	rm -rf $(VENV) build
