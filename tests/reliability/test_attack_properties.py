"""Properties an attacker would probe: no spelling of a local address gets a sandboxed fetch
through, and no way a program has of printing a message gets more than the bound out."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic import JqMagicError, fetch, query
from jqmagic.core.settings import settings as jq_settings

LOOPBACK_HOSTS = ["127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0x7f.1",
                  "017700000001", "0177.0.0.1", "127.000.000.001", "localhost", "LocalHost",
                  "localhost.", "[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:ffff:7f00:1]",
                  "[::ffff:7f00:1]", "0", "0.0.0.0", "[::]", "127.255.255.254", "%31%32%37.0.0.1"]
BEFORE_HOST = ["", "user:pw@", "8.8.8.8@", "a%40b@", "user@8.8.8.8@"]
AFTER_PORT = ["", "\\@8.8.8.8", "#@8.8.8.8", "?@8.8.8.8", "@8.8.8.8", ";@8.8.8.8"]
SCHEMES = ["http://", "HTTP://", "hTtP://", "http:/", "http:\\\\", "https://"]
PATHS = ["/secret.json", "/../secret.json", "/%2e%2e/secret.json", "//secret.json", ""]
MESSAGE_BOUND = 10_000 + 2_000  # all of a run's messages, and one more cut line


@pytest.fixture
def guarded(monkeypatch, web, loopback_only):
    """The sandbox on, a secret on a local server, and the socket guard (a public address
    the sandbox lets through is refused here, as offline)."""
    monkeypatch.setattr(jq_settings, "sandbox", True)
    monkeypatch.setattr(jq_settings, "private_addresses", False)
    web.add("/secret.json", '{"token": "s3cr3t"}', "application/json")
    return web


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(scheme=st.sampled_from(SCHEMES), before=st.sampled_from(BEFORE_HOST),
       host=st.sampled_from(LOOPBACK_HOSTS), after=st.sampled_from(AFTER_PORT),
       path=st.sampled_from(PATHS), noise=st.sampled_from(["", "\t", "\n", " "]),
       at=st.integers(0, 40))
def test_no_spelling_of_a_local_address_is_fetched(guarded, scheme, before, host, after,
                                                   path, noise, at):
    url = f"{scheme}{before}{host}:{guarded.port}{after}{path}"
    url = url[:at] + noise + url[at:]
    with pytest.raises(JqMagicError) as caught:
        fetch(url)
    assert caught.value.code in {"SANDBOX_DENIED", "INVALID_URL", "NETWORK_ERROR"}, url
    assert "s3cr3t" not in str(caught.value.to_dict())
    assert guarded.seen == [], url


CHANNELS = {
    "error": 'error("{m}")',
    "error value": 'error({{"m": "{m}"}})',
    "halt_error": '"{m}" | halt_error',
    "halt_error 5": '"{m}\\n" | halt_error(5)',
    "debug": '"{m}" | debug | empty',
    "debug msg": 'debug("{m}") | empty',
    "stderr": '"{m}" | stderr | empty',
    "key in a failed lookup": '{{"{m}": 1}} | .[0]',
    "type error preview": '"{m}" | . - 1',
}


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(channel=st.sampled_from(sorted(CHANNELS)), size=st.sampled_from([10, 5_000, 2_000_000]),
       repeat=st.sampled_from([1, 3, 500]))
def test_no_message_gets_past_the_bound(channel, size, repeat):
    program = f'range({repeat}) | {CHANNELS[channel].format(m="z" * size)}'
    try:
        result = query(program, null_input=True)
    except JqMagicError as exc:
        said = exc.to_dict("agent")
        printed = sum(len(str(v)) for v in said.values()) + \
            sum(len(m) for m in (exc.result.messages if exc.result else []))
    else:
        printed = len(result.text) + sum(len(m) for m in result.messages)
    assert printed <= MESSAGE_BOUND, (channel, size, repeat, printed)
