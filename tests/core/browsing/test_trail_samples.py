"""A search's trail shows, on each row that matched, a value it found there, not the
first value of the node (searching "linus" showed owner > login "rob")."""

from __future__ import annotations

from jqmagic.core.browsing import model

REPOS = [{"name": f"r{i}", "owner": {"login": "linus" if i == 7 else f"user{i}"}}
         for i in range(20)]


def test_a_matched_row_shows_the_value_found():
    tree = model.Tree(model.build(REPOS, False), value=REPOS)
    hits, _ = tree.search("linus")
    assert [hit["match"] for hit in hits] == ['"linus"']
    rows = {row["name"]: row for row in tree.rows(0, 20)}
    assert "name" not in rows and rows["login"]["sample"] == '"linus"'  # the trail alone
    tree.search("")
    rows = {row["name"]: row for row in tree.rows(0, 20)}
    assert rows["login"]["sample"] == '"user0"'  # the search gone: the first value again
