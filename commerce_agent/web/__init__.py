"""The web app: storefront, order pages, the agent chat and the merchant console (console.py),
served by the same process.

The pages are server-rendered shells (Jinja2 templates beside this package); their plain
JavaScript (static/) calls the public APIs — the Commerce API routes, the order-updates SSE
stream and the agent's NDJSON stream — exactly as any other client would. See docs/web.md.
"""
