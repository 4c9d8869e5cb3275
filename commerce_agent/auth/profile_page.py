"""The profile page (templates/profile.html): the same profile as GET/PATCH /user/profile,
edited with HTML forms.

Each form posts an `action` (preferences, billing, clear_billing, add_address,
remove_address); the page turns it into a `ProfilePatch` and applies it with the same
validation as the JSON API, then redirects (303) back to itself.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth import flows, web
from commerce_agent.auth.web import Browser
from commerce_agent.commerce.services import profile as service
from commerce_agent.digits import whole_number
from commerce_agent.errors import CommerceError
from commerce_agent.routing import Route

_ADDRESS_FIELDS = (("streetAddress", "Street address", True),
                   ("addressLocality", "City", True),
                   ("addressRegion", "Region or state", True),
                   ("postalCode", "Postal code", True),
                   ("addressCountry", "Country", False))


def _address_text(address: service.PostalAddress) -> str:
    parts = [address.streetAddress, address.addressLocality, address.addressRegion,
             address.postalCode, address.addressCountry or ""]
    return ", ".join(part for part in parts if part)


def _render(browser: Browser, profile: service.Profile, note: str = "", error: str = "",
            status: int = 200) -> Response:
    assert browser.principal is not None
    billing = msgspec.to_builtins(profile.defaultBillingAddress) \
        if profile.defaultBillingAddress else {}
    return browser.page(
        "profile.html", status, title="Your profile", email=browser.principal.email,
        sign_out_url=flows.SIGN_OUT_PATH, action=flows.PROFILE_PAGE_PATH,
        csrf_token=browser.csrf_token(), note=note, error=error,
        preferences=profile.preferences, consent_given=profile.consentGiven,
        address_fields=_ADDRESS_FIELDS, billing=billing,
        saved=[(entry.label, _address_text(entry.address))
               for entry in profile.savedAddresses])


def _address(form: dict[str, str]) -> dict[str, str]:
    address = {name: form.get(name, "").strip() for name, _, _ in _ADDRESS_FIELDS}
    if not address["addressCountry"]:
        del address["addressCountry"]
    return address


def _patch(form: dict[str, str], profile: service.Profile) -> dict[str, Any]:
    """The JSON-shaped patch a form post stands for (validated by the caller)."""
    action = form.get("action", "")
    if action == "preferences":
        language = form.get("language", "").strip()
        currency = form.get("currency", "").strip().upper()
        return {"preferences": {"language": language or None, "currency": currency or None,
                                "notifications": "notifications" in form},
                "consentGiven": "consentGiven" in form}
    if action == "billing":
        return {"defaultBillingAddress": _address(form)}
    if action == "clear_billing":
        return {"defaultBillingAddress": None}
    current = msgspec.to_builtins(profile.savedAddresses)
    if action == "add_address":
        return {"savedAddresses": [*current, {"label": form.get("label", "").strip(),
                                              "address": _address(form)}]}
    if action == "remove_address":
        index = form.get("index", "")
        position = whole_number(index)
        if position is not None and position < len(current):
            del current[position]
        return {"savedAddresses": current}
    raise ValueError(f"unknown action {action!r}")


def _sign_in_first() -> Response:
    return web.redirect(f"{flows.SIGN_IN_PATH}?next={quote(flows.PROFILE_PAGE_PATH)}")


async def profile_page(request: Request) -> Response:
    """The signed-in user's profile with its edit forms (sign-in first otherwise)."""
    browser = await Browser.of(request)
    if browser.principal is None:
        return browser.respond(_sign_in_first())
    profile = await service.get_profile(request.app.state.db, browser.principal.user_id)
    note = "Saved." if request.query_params.get("saved") == "1" else ""
    return _render(browser, profile, note)


async def update_profile(request: Request) -> Response:
    """Apply one profile form, then redirect (303) back to the profile page."""
    browser = await Browser.of(request)
    # The form's shape is checked before who sent it: a post without the form, its action or
    # its CSRF field is refused (400) signed in or not; one from a browser whose session
    # ended goes on to the sign-in page.
    form = await web.read_form(request)
    if form is None or not form.get("action") or not form.get("csrf_token"):
        return web.bad_form(request)
    if browser.principal is None:
        return browser.respond(_sign_in_first())
    if not browser.csrf_ok(form):
        return web.form_expired(browser, flows.PROFILE_PAGE_PATH)
    db = request.app.state.db
    user_id = browser.principal.user_id
    profile = await service.get_profile(db, user_id)
    try:
        patch = msgspec.convert(_patch(form, profile), service.ProfilePatch)
        async with db.transaction() as tx:
            await service.update_profile(tx, user_id, patch)
    except ValueError as exc:  # msgspec.ValidationError is a ValueError
        return _render(browser, profile, error=f"Not saved: {exc}.", status=400)
    except CommerceError as exc:
        return _render(browser, profile, error=f"Not saved: {exc.message}", status=exc.status)
    return browser.respond(web.redirect(f"{flows.PROFILE_PAGE_PATH}?saved=1"))


routes = [
    Route(flows.PROFILE_PAGE_PATH, profile_page, methods=["GET"]),
    Route(flows.PROFILE_PAGE_PATH, update_profile, methods=["POST"]),
]
