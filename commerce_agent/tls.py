"""The TLS context the app's outgoing HTTP clients verify servers with.

httpx builds a new context for every client, reading the whole CA bundle each time (about
70 ms); the app opens two clients at every start (the agent's and the webhook sender's). The
context is built once per process instead, by httpx's own rules, and shared: an SSLContext is
meant to be shared by connections.
"""

from __future__ import annotations

import ssl
from functools import lru_cache

import httpx


@lru_cache(maxsize=2)
def client_context(trust_env: bool = True) -> ssl.SSLContext:
    """What httpx would build for a client with `verify=True` and this `trust_env`
    (SSL_CERT_FILE and SSL_CERT_DIR are read only when it is true)."""
    return httpx.create_ssl_context(trust_env=trust_env)
