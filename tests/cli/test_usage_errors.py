"""Every usage error is one line and a hint, in the face's words, with a did-you-mean for a
misspelt command, option or choice; ``jqmagic --version`` names the package, libjq and
Python (issue 42)."""

from __future__ import annotations

import platform

import pytest
from IPython.core.error import UsageError

from tests.cli import dropin


def jqmagic(*argv: str):
    """``jqmagic ARGV`` in this process: (status, stdout, stderr)."""
    import contextlib
    import io

    from jqmagic.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as exc:
            status = exc.code
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv, said, hint", [
    (["qeury", "."], "error INVALID_ARGUMENT: Unknown command 'qeury'", "Did you mean query?"),
    (["inspct"], "Unknown command 'inspct'", "Did you mean inspect?"),
    ([], "No command given", "e.g. jqmagic query . data.json"),
    (["query", "--timeout", "abc", "."], "--timeout takes seconds", "jqmagic query --help"),
    (["query", "--limit", "-3", "."], "--limit takes a whole number of 0 or more, not '-3'",
     "jqmagic query --help"),
    (["query", "--tiemout", "3", "."], "Unknown option --tiemout", "Did you mean --timeout?"),
    (["inspect", "--dpth", "3", "x.json"], "Unknown option --dpth", "Did you mean --depth?"),
    (["inspect", "--depth", "x", "x.json"], "--depth takes a whole number", "--help"),
    (["inspect", "--format", "jsonschma"], "Unknown value for --format 'jsonschma'",
     "Did you mean jsonschema?"),
    (["patch", "--dry-rn", "x.json", "set", "/a", "1"], "Unknown option --dry-rn",
     "Did you mean --dry-run?"),
    (["fetch"], "Missing argument: url", "See jqmagic fetch --help."),
    (["search", "--count", "x", "q"], "--count takes a whole number", "--help"),
])
def test_a_usage_error_is_one_line_and_a_hint(argv, said, hint):
    status, out, err = jqmagic(*argv)
    lines = err.splitlines()
    assert (status, out, len(lines)) == (2, "", 2), err
    assert lines[0].startswith("error INVALID_ARGUMENT: ") and said in lines[0]
    assert lines[1].startswith("hint: ") and hint in lines[1]


def test_an_unknown_option_far_from_any_gets_no_guess():
    _, _, err = jqmagic("inspect", "--zzzzzz", "x.json")
    assert "Unknown option --zzzzzz" in err and "Did you mean" not in err


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_names_the_package_libjq_and_python(flag):
    from importlib.metadata import version

    status, out, err = jqmagic(flag)
    assert (status, err) == (0, "")
    assert out == f"jqmagic {version('jqmagic')} (libjq 1.8.2: vendored, -O2; Python " \
                  f"{platform.python_version()})\n"


@dropin.needs_oracle
def test_query_version_is_still_jqs():
    assert dropin.jqmagic(["--version"], "").stdout == dropin.jq(["--version"], "").stdout


@pytest.mark.parametrize("line, said, hint", [
    ("--nosuch .a orders", "INVALID_ARGUMENT: Unknown option --nosuch",
     "Hint: See %jq -h for the options."),
    ("--limt 3 .a orders", "Unknown option --limt", "Did you mean --limit?"),
    ("--limit -3 .a orders", "--limit takes a whole number of 0 or more", "%jq -h"),
    ("--timeout abc .a orders", "--timeout takes seconds", "%jq -h"),
    ("--to jsn .a orders", "Unknown value for --to 'jsn'", "Did you mean json?"),
    ('.usr {"user":1}', "{user:1} is neither a file nor JSON",
     "Quote inline JSON in single quotes"),
])
def test_a_magics_usage_error_is_one_line_and_a_hint(ip, line, said, hint):
    ip.user_ns["orders"] = {"a": 1}
    with pytest.raises(UsageError) as info:
        ip.run_line_magic("jq", line)
    lines = str(info.value).splitlines()
    assert info.value.code == "INVALID_ARGUMENT" and len(lines) == 2
    assert said in lines[0] and lines[1].startswith("Hint: ") and hint in lines[1]


def test_quoted_inline_json_is_read(ip):
    assert ip.run_line_magic("jq", """.user '{"user":1}'""").values == [1]
    assert ip.run_line_magic("jq", """.[1] '[1, 2]'""").values == [2]
