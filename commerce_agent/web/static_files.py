"""GET /shop/static/{name}: the web app's scripts, styles and images, read from the package
once; GET /shop/media/{name}: the sample stores' product images (sample_data/images).

Only the files shipped are served (a fixed set read at first use), so no path can reach
outside them. Pages link each file with its content hash (`?v=<hash>`, `url`), and scripts'
imports of each other are rewritten the same way, so a hashed URL names one content forever:
it is cached for a year, immutable. Any other request of a file is revalidated with its ETag.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from importlib import resources
from importlib.abc import Traversable

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.errors import CommerceError
from commerce_agent.seed import sample_data_dir
from commerce_agent.web import paths

MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".svg": "image/svg+xml", ".png": "image/png", ".webp": "image/webp"}
IMMUTABLE = "public, max-age=31536000, immutable"
_IMPORT = re.compile(rb'(from\s+|import\s*\(?\s*)"\./([A-Za-z0-9_.-]+\.js)"')


class Served:
    __slots__ = ("content", "media_type", "etag", "version")

    def __init__(self, content: bytes, media_type: str) -> None:
        self.content, self.media_type = content, media_type
        self.version = hashlib.sha256(content).hexdigest()[:16]
        self.etag = f'"{self.version}"'


def _read(entries: Iterable[Traversable]) -> dict[str, bytes]:
    found = {}
    for entry in entries:
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in MEDIA_TYPES:
            found[entry.name] = entry.read_bytes()
    return found


def _with_versions(raw: dict[str, bytes]) -> dict[str, Served]:
    """Each file, its imports of sibling scripts rewritten to their hashed URLs (a script's
    hash covers its imports' hashes, so a change anywhere below changes it too)."""
    done: dict[str, Served] = {}

    def resolve(name: str, seen: tuple[str, ...] = ()) -> Served:
        if name in done:
            return done[name]
        content = raw[name]
        if name.endswith(".js"):
            def versioned(match: re.Match[bytes]) -> bytes:
                target = match.group(2).decode()
                if target not in raw or target in seen:
                    return match.group(0)
                version = resolve(target, (*seen, name)).version
                return match.group(1) + f'"./{target}?v={version}"'.encode()
            content = _IMPORT.sub(versioned, content)
        served = done[name] = Served(content, MEDIA_TYPES["." + name.rsplit(".", 1)[-1]])
        return served

    for name in raw:
        resolve(name)
    return done


_static: dict[str, Served] | None = None
_media: dict[str, Served] | None = None


def files() -> dict[str, Served]:
    global _static
    if _static is None:
        _static = _with_versions(_read(
            resources.files("commerce_agent.web").joinpath("static").iterdir()))
    return _static


def media() -> dict[str, Served]:
    global _media
    if _media is None:
        folder = sample_data_dir() / "images"
        _media = _with_versions(_read(folder.iterdir()) if folder.is_dir() else {})
    return _media


def exists(name: str) -> bool:
    return name in files()


def url(name: str) -> str:
    """The hashed URL of a static file (pages link these)."""
    return f"{paths.STATIC_PREFIX}{name}?v={files()[name].version}"


def _answer(request: Request, found: Served | None, immutable_ok: bool) -> Response:
    if found is None:
        raise CommerceError(404, "not_found", "No such file.")
    immutable = immutable_ok and request.query_params.get("v") == found.version
    headers = {"ETag": found.etag, "Cache-Control": IMMUTABLE if immutable else "no-cache",
               "X-Content-Type-Options": "nosniff"}
    if request.headers.get("if-none-match") == found.etag:
        return Response(status_code=304, headers=headers)
    return Response(found.content, media_type=found.media_type, headers=headers)


async def static_file(request: Request) -> Response:
    """One of the web app's scripts, styles or images."""
    return _answer(request, files().get(request.path_params["name"]), True)


async def media_file(request: Request) -> Response:
    """A sample product image; its URL never changes with its content, so it is cached a
    day and then revalidated."""
    response = _answer(request, media().get(request.path_params["name"]), False)
    if response.status_code in (200, 304):
        response.headers["Cache-Control"] = "public, max-age=86400"
    return response
