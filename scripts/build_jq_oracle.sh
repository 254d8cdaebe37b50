#!/usr/bin/env bash
# Builds the jq 1.8.2 command line, the oracle the drop-in tests compare `jqmagic query`
# with, from the source the PyPI `jq` binding bundles (deps/jq-1.8.2.tar.gz in its sdist):
# the same libjq the engine drives, and only PyPI is needed. Usage: build_jq_oracle.sh OUT
# (OUT becomes the jq binary; about 40 s on two cores).
set -euo pipefail
out=$(realpath -m "$1")
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$("$python" -c 'import importlib.metadata as m; print(m.version("jq"))')
"$python" -m pip download -q --no-deps --no-binary :all: -d "$work" "jq==$version"
tar xzf "$work"/jq-*.tar.gz -C "$work"
tar xzf "$work"/jq-*/deps/jq-1.8.2.tar.gz -C "$work"
cd "$work/jq-1.8.2"
./configure -q --with-oniguruma=builtin --disable-docs --disable-maintainer-mode \
    --enable-all-static >/dev/null
make -s -j2 >/dev/null 2>&1 || make -s -j2 >/dev/null  # the vendored onig builds on a rerun
mkdir -p "$(dirname "$out")"
install -m 755 jq "$out"
"$out" --version
