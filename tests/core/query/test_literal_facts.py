"""A document's literal facts are learnt in one pass, and in the background while the
worker waits, so that a later question on a big file needs no pass over it."""

from __future__ import annotations

import json

from jqmagic.core.jqlang.numbers import Literals

TEXT = json.dumps({"a": [1.50, 12.0, -0.0, 12345678901234567, "item-0"]}).encode()


def test_settle_learns_every_fact_in_one_pass_as_each_alone_would():
    passes: list[int] = []

    def chunks():
        passes.append(1)
        return [TEXT[:20], TEXT[10:]]

    settled = Literals(chunks).settle()
    one_by_one = Literals(lambda: [TEXT[:20], TEXT[10:]])
    assert len(passes) == 1 and settled.settled
    for fact in ("long", "odd_floats", "whole_floats", "negative_zero"):
        assert getattr(settled, fact) == getattr(one_by_one, fact), fact
    assert len(passes) == 1  # nothing read again once settled


def test_the_worker_settles_kept_documents_while_idle(tmp_path):
    from jqmagic.core.query import doccache

    path = tmp_path / "d.json"
    path.write_text(json.dumps({"xs": [i + 0.5 for i in range(1000)]}))
    doc = doccache.documents.get(str(path), "json")
    assert not doc.literals.settled
    doccache.documents.settle_while_idle()
    doccache.documents._settler.join(10)
    assert doc.literals.settled
    doccache.documents.clear()
