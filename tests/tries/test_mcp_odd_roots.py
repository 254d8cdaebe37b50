"""An MCP client whose roots name no folder here (another scheme, another host, a relative
path) reads nothing: its roots narrow the operator's wall even then (they were dropped, and
the client got the whole wall, as if it had declared none)."""

import pytest

pytest.importorskip("mcp")

from jqmagic.core import sandbox  # noqa: E402
from jqmagic.tools.mcpclients import ClientState, folder_of, folders  # noqa: E402


@pytest.mark.parametrize("uri", ["http://127.0.0.1/", "file://evil.example/etc",
                                 "file:outside", "file://"])
def test_a_root_that_is_no_local_folder_opens_nothing(tmp_path, monkeypatch, uri):
    monkeypatch.chdir(tmp_path)  # a relative root is never the server's own folder
    wall = [str(tmp_path)]
    declared = [folder_of(uri)]
    kept, refused = sandbox.narrowed(declared, wall)
    assert kept == [] and refused == declared
    monkeypatch.setattr(sandbox, "roots", lambda: wall)
    assert folders(ClientState(declared=declared)) == [sandbox.NO_FOLDER]


def test_file_roots_still_narrow_and_no_roots_leave_the_wall(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    wall = [str(tmp_path)]
    monkeypatch.setattr(sandbox, "roots", lambda: wall)
    assert folders(ClientState(declared=[folder_of((tmp_path / "a").as_uri())])) == \
        [str(tmp_path / "a")]
    assert folders(ClientState(declared=[folder_of("file:///")])) == wall
    assert folders(ClientState(declared=[])) == wall
