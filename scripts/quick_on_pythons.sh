#!/usr/bin/env bash
# The quick suite (`make quick`) and scripts/smoke.py on every CPython pyproject.toml
# declares but the one PYTHON is (the one `make test` ran on; default .venv/bin/python),
# each in a venv of its own, build/venv-X.Y, holding only what the quick tests need
# (installed once, again when pyproject.toml changes). A declared version this machine
# lacks fails the run (scripts/pythons.py names it). Usage: scripts/quick_on_pythons.sh [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
main=${1:-.venv/bin/python}
others=$("$main" scripts/pythons.py --except "$main")
while read -r version python; do
    [ -n "$version" ] || continue
    echo "== Python $version ($python): the quick suite, then the smoke run"
    start=$SECONDS
    make quick PYTHON="$python" VENV="build/venv-$version" EXTRAS=test,df
    "build/venv-$version/bin/python" scripts/smoke.py
    echo "== Python $version passed in $((SECONDS - start)) s"
done <<< "$others"
