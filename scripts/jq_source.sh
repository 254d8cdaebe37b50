# Sourced by build_jq_oracle.sh and build_libjq.sh with their OUT argument: sets $out (its
# absolute path), unpacks the jq 1.8.2 source that the installed PyPI `jq` binding bundles
# (deps/jq-1.8.2.tar.gz in its sdist) into a temporary folder removed on exit, and enters
# it. Only PyPI is needed. $PYTHON names the venv's interpreter (default python3).
#
# Cached in $JQMAGIC_BUILD_CACHE (default ~/.cache/jqmagic): the binding's sdist, and each
# build's product keyed by the build script's text, so a second clone or a `make clean`
# copies in a second what took a minute. Only the binding's source is downloaded
# (--no-binary jq: its build tools come as wheels; --no-binary :all: built Cython from
# source for 14 minutes).
set -euo pipefail
out=$(realpath -m "$1")
version=$("${PYTHON:-python3}" -c 'import importlib.metadata as m; print(m.version("jq"))')
cache="${JQMAGIC_BUILD_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/jqmagic}/jq-$version"
built="$cache/$(basename "$0" .sh)-$(sha256sum "$0" | cut -c1-16)"
mkdir -p "$cache" "$(dirname "$out")"
if [ -f "$built" ]; then
    install -m 755 "$built" "$out"
    echo "$out (from $built)"
    exit 0
fi
work=$(mktemp -d)
# on success the product is kept for the next build; the temporary folder always goes
trap 'status=$?; if [ $status = 0 ] && [ -f "$out" ]; then cp "$out" "$built.$$" &&
      mv "$built.$$" "$built"; fi; rm -rf "$work"' EXIT
sdist=$(ls "$cache"/jq-"$version".tar.gz 2>/dev/null || true)
if [ -z "$sdist" ]; then
    "${PYTHON:-python3}" -m pip download -q --no-deps --no-binary jq -d "$work" "jq==$version"
    mv "$work"/jq-*.tar.gz "$cache/jq-$version.tar.gz"
    sdist="$cache/jq-$version.tar.gz"
fi
tar xzf "$sdist" -C "$work"
tar xzf "$work"/jq-*/deps/jq-1.8.2.tar.gz -C "$work"
cd "$work/jq-1.8.2"
