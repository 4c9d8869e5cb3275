"""Every account route: the HTML pages under /account/ and the JSON token API under /auth/."""

from __future__ import annotations

from starlette.routing import BaseRoute

from commerce_agent.auth import api, pages, profile_page

routes: list[BaseRoute] = [*pages.routes, *profile_page.routes, *api.routes]
