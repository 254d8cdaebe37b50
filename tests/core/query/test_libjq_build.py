"""The package's own libjq (built with -O2 from vendor/jq-1.8.2 by setup.py at install) is the
one the worker loads when it is there, and answers exactly as the binding's unoptimised copy
of the same source (``JQMAGIC_LIBJQ=binding``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jqmagic.core import settings as settings_module

BUILT = Path(settings_module.OWN_LIBJQ)

PROGRAMS = [
    "[.[] | . * 3.3, . / 7, tostring, @text]", "[.[] | tojson | fromjson]",
    '[.[] | tostring | test("^1"), sub("(?<d>[0-9])"; "<\\(.d)>")]', "map(. > 2.5) | any",
    "[limit(3; repeat(1))], ([range(5)] | add), (now | type)", "try error({a: 1}) catch .a",
    '"2015-03-05T23:51:47Z" | fromdate | todate', "[.[] | floor, sqrt, pow(.; 2)]",
    "[paths] | length", "to_entries | map(.value) | sort | unique",
    "1e1000, -0, 100000000000000000001",
]
RUN = """
import json, sys
import jqmagic
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings
settings.fast_path = False
texts = [jqmagic.query(p, text="[1, 2.5, 10, 1.50, 12.0, -3]", compact=True, passthrough=True).text
         for p in json.loads(sys.argv[1])]
maps = open(f"/proc/{shared_worker()._process.pid}/maps").read()
print(json.dumps({"texts": texts, "loaded": [l.split()[-1] for l in maps.splitlines()
                                             if "libjq" in l or "jq.cpython" in l][0]}))
"""


def _answers(libjq: str) -> dict:
    env = dict(os.environ, JQMAGIC_LIBJQ=libjq)
    out = subprocess.run([sys.executable, "-c", RUN, json.dumps(PROGRAMS)], env=env,
                         capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout)


def test_the_environment_names_the_library(tmp_path, monkeypatch):
    library = tmp_path / "libjq.so"
    library.write_bytes(b"")
    monkeypatch.setenv("JQMAGIC_LIBJQ", str(library))
    assert settings_module.optimised_libjq() == str(library)
    monkeypatch.setenv("JQMAGIC_LIBJQ", str(tmp_path / "missing.so"))
    assert settings_module.optimised_libjq() is None  # the binding's copy
    monkeypatch.setenv("JQMAGIC_LIBJQ", "binding")
    assert settings_module.optimised_libjq() is None
    assert "binding" in settings_module.libjq_build()
    monkeypatch.delenv("JQMAGIC_LIBJQ")
    assert settings_module.optimised_libjq() in (str(BUILT), None)


@pytest.mark.skipif(not BUILT.is_file(), reason=f"no libjq built at install at {BUILT} "
                    "(setup.py builds it where a C compiler and make are found)")
def test_the_optimised_library_answers_as_the_bindings_copy():
    optimised, bindings = _answers(str(BUILT)), _answers("binding")
    assert optimised["loaded"] == str(BUILT)
    assert bindings["loaded"].endswith(".so") and "jq.cpython" in bindings["loaded"]
    assert optimised["texts"] == bindings["texts"]
    assert all(optimised["texts"])
    assert _answers("")["loaded"] == str(BUILT)  # the default: the package's own


def test_the_package_built_its_own_libjq():
    """A plain install where a C compiler and make are found (this machine, CI) builds it:
    an optional extension's failure is only a warning in pip's log, so this says it."""
    assert BUILT.is_file(), "setup.py did not build libjq: see the install's warnings"
    assert settings_module.libjq_build() == "vendored, -O2"
