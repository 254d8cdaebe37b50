"""The web: pages as clean markdown, JSON kept queryable, and search.

- ``fetch``: :func:`fetch` and :class:`FetchResult` (windows of lines, jq on JSON);
- ``download``: HTTP with caps and the sandbox's address rule on every hop;
- ``decode``: what a body is and its text; ``html`` + ``extract``: HTML to markdown;
- ``search``: Brave and Google in one result format.
"""

from jqmagic.core.web.fetch import FetchResult, fetch, parse_headers
from jqmagic.core.web.search import SearchResults, search

__all__ = ["FetchResult", "SearchResults", "fetch", "parse_headers", "search"]
