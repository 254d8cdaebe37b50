#!/usr/bin/env bash
# Builds the jq 1.8.2 command line, the oracle the drop-in tests compare `jqmagic query`
# with, from the source the PyPI `jq` binding bundles: the same libjq the engine drives,
# and only PyPI is needed. Usage: build_jq_oracle.sh OUT (OUT becomes the jq binary; about
# 40 s on two idle cores, a second when cached: see jq_source.sh).
source "$(dirname "$0")/jq_source.sh" "$1"
./configure -q --with-oniguruma=builtin --disable-docs --disable-maintainer-mode \
    --enable-all-static >/dev/null
make -s -j2 >/dev/null 2>&1 || make -s -j2 >/dev/null  # the vendored onig builds on a rerun
mkdir -p "$(dirname "$out")"
install -m 755 jq "$out"
"$out" --version
