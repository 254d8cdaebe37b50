"""``jqmagic mcp --http``: the same server over MCP's streamable HTTP (the SDK's transport),
at ``http://127.0.0.1:PORT/mcp`` (``/mcp/`` too, neither redirected), every request carrying
``Authorization: Bearer TOKEN``.

The token is ``JQMAGIC_MCP_TOKEN`` when set, else a new random one printed on stderr at
start; a request without it, or with another, is 401 with a JSON-RPC error saying which.
Host and Origin are checked against DNS rebinding (the SDK's transport security): the
Host must name the address served (``localhost``, ``127.0.0.1`` or ``[::1]`` with the port,
or ``--host``'s), else 421; a browser's Origin must be that same server, else 403;
``--allow-host`` and ``--allow-origin`` add others. The server listens on 127.0.0.1 unless
``--host`` says otherwise (then the token is all that guards it from the network).
"""

from __future__ import annotations

import argparse
import hmac
import json
import secrets
import sys
from typing import Any

from jqmagic.core.settings import env_text

PATH = "/mcp"
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")


def token() -> str:
    """The bearer token: the environment's, else a new one."""
    return env_text("JQMAGIC_MCP_TOKEN") or secrets.token_urlsafe(32)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--http`` and the flags of the HTTP server."""
    group = parser.add_argument_group("streamable HTTP (instead of stdio)")
    group.add_argument("--http", action="store_true",
                       help="serve over streamable HTTP at http://HOST:PORT/mcp, with a bearer "
                            "token (JQMAGIC_MCP_TOKEN, else a new one printed on stderr)")
    group.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    group.add_argument("--port", type=int, default=8765, help="the port (default 8765)")
    group.add_argument("--allow-host", action="append", default=[], metavar="HOST[:PORT]",
                       help="another Host header to answer (repeatable; HOST:* for any "
                            "port), e.g. the name a proxy forwards; others get 421")
    group.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="a browser Origin to answer, e.g. https://app.example "
                            "(repeatable; ORIGIN:* for any port); others get 403")


def security(host: str, port: int, hosts: list[str], origins: list[str]) -> Any:
    """The SDK's DNS-rebinding protection for a server on ``host:port``: its own names (and
    the local ones) as Host and as http Origin, plus ``hosts`` and ``origins``."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = {host if ":" not in host else f"[{host}]", *LOCAL_NAMES}
    served = sorted(f"{name}:{port}" for name in names)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=[*served, *hosts],
        allowed_origins=[*(f"http://{s}" for s in served), *origins])


def _refusal(message: str, status: int) -> tuple[dict, bytes]:
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": message}}
    return {"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"),
        (b"www-authenticate", b'Bearer realm="jqmagic"')]}, json.dumps(body).encode()


GONE = "jqmagic.gone"  # the scope's threading.Event, set when its client hangs up


def guarded(app: Any, expected: str) -> Any:
    """An ASGI app that answers 401 to any HTTP request without the bearer token, saying
    whether it was missing or another. A request's scope carries :data:`GONE`, set when
    its client hangs up: with no event store nothing could resume the stream, so the tool
    call it carries is stopped (:class:`jqmagic.tools.mcp.ToolCall`), not left to run to
    its timeout holding a worker from the other clients."""
    import threading

    wanted = f"Bearer {expected}".encode()

    async def guard(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or ()).get(b"authorization", b"")
            if not hmac.compare_digest(given, wanted):
                said = ("The bearer token is missing: send the header Authorization: Bearer "
                        "<token>, the token being JQMAGIC_MCP_TOKEN or the one jqmagic mcp "
                        "printed when it started." if not given else
                        "The bearer token is not this server's: use JQMAGIC_MCP_TOKEN or the "
                        "one jqmagic mcp printed when it started.")
                start, body = _refusal(said, 401)
                await send(start)
                await send({"type": "http.response.body", "body": body})
                return
            scope[GONE] = gone = threading.Event()

            async def heard() -> Any:
                message = await receive()
                if message["type"] == "http.disconnect":
                    gone.set()
                return message

            await app(scope, heard, send)
            return
        await app(scope, receive, send)

    return guard


def serve(args: argparse.Namespace, server: Any) -> None:
    """Serve ``server`` (the MCP server :mod:`.mcp` builds) on ``args.host:args.port``
    until interrupted."""
    import contextlib

    import uvicorn
    from mcp.server.streamable_http_manager import (
        StreamableHTTPASGIApp,
        StreamableHTTPSessionManager,
    )
    from starlette.applications import Starlette
    from starlette.routing import Route

    from jqmagic.tools import mcpclients, transport

    transport.ascii_wire()  # the SDK writes this transport's JSON in ASCII
    mcpclients.SHARED[0] = True
    manager = StreamableHTTPSessionManager(
        app=server, security_settings=security(args.host, args.port, args.allow_host,
                                                       args.allow_origin))

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        async with manager.run():
            yield

    expected = token()
    endpoint = StreamableHTTPASGIApp(manager)
    app = Starlette(routes=[Route(PATH, endpoint=endpoint), Route(PATH + "/", endpoint=endpoint)],
                    lifespan=lifespan)
    shown = "(JQMAGIC_MCP_TOKEN)" if env_text("JQMAGIC_MCP_TOKEN") else expected
    print(f"jqmagic mcp: http://{args.host}:{args.port}{PATH} token: {shown}", file=sys.stderr,
          flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1") and not args.allow_host:
        print(f"jqmagic mcp: requests whose Host is not {args.host}:{args.port} or a local "
              "name are refused (421): add --allow-host NAME:PORT for the names clients use",
              file=sys.stderr, flush=True)
    uvicorn.run(guarded(app, expected), host=args.host, port=args.port, log_level="warning")
