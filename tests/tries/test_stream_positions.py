"""A parse error whose place jq counts on from an earlier file (one that ends without a
newline) is said at jq's line and column (jq 1.8.2: "at line 1, column 11"), with no caret
under a line it is not on."""

import pytest

from tests.cli.dropin import jqmagic


@pytest.mark.parametrize("way", [[], ["--timeout", "20"]], ids=["here", "worker"])
def test_a_place_counted_across_files_gets_no_misplaced_caret(tmp_path, way):
    (tmp_path / "first.json").write_bytes(b"[1,2,3]")  # no newline at its end
    (tmp_path / "second.json").write_bytes(b"\xef\xbb\xbf{}")  # a BOM mid-stream
    got = jqmagic([*way, "-c", ".", str(tmp_path / "first.json"), str(tmp_path / "second.json")],
                  "")
    said = got.stderr.decode()
    assert got.stdout == b"[1,2,3]\n" and got.status == 5
    assert "line 1, column 11: Invalid numeric literal" in said, said
    assert "one stream" in said and "^" not in said
