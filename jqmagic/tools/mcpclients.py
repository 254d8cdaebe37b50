"""Each MCP client in its own room: what ``jqmagic mcp`` keeps for one client, and the
client's roots narrowing the operator's (the ``mcp`` extra).

Under the handshake protocols (up to 2025-11-25) a client's state lives with its connection
(stdio: the process's one client; streamable HTTP: its session, ``Mcp-Session-Id``): its
roots (asked when it offers the roots capability, asked again after
``notifications/roots/list_changed``), the payloads its answers kept (the only ones it may
read, and those listed and completed for it) and its log level (``logging/setLevel``).
Under 2026-07-28, the stateless revision, nothing is kept between requests: the operator's
roots are the wall, a payload is read by its unguessable id only (never listed, never
completed), a log message goes out only when the request asks for it (its ``_meta`` log
level), and a client that offers roots is asked them by a multi round-trip request with
each tool call (:func:`roots_input`): they narrow that call alone. Only its share of the
workers outlives a request: the share of the client each request names (:func:`room`).

Roots narrow, never widen: the operator's roots (``--allow-root``, else the working
directory) are the outer wall; a client's roots select folders within it
(:func:`jqmagic.core.sandbox.narrowed`); a root outside is refused, said in a warning and in
every refusal's hint.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

import anyio

STATE_KEY = "jqmagic"  # where a client's state sits in the SDK's per-connection state
LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
SHOWN_ROOTS = 5  # refused roots named in one message, at most
ROOTS_SECONDS = 30.0  # a roots/list unanswered this long has failed


@dataclass
class ClientState:
    """One client's room."""

    stateless: bool = False  # protocol 2026-07-28: nothing outlives the request
    declared: list[str] | None = None  # its roots as folders (None: to be asked)
    refused: list[str] = field(default_factory=list)  # its roots outside the wall
    unread: str = ""  # why its roots/list failed (then it opens no folder; asked again)
    kept_ids: dict[str, None] = field(default_factory=dict)  # payloads it made, oldest first
    level: str = "warning"  # what it hears until it sets a level: refusals
    asking: anyio.Lock = field(default_factory=anyio.Lock)  # one roots/list at a time
    calls: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(
        share()))  # its tool calls running at once; the rest wait their turn


SHARED = [False]  # set by the HTTP server: many clients meet it, each gets a share
ROOMS: dict[Any, anyio.CapacityLimiter] = {}  # stateless clients' shares, by name
KEPT_ROOMS = 256  # past these, the idle shares are forgotten (oldest first)


def share() -> int:
    """Tool calls one client runs at once: over HTTP every worker of the pool but one, so
    that no client (each session) can hold every worker and keep the others waiting;
    stdio's one client, every worker."""
    from jqmagic.core.query.supervisor import pool_size

    return max(1, pool_size() - SHARED[0])


def state_of(ctx: Any) -> ClientState:
    """The state of the client ``ctx`` (a request or notification) comes from: its
    connection's under the handshake protocols, a fresh one under the stateless revision
    (but for its share of the workers)."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    connection = getattr(ctx.session, "_connection", None)  # the SDK's per-client Connection
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS or connection is None:
        return ClientState(stateless=True, calls=room(connection))
    return connection.state.setdefault(STATE_KEY, ClientState())


def room(connection: Any) -> anyio.CapacityLimiter:
    """A stateless client's share of the workers: no session tells its requests apart from
    another client's, so the share is that of the client each request names (the name and
    version of its clientInfo, sent with every request under 2026-07-28), as a session's
    calls share theirs; requests naming none share one. Two copies of one client program
    share a share; the name is the client's word (fairness among the token's holders, not
    a wall)."""
    info = getattr(getattr(connection, "client_params", None), "client_info", None)
    key = None if info is None else (info.name, info.version)
    calls = ROOMS.pop(key, None) or anyio.CapacityLimiter(share())
    ROOMS[key] = calls  # the latest last
    if len(ROOMS) > KEPT_ROOMS:
        idle = [k for k, c in ROOMS.items() if not c.borrowed_tokens]
        for old in idle[:len(ROOMS) - KEPT_ROOMS]:
            del ROOMS[old]
    return calls


async def declared_roots(ctx: Any, state: ClientState) -> list[str]:
    """The client's roots as folders ([] when it offers none, or under the stateless
    revision): asked once, again after it says they changed; a root outside the operator's
    is told as a warning. A client that offers roots and fails to list them (an error, a
    malformed answer, none in :data:`ROOTS_SECONDS`) opens no folder in this call (fails
    closed: its roots were to narrow the wall) and is asked again in the next."""
    import pydantic
    from mcp import types
    from mcp.shared.exceptions import MCPError, NoBackChannelError

    from jqmagic.core import sandbox

    if state.stateless:
        return []
    async with state.asking:  # a second call waits for the first's answer
        if state.declared is not None:
            return state.declared
        asked = types.ClientCapabilities(roots=types.RootsCapability())
        folders: list[str] = []
        state.unread = ""
        if ctx.session.check_client_capability(asked):
            try:
                with anyio.fail_after(ROOTS_SECONDS):
                    listed = await ctx.session.list_roots()
            except NoBackChannelError:  # the server cannot ask: the operator's wall
                listed = types.ListRootsResult(roots=[])
            except (MCPError, pydantic.ValidationError, TimeoutError) as exc:
                state.unread = str(exc) or f"no answer in {ROOTS_SECONDS:g} s"
                await tell(ctx, "warning", {"message": refusal(state)})
                return []
            folders = [p for p in (folder_of(str(r.uri)) for r in listed.roots) if p]
        state.declared = folders
        state.refused = sandbox.narrowed(folders, sandbox.roots())[1]
        await warn_refused(ctx, state)
        return folders


async def warn_refused(ctx: Any, state: ClientState) -> None:
    """A warning naming the client's roots outside the operator's, if any."""
    if state.refused:
        await tell(ctx, "warning", {"message": refusal(state),
                                    "refused_roots": state.refused[:SHOWN_ROOTS]})


ROOTS_INPUT = "jqmagic/roots"  # the key of the roots asked by a multi round-trip request


def roots_input(ctx: Any, state: ClientState, params: Any) -> Any:
    """Under the stateless revision, roots by multi round-trip request: an
    ``InputRequiredResult`` asking the client's roots when it offers them and this request
    does not carry them yet; None when it carries them (then ``state`` has them, for this
    request only) or the client offers none."""
    from mcp import types

    from jqmagic.core import sandbox

    answered = (getattr(params, "input_responses", None) or {}).get(ROOTS_INPUT)
    listed = getattr(answered, "roots", None)
    if listed is None and answered is not None:
        try:
            listed = types.ListRootsResult.model_validate(answered).roots
        except ValueError:  # pydantic's ValidationError
            from jqmagic.tools.mcperrors import protocol_error

            raise protocol_error("The roots answered are not a roots/list result.",
                                 'Answer with {"roots": [{"uri": "file:///..."}]}.',
                                 "INVALID_ARGUMENT") from None
    if listed is not None:
        state.declared = [p for p in (folder_of(str(r.uri)) for r in listed) if p]
        state.refused = sandbox.narrowed(state.declared, sandbox.roots())[1]
        return None
    if not ctx.session.check_client_capability(
            types.ClientCapabilities(roots=types.RootsCapability())):
        return None
    return types.InputRequiredResult(input_requests={ROOTS_INPUT: types.ListRootsRequest()})


def refusal(state: ClientState) -> str:
    """The sentence saying why the client opens less than the operator's folders: its roots
    could not be read, or those outside the operator's."""
    from jqmagic.core.words import cut

    if state.unread:
        return (f"Your roots could not be listed ({cut(state.unread, 200)}), so this call "
                "opens no folder; the next call asks for them again.")
    named = ", ".join(cut(r, 200) for r in state.refused[:SHOWN_ROOTS])
    more = f" and {len(state.refused) - SHOWN_ROOTS} more" if len(state.refused) > \
        SHOWN_ROOTS else ""
    return (f"Your roots {named}{more} lie outside the folders this server may open, so "
            "they are refused: the server's operator sets those (--allow-root).")


async def roots_changed(ctx: Any, params: Any) -> None:
    """``notifications/roots/list_changed``: the client's roots are asked again."""
    state_of(ctx).declared = None


def folder_of(uri: str) -> str | None:
    """The local path a ``file://`` root names; any other root (a scheme, a host or a
    path that is no folder here) as it is, which :func:`jqmagic.core.sandbox.narrowed`
    refuses: a client's roots narrow the wall even when none of them is a folder."""
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return uri or None
    return unquote(parts.path) or uri


def folders(state: ClientState) -> list[str]:
    """The folders this client may open: its roots within the operator's, else the
    operator's (``[NO_FOLDER]`` when its roots and the operator's share none)."""
    from jqmagic.core import sandbox

    wall = sandbox.roots()
    if state.unread:
        return [sandbox.NO_FOLDER]
    if not state.declared:
        return wall
    return sandbox.narrowed(state.declared, wall)[0] or [sandbox.NO_FOLDER]


def openings(state: ClientState) -> dict[str, Any]:
    """The keywords of :func:`jqmagic.tools.call` that confine a call to this client's
    folders (nothing when it declared no roots, or the operator turned the sandbox off)."""
    from jqmagic.tools import policy

    face = policy.in_force() or policy.Policy()
    if not (state.declared or state.unread) or face.no_sandbox:
        return {}
    return {**dataclasses.asdict(face), "allow_root": folders(state)}


def note_payloads(state: ClientState, response: Any) -> None:
    """Remember every ``payload_id`` in a tool's answer (nested ones too) as this client's;
    under the stateless revision, nothing."""
    if state.stateless:
        return
    if isinstance(response, dict):
        if isinstance(response.get("payload_id"), str):
            state.kept_ids.pop(response["payload_id"], None)
            state.kept_ids[response["payload_id"]] = None
        for value in response.values():
            note_payloads(state, value)
    elif isinstance(response, list):
        for value in response:
            note_payloads(state, value)


def foreign_payload(state: ClientState, pid: Any) -> Any:
    """NOT_FOUND when this client reads a payload no answer of its own kept (under the
    handshake protocols a payload is its session's, as its roots are); said whether or not
    the id exists, so that one client learns nothing of another's ids. None when it may read
    it (its own, or any id under the stateless revision, which keeps nothing)."""
    from jqmagic.core.errors import JqMagicError

    if state.stateless or not isinstance(pid, str) or pid in state.kept_ids:
        return None
    return JqMagicError("NOT_FOUND", f"No payload {pid[:40]} was kept for this session.",
                        "A payload is read in the session whose answer kept it: ask the "
                        "question again here.")


async def set_level(ctx: Any, params: Any) -> Any:
    """``logging/setLevel``: this client's level (messages below it are not sent)."""
    from mcp import types

    state_of(ctx).level = params.level
    return types.EmptyResult()


async def tell(ctx: Any, level: str, data: Any) -> None:
    """A log message to the client of ``ctx`` when ``level`` is at or above its level
    (under the stateless revision the SDK sends it only when the request asked for it)."""
    state = state_of(ctx)
    if state.stateless or LEVELS.index(level) >= LEVELS.index(state.level):
        await ctx.session.send_log_message(level=level, data=data, logger="jqmagic",
                                           related_request_id=ctx.request_id)
