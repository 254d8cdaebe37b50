#!/usr/bin/env bash
# Refreshes vendor/jq-1.8.2: jq 1.8.2's release sources (with Oniguruma 6.9 and decNumber,
# as jq's release tarball bundles them), which `pip install` compiles with -O2 into the
# package's own libjq (setup.py, buildlibjq.py). The tarball is the one the PyPI `jq`
# binding's sdist carries (deps/jq-1.8.2.tar.gz), so only PyPI is needed; its SHA-256 is
# checked against vendor/README.md's. Usage: scripts/vendor_jq.sh [TARBALL]
# Pruned: jq's docs/ and tests/ (the suites are read from ../shared/suites), Oniguruma's
# doc/, windows/ and the C sources of its tests and samples (their Makefile.in stay:
# Oniguruma's configure writes them).
set -euo pipefail
cd "$(dirname "$0")/.."
expected=$(sed -n 's/^- SHA-256 of jq-1.8.2.tar.gz: `\([0-9a-f]*\)`$/\1/p' vendor/README.md)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=${1:-}
if [ -z "$tarball" ]; then
    "${PYTHON:-python3}" -m pip download -q --no-deps --no-binary jq -d "$work" "jq==1.13.0"
    tar xzf "$work"/jq-*.tar.gz -C "$work"
    tarball=$(ls "$work"/jq-*/deps/jq-1.8.2.tar.gz)
fi
actual=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ -n "$expected" ] && [ "$actual" != "$expected" ]; then
    echo "jq-1.8.2.tar.gz has SHA-256 $actual, vendor/README.md says $expected" >&2
    exit 1
fi
rm -rf vendor/jq-1.8.2
tar xzf "$tarball" -C vendor
cd vendor/jq-1.8.2
rm -rf docs tests jq.1 vendor/oniguruma/doc vendor/oniguruma/windows \
    vendor/oniguruma/index.html vendor/oniguruma/index_ja.html vendor/oniguruma/HISTORY
find vendor/oniguruma/test vendor/oniguruma/sample -type f ! -name Makefile.in ! -name Makefile.am \
    -delete
echo "vendor/jq-1.8.2 from jq-1.8.2.tar.gz (SHA-256 $actual)"
