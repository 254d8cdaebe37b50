# Sourced by build_jq_oracle.sh and build_libjq.sh: unpack_jq_source DIR unpacks the jq
# 1.8.2 source that the installed PyPI `jq` binding bundles (deps/jq-1.8.2.tar.gz in its
# sdist) into DIR and prints the source folder. Only PyPI is needed. $PYTHON names the
# venv's interpreter (default python3).
unpack_jq_source() {
    local work=$1 python=${PYTHON:-python3} version
    version=$("$python" -c 'import importlib.metadata as m; print(m.version("jq"))')
    "$python" -m pip download -q --no-deps --no-binary :all: -d "$work" "jq==$version"
    tar xzf "$work"/jq-*.tar.gz -C "$work"
    tar xzf "$work"/jq-*/deps/jq-1.8.2.tar.gz -C "$work"
    echo "$work/jq-1.8.2"
}
