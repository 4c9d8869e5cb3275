"""GET /shop/static/{name}: the web app's scripts and styles, read from the package once.

Only the files shipped in static/ are served (a fixed set read at first use), so no path
can reach outside it. Names carry no version, so answers are revalidated with an ETag.
"""

from __future__ import annotations

import hashlib
from importlib import resources

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.errors import CommerceError

MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".svg": "image/svg+xml", ".png": "image/png"}

_files: dict[str, tuple[bytes, str, str]] | None = None


def _load() -> dict[str, tuple[bytes, str, str]]:
    """name → (content, media type, ETag) of every file in static/."""
    found = {}
    for entry in resources.files("commerce_agent.web").joinpath("static").iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in MEDIA_TYPES:
            content = entry.read_bytes()
            etag = '"' + hashlib.sha256(content).hexdigest()[:16] + '"'
            found[entry.name] = (content, MEDIA_TYPES[suffix], etag)
    return found


def files() -> dict[str, tuple[bytes, str, str]]:
    global _files
    if _files is None:
        _files = _load()
    return _files


async def static_file(request: Request) -> Response:
    """One of the web app's scripts, styles or images."""
    name = request.path_params["name"]
    found = files().get(name)
    if found is None:
        raise CommerceError(404, "not_found", "No such file.")
    content, media_type, etag = found
    headers = {"ETag": etag, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(content, media_type=media_type, headers=headers)
