"""The merchant console under /console: pages rendered on the server from the services the
admin API calls (orders board, catalog, import, returns, webhooks, store settings and
promotions, kept mail), readable without JavaScript. Every action is an HTML form that posts
with the page's CSRF token and answers with a redirect back (post/redirect/get); a refused
form is shown again with each problem beside the field that caused it. static/console-*.js
only enhance (the board refreshes itself).

Roles are checked here on every request: signed out, the page asks for a sign-in; a customer
gets the "merchant accounts only" page (403); a merchant sees only their stores' things, and
another merchant's store, item, order, return, webhook or message is 404.
"""
