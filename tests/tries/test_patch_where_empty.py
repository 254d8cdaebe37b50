"""An empty --where (match.where: {}) is said to be empty: the refusal said "--match needs
--where" to someone who gave one."""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError, patch
from jqmagic.tools import call


def test_an_empty_where_is_named_empty(tmp_path):
    path = tmp_path / "u.json"
    path.write_text('{"users": [{"id": 1}]}\n')
    with pytest.raises(JqMagicError, match="not an empty object"):
        patch(path, "set", "/ok", True, match="/users", where={})
    answer = call("json_patch", {"filePath": str(path), "operation": "set", "value": "1",
                                 "match": {"arrayPath": "/users", "where": {}}},
                  allow_root=[str(tmp_path)])
    assert answer["error_code"] == "INVALID_ARGUMENT"
    assert answer["error"].startswith("match needs match.where")
    assert "empty object" in answer["error"]
    assert path.read_text() == '{"users": [{"id": 1}]}\n'
