"""Internationalisation (dev.commerce.i18n@1.0): locales, negotiation, localized errors."""

from commerce_agent.i18n.locales import capability_metadata, locale_formats
from commerce_agent.i18n.messages import localize_error
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, SUPPORTED_LOCALES, choose

__all__ = ["DEFAULT_LOCALE", "SUPPORTED_LOCALES", "capability_metadata",
           "choose", "locale_formats", "localize_error"]
