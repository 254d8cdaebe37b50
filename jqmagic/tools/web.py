"""The web tools: web_fetch, web_search_brave and web_search_google (the web tools spec)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from jqmagic.tools.schema import Param
from jqmagic.tools.spec import tool

_SIGNUP = {"brave": "https://brave.com/search/api/",
           "google": "https://developers.google.com/custom-search/v1/overview"}
_EXAMPLE = {"brave": {"api_key": "your-api-key-here"},
            "google": {"api_key": "your-api-key-here", "engine_id": "your-search-engine-id"}}


MAX_LENGTH = 5_000


@tool(open_world=True, bounds_itself=True)
def web_fetch(
    url: Annotated[str, Param("The URL to fetch content from (http or https).",
                              format="uri", min_length=1)],
    max_length: Annotated[int, Param(
        "Most characters of content to return (with start_index).", minimum=1,
        maximum=200_000)] = MAX_LENGTH,
    start_index: Annotated[int, Param(
        "First character to return: the next_start_index of the previous answer.",
        minimum=0)] = 0,
    offset: Annotated[int | None, Param(
        "Page by lines instead: the line number to start reading from (1-based).",
        minimum=1)] = None,
    limit: Annotated[int | None, Param("With lines: the most lines to return.",
                                       minimum=1)] = None,
    comments: Annotated[bool, Param(
        "Return the page's reader comments as the content (paged by start_index) instead "
        "of its main content, which leaves them out.")] = False,
) -> dict[str, Any]:
    """Fetch a web page or document and return it as markdown (JSON and text as they are).

    Use it to read a page you know the URL of (documentation, an article, a search
    result, a JSON API). Returns `title`, `content` (markdown: headings, links, lists,
    code), `url` (after redirects), `total_chars` and `next_start_index` when more is
    left: call again with start_index=next_start_index. Or page by lines with offset and
    limit (`total_lines`, `next_offset`). robots.txt is honoured.

    Examples:
    - The start of a page: url="https://docs.python.org/3/library/json.html"
    - Read on: url="https://docs.python.org/3/library/json.html", start_index=5000
    - More at once: url="https://example.com/guide", max_length=20000
    - Lines 101-200: url="https://example.com/guide", offset=101, limit=100
    - The reader comments an answer's `comments` began: url="https://example.com/post",
      comments=true
    """
    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.web.fetch import fetch

    by_lines = offset is not None or limit is not None
    if comments and by_lines:
        raise JqMagicError("INVALID_ARGUMENT", "comments are paged by characters, not lines",
                           "Drop offset and limit; read on with start_index.")
    result = fetch(url, offset=offset, limit=limit, robots=_robots())
    out = result.to_dict()
    out.pop("value", None)  # the parsed JSON repeats `content`
    if comments:  # the thread whole, paged as the content is
        out.pop("comments", None)
        out["content"] = result.comments
        if not result.comments:
            out["message"] = "The page has no reader comments apart from its main content."
    if by_lines:
        if not out["content"] and result.total_lines and (offset or 1) > result.total_lines:
            out["message"] = (f"No lines at offset {offset}: the page has "
                              f"{result.total_lines:,} lines.")
        out = _bounded_page(out, limit)
        if out.get("next_offset") and "next_arguments" not in out:  # the caller's window
            out["next_arguments"] = {"offset": out["next_offset"]}
        return out
    return _characters(out, start_index, max_length)


def _robots() -> bool:
    """Whether robots.txt is honoured: on the agent faces unless their flag says not."""
    from jqmagic.tools import policy

    return policy.robots_honoured()


def _characters(out: dict[str, Any], start: int, max_length: int) -> dict[str, Any]:
    """Characters ``start`` to ``start + max_length`` of the content (fewer when escaping
    would push the answer past the bound), and where to read on."""
    from jqmagic.tools import transport

    text = out["content"]
    part = text[start:start + max_length]
    if transport.escaped_size(part) > transport.content_budget():
        part = transport.text_page(part, 0, transport.content_budget())
    end = start + len(part)
    out.update(content=part, start_index=start, total_chars=len(text),
               next_start_index=end if end < len(text) else None)
    if start >= len(text) and text:
        out["message"] = f"No more content: the page has {len(text):,} characters."
    elif end < len(text):
        more = f", max_length={max_length}" if max_length != MAX_LENGTH else ""
        out.update(truncated=True, next_arguments={"start_index": end},
                   message=f"Showing characters {start:,}-{end:,} of "
                   f"{len(text):,}. Read on with start_index={end}{more}.")
    return out


def _bounded_page(out: dict[str, Any], limit: int | None) -> dict[str, Any]:
    """Cut ``content`` after the last whole line within one answer (escaped, as the wire
    carries it); keep the whole and say which offset reads on."""
    from jqmagic.tools import transport
    from jqmagic.tools.results import kept

    budget = transport.content_budget()
    if transport.escaped_size(out["content"]) <= budget:
        return out
    stored = kept(out)
    lines, shown, size = out["content"].split("\n"), 0, 0
    for line in lines:
        size += transport.escaped_size(line) + 2
        if size > budget:
            break
        shown += 1
    long_line = ""
    if not shown:  # one line alone is over the bound: its start
        long_line = (f" Line {out['offset']:,} alone is longer than one answer: its start is "
                     "shown; page through the page by characters with start_index instead.")
        lines, shown = [transport.text_page(lines[0], 0, budget)], 1
    last = out["offset"] + shown - 1
    more = f", limit={limit}" if limit else ""
    out.update(content="\n".join(lines[:shown]), next_offset=last + 1,
               next_arguments={"offset": last + 1}, truncated=True,
               payload_id=stored["payload_id"], payload_path=stored["payload_path"],
               message=f"Truncated. Showing lines {out['offset']:,}-{last:,} of "
                       f"{out['total_lines']:,} (about {transport.tokens():,} tokens at most). "
                       f"The full text is in payload {stored['payload_id']} "
                       f"({stored['payload_path']}). Read on with offset={last + 1}{more}."
                       f"{long_line}")
    return out


def _search(provider: str, query: str, count: int, offset: int, allowed: list[str] | None,
            blocked: list[str] | None) -> dict[str, Any]:
    from jqmagic.core.web.search import search

    result = search(query, provider=provider, count=count, offset=offset,
                    allowed_domains=allowed, blocked_domains=blocked)
    out = result.to_dict()
    if not result.results:
        out["message"] = result.to_markdown()
    return out


def config_required(provider: str) -> dict[str, str]:
    """The ``config_required`` event for a search provider whose credentials are missing."""
    from jqmagic.core.web.search import AUTH_HELP, credentials_path

    path = credentials_path()
    example = json.dumps({"web_search": {provider: _EXAMPLE[provider]}}, indent=2)
    data: dict[str, Any] = {"tool": f"web_search_{provider}", "signup_url": _SIGNUP[provider]}
    if provider == "brave":
        data["credential"] = "api_key"
    else:
        data["credentials"] = ["api_key", "engine_id"]
    return {"kind": "config_required",
            "content": f"⚠ Configuration Required\n\n{AUTH_HELP[provider].format(path=path)}"
                       f"\n\nExample:\n{example}",
            "data_json": json.dumps(data)}


_QUERY = Param("The search query to use", min_length=2)
_ALLOWED = Param("Only include search results from these domains")
_BLOCKED = Param("Never include search results from these domains")
_API = {"brave": "the Brave Search API", "google": "Google Custom Search"}


def _search_tool(provider: str, five: str, next_page: tuple[str, str]) -> Callable:
    """Mark a handler as the web search tool through ``provider``, with the description
    every search tool has (an agent reads one tool's at a time: each says it all): ``five``
    asks for five results and ``next_page`` (what, how) pages on, in the tool's own names."""
    what, how = next_page
    description = f"""Search the web with {_API[provider]}: titles, links and snippets.

    Use it for current events, recent releases, documentation you have no URL for, or
    facts to check; then read the best results with web_fetch. Returns `results`, each
    {{title, url, snippet}}, and `count`.

    Examples:
    - query="python 3.13 release notes"
    - query="jq select multiple fields", {five}
    - Only official docs: query="asyncio timeout", allowed_domains=["docs.python.org"]
    - {what}: query="rust async guide", {how}
    """

    def mark(handler: Callable) -> Callable:
        handler.__doc__ = description
        return tool(open_world=True, config_required=lambda: config_required(provider))(handler)

    return mark


@_search_tool("brave", five="count=5", next_page=("Next page", "offset=1"))
def web_search_brave(
    query: Annotated[str, _QUERY],
    count: Annotated[int, Param("Number of results to return (1-20)", minimum=1,
                                maximum=20)] = 10,
    offset: Annotated[int, Param("Result offset for pagination", minimum=0)] = 0,
    allowed_domains: Annotated[list[str] | None, _ALLOWED] = None,
    blocked_domains: Annotated[list[str] | None, _BLOCKED] = None,
) -> dict[str, Any]:
    return _search("brave", query, count, offset, allowed_domains, blocked_domains)


@_search_tool("google", five="num=5", next_page=("Results 11-20", "start=11"))
def web_search_google(
    query: Annotated[str, _QUERY],
    num: Annotated[int, Param("Number of results to return (1-10)", minimum=1,
                              maximum=10)] = 10,
    start: Annotated[int, Param("Result index offset for pagination (1-based, max 91)",
                                minimum=1, maximum=91)] = 1,
    allowed_domains: Annotated[list[str] | None, _ALLOWED] = None,
    blocked_domains: Annotated[list[str] | None, _BLOCKED] = None,
) -> dict[str, Any]:
    return _search("google", query, num, start - 1, allowed_domains, blocked_domains)
