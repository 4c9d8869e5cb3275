"""gzip for the answers worth it: HTML, CSS, JavaScript, SVG and JSON bodies of 1 KiB or more,
to clients that send `Accept-Encoding: gzip` (Starlette's GZipMiddleware).

Streams are never compressed: Server-Sent Events (order updates, MCP) and NDJSON (the agent's
session stream, following journals) must reach the client line by line as written, and a
compressor would hold lines back. Images already compressed are left alone too.
"""

from __future__ import annotations

from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.types import ASGIApp

MINIMUM_SIZE = 1024
LEVEL = 6  # most of level 9's saving for a fraction of its CPU
STREAMS = ("text/event-stream", "application/x-ndjson", "application/jsonl",
           "application/json-seq")


def compressed(app: ASGIApp) -> ASGIApp:
    return GZipMiddleware(app, minimum_size=MINIMUM_SIZE, compresslevel=LEVEL,
                          exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, *STREAMS))
