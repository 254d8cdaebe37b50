"""``jqmagic mcp --http``: the same server over MCP's streamable HTTP (the SDK's transport),
at ``http://127.0.0.1:PORT/mcp``, every request carrying ``Authorization: Bearer TOKEN``.

The token is ``JQMAGIC_MCP_TOKEN`` when set, else a new random one printed on stderr at
start; a request without it is 401. The server listens on 127.0.0.1 unless ``--host``
says otherwise (then the token is all that guards it).
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
from typing import Any

from jqmagic.core.settings import env_text

PATH = "/mcp"


def token() -> str:
    """The bearer token: the environment's, else a new one."""
    return env_text("JQMAGIC_MCP_TOKEN") or secrets.token_urlsafe(32)


def guarded(app: Any, expected: str) -> Any:
    """An ASGI app that answers 401 to any HTTP request without the bearer token."""
    wanted = f"Bearer {expected}".encode()

    async def guard(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or ()).get(b"authorization", b"")
            if not hmac.compare_digest(given, wanted):
                body = json.dumps({"error": "A bearer token is needed: Authorization: "
                                            "Bearer <the token jqmagic mcp printed>."}).encode()
                await send({"type": "http.response.start", "status": 401, "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b'Bearer realm="jqmagic"')]})
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guard


def serve(host: str, port: int) -> None:
    """Serve the tools on ``host:port`` until interrupted."""
    import contextlib

    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from jqmagic.mcp import build_server
    from jqmagic.tools import transport

    transport.ascii_wire()  # the SDK writes this transport's JSON in ASCII
    manager = StreamableHTTPSessionManager(app=build_server())

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        async with manager.run():
            yield

    expected = token()
    app = Starlette(routes=[Mount(PATH, app=manager.handle_request)], lifespan=lifespan)
    shown = "(JQMAGIC_MCP_TOKEN)" if env_text("JQMAGIC_MCP_TOKEN") else expected
    print(f"jqmagic mcp: http://{host}:{port}{PATH} token: {shown}", file=sys.stderr,
          flush=True)
    uvicorn.run(guarded(app, expected), host=host, port=port, log_level="warning")
