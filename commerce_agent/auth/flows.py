"""Where the account flows live, as advertised by dev.commerce.auth.flows@1.0.

Pages (HTML forms, no JavaScript) are under /account/, the JSON token API under /auth/.
"""

from __future__ import annotations

from typing import Any

from commerce_agent.auth.accounts import ACCESS_TOKEN_LIFETIME, REFRESH_TOKEN_LIFETIME
from commerce_agent.settings import Settings

SIGN_IN_PATH = "/account/sign-in"
SIGN_OUT_PATH = "/account/sign-out"
REGISTRATION_PATH = "/account/register"
PROFILE_PAGE_PATH = "/account/profile"
TOKEN_PATH = "/auth/token"  # noqa: S105 - a URL path
REFRESH_PATH = "/auth/refresh"
REVOKE_PATH = "/auth/revoke"
TOKEN_SIGN_OUT_PATH = "/auth/sign-out"  # noqa: S105 - a URL path


def capability_metadata(settings: Settings) -> dict[str, Any]:
    """Metadata of dev.commerce.auth.flows@1.0 (upstream auth/flows/v1.json plus token URLs)."""
    base = settings.base_url.rstrip("/")
    return {
        "_version": "1.0",
        "signInUrl": base + SIGN_IN_PATH,
        "signOutUrl": base + SIGN_OUT_PATH,
        "registrationUrl": base + REGISTRATION_PATH,
        "profileUrl": base + PROFILE_PAGE_PATH,
        "tokenFormat": "opaque",
        "tokenLocation": "header",
        "methods": ["password"],
        "sessionDuration": ACCESS_TOKEN_LIFETIME,
        "refreshTokenSupported": True,
        "refreshTokenLifetime": REFRESH_TOKEN_LIFETIME,
        "tokenUrl": base + TOKEN_PATH,
        "refreshUrl": base + REFRESH_PATH,
        "revocationUrl": base + REVOKE_PATH,
        "tokenSignOutUrl": base + TOKEN_SIGN_OUT_PATH,
    }


def profile_capability_metadata(settings: Settings) -> dict[str, Any]:
    """Metadata of dev.commerce.user.profile@1.0: where to read and edit the profile."""
    base = settings.base_url.rstrip("/")
    return {"_version": "1.0", "url": base + "/user/profile",
            "editUrl": base + PROFILE_PAGE_PATH}
