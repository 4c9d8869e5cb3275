"""Normalize: the first stage of reading a shopper's message (pure functions, no I/O).

Public API (stable; later stages import only these names from this package):

- `detect_language(text, default="en") -> str`: "en", "fr" or "ja"; `default` when the text is
  too short or ambiguous to tell.
"""

from commerce_agent.agent.language.detect import LANGUAGES, detect_language

__all__ = ["LANGUAGES", "detect_language"]
