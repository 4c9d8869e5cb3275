"""User profiles (dev.commerce.user.profile@1.0): saved addresses, billing, preferences, consent.

The profile is one JSON document per user (`users.profile`). `ProfilePatch` is the body of
PATCH /user/profile and what the account profile page builds from its forms: fields left out
stay as they are, `null` clears an optional one, `savedAddresses` replaces the whole list.

Hooks for other areas (None when the user has not set the preference):
``await preferences_for_token(db, token, state)`` — the saved preferences of the user holding a live
bearer token, in one indexed read and without a 401 for a bad token (for defaults);
``await locale_for_token(db, token)`` — the supported locale matching that user's saved
language; the i18n middleware uses it when a request carries no Accept-Language;
``await preferred_locale(db, user_id)`` — the same for a user id;
``await preferred_language(db, user_id)`` — the saved tag as written;
``await preferred_currency(db, user_id)`` — the saved ISO 4217 code (see docs/accounts.md for
where a currency preference can and cannot act).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Literal

import msgspec
from babel import Locale, UnknownLocaleError
from msgspec import UNSET, Meta, UnsetType

from commerce_agent.auth.bearer import remembered_owner, token_owner
from commerce_agent.commerce import money
from commerce_agent.commerce.storage import profiles as storage
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.i18n.negotiation import choose

VERSION = "1.0"
MAX_ADDRESSES = 20

_TEXT = r"^[^\u0000-\u001f\u007f]+$"  # no control characters
Street = Annotated[str, Meta(min_length=1, max_length=200, pattern=_TEXT)]
Locality = Annotated[str, Meta(min_length=1, max_length=100, pattern=_TEXT)]
PostalCode = Annotated[str, Meta(min_length=1, max_length=20, pattern=_TEXT)]
Country = Annotated[str, Meta(min_length=2, max_length=60, pattern=_TEXT)]
Label = Annotated[str, Meta(min_length=1, max_length=50, pattern=_TEXT)]
LanguageTag = Annotated[str, Meta(pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$",
                                  description="BCP 47 language tag, e.g. en-US")]
CurrencyCode = Annotated[str, Meta(pattern=r"^[A-Z]{3}$", description="ISO 4217 code",
                                   extra_json_schema={"enum": sorted(money.CURRENCIES)})]


class PostalAddress(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A structured postal address (schema.org PostalAddress fields)."""

    streetAddress: Street
    addressLocality: Locality
    addressRegion: Locality
    postalCode: PostalCode
    addressCountry: Country | None = None


class SavedAddress(msgspec.Struct, forbid_unknown_fields=True):
    label: Label
    address: PostalAddress


class Preferences(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True,
                  kw_only=True):
    notifications: bool
    language: LanguageTag | None = None
    currency: CurrencyCode | None = None


class Profile(msgspec.Struct, omit_defaults=True, kw_only=True):
    """The body of GET /user/profile."""

    version: str = msgspec.field(name="_version")
    savedAddresses: list[SavedAddress]
    preferences: Preferences
    consentGiven: bool
    defaultBillingAddress: PostalAddress | None = None


class _Stored(msgspec.Struct, omit_defaults=True, kw_only=True):
    """The document in users.profile (defaults for an empty `{}`)."""

    savedAddresses: list[SavedAddress] = []
    defaultBillingAddress: PostalAddress | None = None
    preferences: Preferences = msgspec.field(default_factory=lambda: Preferences(
        notifications=False))
    consentGiven: bool = False


class PreferencesPatch(msgspec.Struct, forbid_unknown_fields=True):
    language: LanguageTag | None | UnsetType = UNSET
    notifications: bool | UnsetType = UNSET
    currency: CurrencyCode | None | UnsetType = UNSET


class ProfilePatch(msgspec.Struct, forbid_unknown_fields=True):
    """The body of PATCH /user/profile: only the fields sent change."""

    version: Literal["1.0"] | UnsetType = msgspec.field(default=UNSET, name="_version")
    savedAddresses: Annotated[list[SavedAddress], Meta(max_length=MAX_ADDRESSES)] | UnsetType \
        = UNSET
    defaultBillingAddress: PostalAddress | None | UnsetType = UNSET
    preferences: PreferencesPatch | UnsetType = UNSET
    consentGiven: bool | UnsetType = UNSET


_stored = msgspec.json.Decoder(_Stored)
_encoder = msgspec.json.Encoder()


def _view(stored: _Stored) -> Profile:
    return Profile(version=VERSION, savedAddresses=stored.savedAddresses,
                   preferences=stored.preferences, consentGiven=stored.consentGiven,
                   defaultBillingAddress=stored.defaultBillingAddress)


async def _load(db: Database | Transaction, user_id: str) -> _Stored:
    document = await storage.read_profile(db, user_id)
    if document is None:
        raise CommerceError(404, "user_not_found", "This account no longer exists.")
    return _stored.decode(document)


async def get_profile(db: Database, user_id: str) -> Profile:
    return _view(await _load(db, user_id))


def check(patch: ProfilePatch) -> None:
    """Rules the struct types cannot express; 400 with a pointer at the first problem."""
    if not isinstance(patch.savedAddresses, UnsetType):
        seen: set[str] = set()
        for index, saved in enumerate(patch.savedAddresses):
            key = saved.label.strip().casefold()
            if key in seen:
                raise validation_error(f"/savedAddresses/{index}/label",
                                       "repeats the label of another saved address",
                                       saved.label)
            seen.add(key)
    if isinstance(patch.preferences, PreferencesPatch):
        language, currency = patch.preferences.language, patch.preferences.currency
        if isinstance(language, str):
            try:
                Locale.parse(language, sep="-")
            except (UnknownLocaleError, ValueError):
                raise validation_error("/preferences/language", "is not a known language tag",
                                       language) from None
        if isinstance(currency, str) and currency not in money.CURRENCIES:
            raise validation_error("/preferences/currency", "is not an ISO 4217 currency code",
                                   currency)


def apply(stored: _Stored, patch: ProfilePatch) -> _Stored:
    changes: dict[str, object] = {}
    if not isinstance(patch.savedAddresses, UnsetType):
        changes["savedAddresses"] = patch.savedAddresses
    if not isinstance(patch.defaultBillingAddress, UnsetType):
        changes["defaultBillingAddress"] = patch.defaultBillingAddress
    if not isinstance(patch.consentGiven, UnsetType):
        changes["consentGiven"] = patch.consentGiven
    if isinstance(patch.preferences, PreferencesPatch):
        update = {name: getattr(patch.preferences, name)
                  for name in PreferencesPatch.__struct_fields__
                  if not isinstance(getattr(patch.preferences, name), UnsetType)}
        changes["preferences"] = msgspec.structs.replace(stored.preferences, **update)
    return msgspec.structs.replace(stored, **changes)


async def update_profile(tx: Transaction, user_id: str, patch: ProfilePatch) -> Profile:
    check(patch)
    updated = apply(await _load(tx, user_id), patch)
    await storage.write_profile(tx, user_id, _encoder.encode(updated))
    return _view(updated)


async def _saved_preferences(db: Database, user_id: str) -> Preferences | None:
    """The user's saved preferences; None when the profile cannot be read."""
    try:
        stored = await _load(db, user_id)
    except CommerceError:
        return None
    return stored.preferences


async def preferred_language(db: Database, user_id: str) -> str | None:
    """The language tag the user saved (profile preferences.language), as written."""
    preferences = await _saved_preferences(db, user_id)
    return None if preferences is None else preferences.language


async def preferred_locale(db: Database, user_id: str) -> str | None:
    """The supported locale that best fits the user's saved language, or None when unset.

    For negotiation when a request sends no Accept-Language: the saved tag goes through the
    same matching as the header (commerce_agent.i18n.negotiation.choose), so `fr-CA` gives
    `fr`, and a language the server lacks gives the default locale.
    """
    language = await preferred_language(db, user_id)
    return None if language is None else _supported(language)


def _supported(language: str) -> str:
    return choose(language)


async def preferences_for_token(db: Database, token: str,
                                state: dict[str, Any] | None = None, *,
                                confirmed: bool = True) -> Preferences | None:
    """The preferences of the user holding a live bearer token (None for any other token).

    One indexed read — shared with the request's authentication when `state` (the ASGI
    scope's) is given, and none for a kept token when not `confirmed` (remembered_owner) —
    and no 401: callers use it to pick defaults, and refusing a bad token stays the business
    of the route that needs one.
    """
    owner = await (remembered_owner(state, db, token, confirmed=confirmed)
                   if state is not None else token_owner(db, token))
    return None if owner is None else _preferences(owner.profile)


@lru_cache(maxsize=1024)
def _preferences(profile: bytes) -> Preferences:
    # A kept token owner hands the same profile bytes to every request (auth/tokens.py):
    # decoded once. Shared between requests: read it, never change it.
    return _stored.decode(profile).preferences


async def locale_for_token(db: Database, token: str, state: dict[str, Any] | None = None,
                           *, confirmed: bool = True) -> str | None:
    """The supported locale for the saved language of the user holding `token`, or None."""
    preferences = await preferences_for_token(db, token, state, confirmed=confirmed)
    if preferences is None or preferences.language is None:
        return None
    return _supported(preferences.language)


async def preferred_currency(db: Database, user_id: str) -> str | None:
    preferences = await _saved_preferences(db, user_id)
    return None if preferences is None else preferences.currency
