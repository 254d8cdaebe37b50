"""A YAML key that is a list or a mapping is refused with a hint about keys, not tags."""

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.sources.yamldocs import parse_yaml


@pytest.mark.parametrize("text", ["k: {? [1, 2] : v}\n", "? {a: 1}\n: v\n"])
def test_a_list_or_mapping_key_is_said_as_a_key(text):
    with pytest.raises(JqMagicError) as refused:
        parse_yaml(text, "k.yaml")
    assert refused.value.code == "INVALID_YAML" and "unhashable key" in refused.value.message
    assert "key as a string" in refused.value.hint and "tag" not in refused.value.hint


def test_a_python_tag_still_hints_at_the_tag():
    with pytest.raises(JqMagicError) as refused:
        parse_yaml('x: !!python/object/apply:os.system ["echo"]\n', "t.yaml")
    assert "remove the tag" in refused.value.hint
