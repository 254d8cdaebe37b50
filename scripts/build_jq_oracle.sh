#!/usr/bin/env bash
# Builds the jq 1.8.2 command line, the oracle the drop-in tests compare `jqmagic query`
# with, from vendor/jq-1.8.2 (the same sources the package's libjq is built from at
# install: setup.py). Usage: build_jq_oracle.sh OUT (OUT becomes the jq binary; about 40 s
# on two idle cores). The binary is cached in $JQMAGIC_BUILD_CACHE (default
# ~/.cache/jqmagic), keyed by this script's text and the vendored tarball's SHA-256, so a
# second clone or a `make clean` copies in a second what took a minute.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "$1")
source_sum=$(sed -n 's/^- SHA-256 of jq-1.8.2.tar.gz: `\([0-9a-f]*\)`$/\1/p' "$here/vendor/README.md")
key=$(cat "$0" <(echo "$source_sum") | sha256sum | cut -c1-16)
cache="${JQMAGIC_BUILD_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/jqmagic}"
built="$cache/jq-1.8.2-oracle-$key"
mkdir -p "$cache" "$(dirname "$out")"
if [ ! -f "$built" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cp -R "$here/vendor/jq-1.8.2" "$work/jq"
    cd "$work/jq"
    # one time on every file: make regenerates nothing (a checkout's times are in no order)
    find . -exec touch -h -r configure {} +
    ./configure -q --with-oniguruma=builtin --disable-docs --disable-maintainer-mode \
        --enable-all-static >/dev/null
    # the targets setup.py makes, then the command line (`all` would want jq's docs/)
    make -s -j2 -C vendor/oniguruma/src libonig.la >/dev/null
    make -s -j2 src/builtin.inc src/config_opts.inc src/version.h >/dev/null
    make -s -j2 jq >/dev/null
    cp jq "$built.$$" && mv "$built.$$" "$built"
fi
install -m 755 "$built" "$out"
"$out" --version
