"""A stateless (2026-07-28) client's share of the workers is the one its requests' name
(clientInfo) draws on: the same name shares one, another name has its own, requests naming
none share one; past KEPT_ROOMS names the idle shares are forgotten, a busy one never."""

from __future__ import annotations

from types import SimpleNamespace

import anyio
import pytest

pytest.importorskip("mcp")

from jqmagic.tools import mcpclients  # noqa: E402


def named(name: str | None, version: str = "1") -> SimpleNamespace:
    """A connection as the SDK makes one from a request's envelope."""
    info = None if name is None else SimpleNamespace(name=name, version=version)
    return SimpleNamespace(client_params=None if info is None else
                           SimpleNamespace(client_info=info))


def test_requests_naming_one_client_share_its_share(monkeypatch):
    monkeypatch.setattr(mcpclients, "ROOMS", {})

    async def rooms():
        a, again, other = (mcpclients.room(named(n)) for n in ("agent", "agent", "script"))
        newer = mcpclients.room(named("agent", "2"))
        anonymous = mcpclients.room(named(None)), mcpclients.room(None)
        return a, again, other, newer, anonymous

    a, again, other, newer, anonymous = anyio.run(rooms)
    assert a is again and a is not other and a is not newer
    assert anonymous[0] is anonymous[1] and anonymous[0] not in (a, other, newer)
    assert a.total_tokens == mcpclients.share()


def test_idle_shares_are_forgotten_busy_ones_kept(monkeypatch):
    monkeypatch.setattr(mcpclients, "ROOMS", {})
    monkeypatch.setattr(mcpclients, "KEPT_ROOMS", 3)

    async def crowd():
        busy = mcpclients.room(named("busy"))
        await busy.acquire()
        for i in range(6):
            mcpclients.room(named(f"idle{i}"))
        kept = list(mcpclients.ROOMS)
        busy.release()
        return busy, kept

    busy, kept = anyio.run(crowd)
    assert kept == [("busy", "1"), ("idle4", "1"), ("idle5", "1")]
    assert mcpclients.ROOMS[("busy", "1")] is busy
