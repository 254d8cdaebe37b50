"""y, Y, n and N are YAML 1.1 booleans that PyYAML's resolver leaves out but go-yaml v2,
Kubernetes' reader, keeps (`n: y` is {false: true} there): a patched file and a YAML
output quote them, as they quote on, yes and no; YAML 1.2 still reads them as strings."""

from __future__ import annotations

import yaml

import jqmagic
from jqmagic import patch
from jqmagic.core.sources.yamlschema import safe_dumper


def test_a_patch_quotes_them_as_keys_and_values(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("a: x  # kept\n")
    patch(path, jq='.n = "y" | .m = ["Y", "N", "no", "x"]')
    assert path.read_text() == ('a: x  # kept\n"n": "y"\nm:\n  - "Y"\n  - "N"\n  - "no"\n'
                                "  - x\n")
    assert jqmagic.query(".", file=str(path)).value == {"a": "x", "n": "y",
                                                          "m": ["Y", "N", "no", "x"]}


def test_the_yaml_output_quotes_them():
    text = yaml.dump({"y": "n", "a": ["Y", "x"]}, Dumper=safe_dumper(), sort_keys=False)
    assert text == "'y': 'n'\na:\n- 'Y'\n- x\n"
