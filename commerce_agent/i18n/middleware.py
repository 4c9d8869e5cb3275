"""Pure ASGI middleware: negotiate the locale once per request, answer with Content-Language.

It sets scope["state"]["locale"] (read by commerce_agent.http.request_locale) and adds
`Content-Language` and `Vary: Accept-Language` to the response start, except below the
`skip` prefixes (the agent API, whose text is not localized).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, negotiate

_VARY = (b"vary", b"Accept-Language")


class LocaleMiddleware:
    def __init__(self, app: ASGIApp, skip: tuple[str, ...] = ()) -> None:
        self.app = app
        self.skip = skip

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        values = [value for name, value in scope["headers"] if name == b"accept-language"]
        locale = negotiate(b",".join(values)) if values else DEFAULT_LOCALE
        scope.setdefault("state", {})["locale"] = locale
        if self.skip and str(scope["path"]).startswith(self.skip):
            await self.app(scope, receive, send)
            return
        language = (b"content-language", locale.encode())

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"content-language" for name, _ in headers):
                    headers.append(language)
                headers.append(_VARY)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_language)
