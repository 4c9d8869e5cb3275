"""The site's layout for pages other packages render: the account pages, the consent page
(commerce_agent.auth, commerce_agent.agent) and the error pages are drawn in the shop's
base.html (its header, with the way back to the shop, and its footer), without its scripts.

The account packages cannot import the web app (it imports them), so the app installs
`site_page` as `app.state.site_page` (app.py), as it installs the error pages; their templates
extend "base.html", found after their own on the loader's path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse

from commerce_agent.auth import flows
from commerce_agent.auth.tokens import Principal
from commerce_agent.web import paths
from commerce_agent.web.templates import render_with

ACCOUNT_PAGE = "account"  # base.html's `page` for them: no scripts, no chat, one column


def layout_values(request: Request, page: str, user: Principal | None) -> dict[str, Any]:
    """What base.html reads, for a page that is not one of the shop's own (pages.py fills
    the same names for those, with the shopper's carts)."""
    return {
        "page": page, "csrf_token": "", "merchant": False, "cart_count": None,
        "user": None if user is None else {"name": user.name, "email": user.email},
        "agent_mount": request.app.state.settings.agent_mount,
        "base_url": request.app.state.settings.base_url.rstrip("/"), "locale": None,
        "paths": paths, "sign_in_url": flows.SIGN_IN_PATH, "sign_out_url": flows.SIGN_OUT_PATH,
        "register_url": flows.REGISTRATION_PATH, "profile_url": flows.PROFILE_PAGE_PATH,
    }


def site_page(request: Request, packages: tuple[str, ...], template: str, status: int,
              headers: Mapping[str, str], user: Principal | None,
              context: dict[str, Any]) -> HTMLResponse:
    """`template` of `packages` in the site's layout, with the caller's `headers` (the
    caller's context wins over the layout's names: a sign-in link keeps its `next`)."""
    values = {**layout_values(request, ACCOUNT_PAGE, user), **context}
    return render_with(packages, template, status=status, headers=headers, **values)
