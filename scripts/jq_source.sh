# Sourced by build_jq_oracle.sh and build_libjq.sh with their OUT argument: sets $out (its
# absolute path), unpacks the jq 1.8.2 source that the installed PyPI `jq` binding bundles
# (deps/jq-1.8.2.tar.gz in its sdist) into a temporary folder removed on exit, and enters
# it. Only PyPI is needed. $PYTHON names the venv's interpreter (default python3).
set -euo pipefail
out=$(realpath -m "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$("${PYTHON:-python3}" -c 'import importlib.metadata as m; print(m.version("jq"))')
"${PYTHON:-python3}" -m pip download -q --no-deps --no-binary :all: -d "$work" "jq==$version"
tar xzf "$work"/jq-*.tar.gz -C "$work"
tar xzf "$work"/jq-*/deps/jq-1.8.2.tar.gz -C "$work"
cd "$work/jq-1.8.2"
