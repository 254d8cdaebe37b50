#!/usr/bin/env bash
# Builds libjq 1.8.2 with the compiler's optimisation (-O2) from the source the PyPI `jq`
# binding bundles. The binding compiles its own copy without optimisation (its setup.py
# sets CFLAGS to "-fPIC -pthread"), so every program outside the fast path runs 1.7-3x
# slower in it than in jq's command line. The query worker loads $JQMAGIC_LIBJQ, else
# <venv>/lib/jqmagic/libjq.so when it is there, else the binding's copy (the same source:
# the same answers). Usage: build_libjq.sh OUT (about 40 s on two cores).
source "$(dirname "$0")/jq_source.sh" "$1"
./configure -q CFLAGS="-O2 -fPIC -pthread" --with-oniguruma=builtin --disable-docs \
    --disable-maintainer-mode --disable-shared --enable-static >/dev/null
make -s -j2 >/dev/null 2>&1 || make -s -j2 >/dev/null  # the vendored onig builds on a rerun
mkdir -p "$(dirname "$out")"
# one self-contained object, as the binding links its own: libjq and Oniguruma whole
cc -shared -o "$out" -Wl,--whole-archive .libs/libjq.a \
    vendor/oniguruma/src/.libs/libonig.a -Wl,--no-whole-archive -lm -lpthread
echo "$out"
