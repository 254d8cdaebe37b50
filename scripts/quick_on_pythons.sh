#!/usr/bin/env bash
# The quick suite (`make quick`) and scripts/smoke.py on every CPython pyproject.toml
# declares but the one PYTHON is (the one `make test` ran on; default .venv/bin/python),
# each in a venv of its own, build/venv-X.Y, holding only what the quick tests need
# (installed once, again when pyproject.toml or a C source changes). Every version runs;
# the script fails if any did, or if a declared version is missing here (scripts/pythons.py
# names it). Usage: scripts/quick_on_pythons.sh [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
main=${1:-.venv/bin/python}
others=$("$main" scripts/pythons.py --except "$main")
failed=()
while read -r version python; do
    [ -n "$version" ] || continue
    venv=build/venv-$version
    args=(PYTHON="$python" VENV="$venv" EXTRAS=test,df)
    echo "== Python $version ($python): install, the quick suite, the smoke run"
    start=$SECONDS
    # an editable install builds the C extensions once: again when a source changed
    if [ -n "$(find jqmagic -name '*.c' -newer "$venv/.test" 2>/dev/null)" ]; then
        rm "$venv/.test"
    fi
    make "$venv/.test" "${args[@]}"
    installed=$SECONDS
    result=passed
    make quick "${args[@]}" || result=FAILED
    "$venv/bin/python" scripts/smoke.py || result=FAILED  # each face, whatever the suite said
    [ $result = passed ] || failed+=("$version")
    echo "== Python $version $result: $((installed - start)) s to install," \
         "$((SECONDS - installed)) s of tests"
done <<< "$others"
if [ ${#failed[@]} -gt 0 ]; then
    echo "error: the quick suite or the smoke run failed on Python ${failed[*]}" >&2
    exit 1
fi
