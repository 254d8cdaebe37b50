"""-i over a YAML stream whose program fails on one document says which document, with
that document's own hint: it said "(after 1 result)" and hinted "at .[] there are 4
values", of the `.[] | [PROGRAM]` it runs, which the user never wrote."""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError, patch

STREAM = "kind: A\nsvc: {image: x}\n---\njust a scalar\n---\nkind: B\n"


def test_the_failing_document_is_named(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(STREAM)
    with pytest.raises(JqMagicError) as caught:
        patch(path, jq='.svc.image = "y"')
    error = caught.value
    assert error.code == "QUERY_ERROR"
    assert error.message.startswith("Document 1: jq error: Cannot index string")
    assert "after 1 result" not in error.message and ".[]" not in error.hint
    assert path.read_text() == STREAM


def test_a_stream_that_succeeds_is_one_query(tmp_path):
    asked = []

    def run_query(program, **kwargs):
        from jqmagic import query
        asked.append(program)
        return query(program, **kwargs)

    from jqmagic.core.patch.jqdiff import jq_runner
    from jqmagic.core.patch.yamltext import YamlDoc

    doc = YamlDoc(b"a: 1\n---\na: 2\n", "s.yaml")
    jq_runner(".a += 1", run_query)(doc)
    assert len(asked) == 1 and doc.get([]) == [{"a": 2}, {"a": 3}]
