"""What the code cannot tell about each operation: responses, query parameters, form fields.

Request bodies, path parameters, auth and Idempotency-Key come from the app itself
(introspect.py). An operation missing here is still in the document, with its success answer
undescribed; `tests/api/test_openapi_document.py` lists such operations so they get an entry.
Keys are (METHOD, path); agent routes are keyed by their path below the agent mount.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from msgspec import Meta

from commerce_agent.auth.accounts import TokenPair
from commerce_agent.commerce.orders.model import OrderStatus
from commerce_agent.commerce.routes import webhooks as webhook_routes
from commerce_agent.commerce.routes.carts import GuestToken
from commerce_agent.commerce.routes.discovery import Price
from commerce_agent.commerce.routes.payments import ConfirmedIntent
from commerce_agent.commerce.services.profile import Profile
from commerce_agent.openapi import models
from commerce_agent.web.api_token import ApiToken

JSON = "application/json"
HTML = "text/html"


@dataclass(frozen=True)
class Answer:
    description: str
    schema: Any = None  # a type for msgspec to describe; None: no body
    media: str | None = None  # None: the API's media type (application/commerce+json)
    headers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Param:
    name: str
    schema: Any
    description: str
    required: bool = False


@dataclass(frozen=True)
class Operation:
    responses: dict[int, Answer]
    path: tuple[Param, ...] = ()  # path parameters the handler checks (others: any text)
    query: tuple[Param, ...] = ()
    headers: tuple[Param, ...] = ()
    body_required: bool = True
    form: dict[str, str] | None = None  # urlencoded field → description (HTML pages)
    required_form: tuple[str, ...] = ()
    raw_body: dict[str, str] | None = None  # a file as the body: media type → description
    description: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)


Limit = Annotated[int, Meta(ge=1, le=100)]
PAGE = (Param("limit", Limit, "Page size, 1 to 100 (default 20)."),
        Param("cursor", str, "Opaque: pass back pagination.nextCursor or previousCursor as "
                             "received. A cursor this server did not issue is refused with "
                             "400 bad_request."))
PAGE_OK = "A page of results."


def ok(schema: Any, description: str = "OK", status: int = 200,
       headers: tuple[str, ...] = ()) -> dict[int, Answer]:
    return {status: Answer(description, schema, headers=headers)}


def page(description: str, *statuses: int) -> dict[int, Answer]:
    """An HTML page, answered with each of `statuses`."""
    return {status: Answer(description if status == 200 else f"{description} (with a "
                           "message saying what went wrong)", str, HTML)
            for status in statuses}


def redirect(description: str) -> Answer:
    return Answer(description, None, headers=("Location",))


CSRF = {"csrf_token": "The hidden token of the form (CSRF protection)."}
_SIGN_IN_FORM = {**CSRF, "email": "Account email.", "password": "Account password.",
                 "next": "Same-origin path to go to after signing in."}

OPERATIONS: dict[tuple[str, str], Operation] = {
    # --- discovery ----------------------------------------------------------------------
    ("GET", "/capabilities"): Operation(ok(models.CapabilitiesResponse),
                                        tags=("Discovery",)),
    ("GET", "/health"): Operation(
        {200: Answer("Ready: the database answered.", models.Health),
         503: Answer("service_unavailable: the database did not answer within 2 s; retry "
                     "after Retry-After seconds.", models.Error, headers=("Retry-After",))},
        tags=("Discovery",)),
    ("GET", "/health/live"): Operation(
        ok(models.Health, "The process serves requests (the database is not asked)."),
        tags=("Discovery",)),
    ("GET", "/schemas/context.jsonld"): Operation(
        {200: Answer("The JSON-LD context of the capability documents.", dict[str, Any],
                     "application/ld+json")}, tags=("Discovery",)),
    ("GET", "/schemas/{path}"): Operation(
        {200: Answer("A JSON Schema of a capability's metadata.", dict[str, Any],
                     "application/schema+json")}, tags=("Discovery",)),
    ("GET", "/search"): Operation(ok(models.SearchResults), query=(
        Param("q", Annotated[str, Meta(max_length=200)], "Search words."),
        Param("storeId", str, "Only this store."),
        Param("sort", Literal["relevance", "price_asc", "price_desc", "name_asc",
                              "name_desc"], "Sort order."),
        Param("minPrice", Price, "Lowest price."),
        Param("maxPrice", Price, "Highest price."),
        Param("fulfillmentType", Literal["physical", "digital", "pickup", "hybrid"],
              "Only this fulfillment type."),
        Param("available", Literal["true", "false"], "Only items in stock."),
        Param("currency", Annotated[str, Meta(pattern="^([A-Z]{3}|any)$")],
              "Only items priced in this ISO 4217 currency (prices are not converted); `any` "
              "for every currency. Default: every currency, except that with minPrice or "
              "maxPrice a signed-in caller's saved preferences.currency applies (a price "
              "bound needs a currency). The answer's `currency` says which filter applied."),
        *PAGE), tags=("Discovery",), description=(
            "By relevance, a query of one word lists the items whose name has it first, then "
            "the others, read out of the index a page at a time and each page ranked within "
            "itself; its `totalCount` is given on the last page (null before it). Several "
            "words, or another sort, rank every match and count them all.")),
    ("GET", "/.well-known/commerce"): Operation(
        {200: Answer("Where the API's resources are (RFC 8615).", models.WellKnown, JSON)},
        tags=("Discovery",)),
    ("GET", "/openapi.json"): Operation(
        {200: Answer("This OpenAPI 3.1 document.", dict[str, Any], JSON)},
        tags=("Discovery",)),
    ("GET", "/docs"): Operation(page("The API reference, readable offline.", 200),
                                tags=("Discovery",)),
    # --- web app (commerce_agent/web, docs/web.md) ----------------------------------------
    ("GET", "/"): Operation(page("The storefront: stores and search.", 200),
                            query=(Param("q", str, "Search words."),), tags=("Web app",)),
    ("GET", "/shop/stores/{store_id}"): Operation(page("A store's catalog page.", 200),
                                                  tags=("Web app",)),
    ("GET", "/shop/items/{item_id}"): Operation(page("A product page.", 200),
                                                tags=("Web app",)),
    ("GET", "/shop/cart"): Operation(page("The carts and checkout page.", 200),
                                     tags=("Web app",)),
    ("POST", "/shop/cart"): Operation(
        {303: redirect("Done: back to the cart page, which says what changed (a guest's "
                       "first add sets the guest cart cookie)."),
         **page("The cart page again with the reason as an alert, nothing changed (403: the "
                "form expired; 404: no such cart, line or item for this shopper)",
                400, 403, 404, 409, 413)},
        form={**CSRF,
              "action": "add, update, remove, promotion or shipping.",
              "store_id": "The item's store (add).", "item_id": "The item (add).",
              "variant": "The variant (add, optional).", "addon": "An add-on (add, repeated).",
              "notes": "Notes for the line (add, optional).", "slot": "A time slot (add).",
              "cart_id": "The cart (update, remove, promotion, shipping).",
              "line_id": "The line (update, remove).", "quantity": "Quantity (add, update).",
              "code": "Promotion code (promotion).",
              "shippingMethodId": "Shipping option (shipping)."},
        required_form=("csrf_token",), tags=("Web app",),
        description="The cart page's forms without JavaScript: one change to the shopper's "
                    "carts through the same cart services as the API."),
    ("GET", "/shop/orders"): Operation(page("The orders page.", 200), tags=("Web app",)),
    ("GET", "/shop/orders/{order_id}"): Operation(page("A live order page.", 200),
                                                  tags=("Web app",)),
    ("POST", "/shop/api-token"): Operation(
        {200: Answer("A 15-minute bearer token for the signed-in browser session (its "
                     "cookie and the page's CSRF token in X-CSRF-Token).", ApiToken, JSON)},
        headers=(Param("X-CSRF-Token", str, "The CSRF token of the page.", required=True),),
        body_required=False, tags=("Web app",)),
    ("GET", "/shop/static/{name}"): Operation(
        {200: Answer("A script, style sheet or image of the web app.", str, "text/*",
                     headers=("ETag",)),
         304: Answer("Not modified (If-None-Match).", None, headers=("ETag",))},
        tags=("Web app",)),
    ("GET", "/images/{image_id}"): Operation(
        {200: Answer("An image a merchant uploaded (cached for a year: it never changes).",
                     str, "image/*")}, tags=("Catalog",)),
    ("GET", "/shop/media/{name}"): Operation(
        {200: Answer("A sample store's product image (sample_data/images).", str,
                     "image/svg+xml", headers=("ETag",)),
         304: Answer("Not modified (If-None-Match).", None, headers=("ETag",))},
        tags=("Web app",)),
    # --- merchant console (commerce_agent/web/console/, docs/decisions.md) -----------------
    **{("GET", path): Operation(page(f"Merchant console: {what} (403 for customer accounts; "
                                     "signed out, a sign-in prompt).", 200, 403, 404),
                                tags=("Web app",))
       for path, what in (("/console", "the orders board"),
                          ("/console/catalog", "items, variants, stock and prices"),
                          ("/console/import", "catalog import"), ("/console/returns", "returns"),
                          ("/console/webhooks", "webhooks"),
                          ("/console/webhooks/{webhook_id}", "a webhook's delivery log"),
                          ("/console/store", "store settings and promotion codes"),
                          ("/console/mail", "the kept order mail"),
                          ("/console/mail/{message_id}", "one message"))},
    **{("POST", path): Operation(
        {303: redirect("Done: back to the page, which says what changed (signed out: on "
                       "to the sign-in page)."),
         **page("The page again with the problem beside its field, nothing changed (403: "
                "the form expired or a customer account; 404: not the merchant's)",
                400, 403, 404, 409, 413),
         **({200: Answer(ok_text, str, HTML)} if ok_text else {})},
        form={**CSRF, **fields}, required_form=("csrf_token",), tags=("Web app",),
        description=what)
       for path, what, fields, ok_text in (
           ("/console/orders/{order_id}/{action}",
            "One of the order's merchant actions (ship, ready_for_pickup, advance, cancel).",
            {"carrier": "Carrier (ship).", "trackingNumber": "Tracking number (ship).",
             "trackingUrl": "Tracking URL (ship, optional).",
             "reason": "Reason for the customer (cancel, optional)."}, ""),
           ("/console/items/{item_id}/{action}",
            "Change an item: details, price, stock, adjust, variant, archive, restore.",
            {"variantId": "The variant (price, stock, adjust).", "name": "Name.",
             "description": "Description.", "amount": "Price.", "quantity": "Units on hand "
             "(empty: not counted).", "delta": "Units to add (negative: remove).",
             "values": "Option values of a new variant, separated by /.",
             "options": "Option names of an item's first variant.", "stock": "Stock."}, ""),
           ("/console/returns/{return_id}/{action}",
            "Decide a return: approve, reject, receive, refund.", {}, ""),
           ("/console/webhooks", "Subscribe a URL (the answer shows its signing secret once).",
            {"url": "Endpoint URL.", "description": "Description.",
             "event:*": "Every event (or event:<name> for each one)."},
            "The subscription made, with its signing secret shown once."),
           ("/console/webhooks/{webhook_id}/delete", "Delete a subscription.", {}, ""),
           ("/console/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
            "Send a delivery's event again.", {}, ""),
           ("/console/stores/{store_id}/settings",
            "Store settings: name, currency, delivery areas, pickup address, shipping fee.",
            {"name": "Name.", "currency": "Currency (ISO 4217).",
             "confirmCurrency": "Confirms prices keep their numbers in a new currency.",
             "deliveryAreas": "Country codes, comma separated.",
             "address": "Pickup address.", "shippingFee": "Flat shipping fee.",
             "simulate": "Let the fulfillment simulator move new orders."}, ""),
           ("/console/stores/{store_id}/promotions", "Create or replace a promotion code.",
            {"code": "Code.", "type": "percentage or fixed_amount.", "value": "Value.",
             "description": "Description.", "minimumSubtotal": "Minimum subtotal.",
             "startsAt": "Start (UTC).", "expiresAt": "End (UTC).",
             "perUserLimit": "Uses per customer."}, ""),
           ("/console/stores/{store_id}/promotions/{code}/delete", "Delete a promotion code.",
            {}, ""))},
    **{("POST", path): Operation(
        {303: redirect("Done: back to the page, which says what changed."),
         200: Answer(ok_text, str, HTML),
         **page("The page again with the problem beside its field, nothing changed",
                400, 403, 404, 413, 415)},
        raw_body={"multipart/form-data": fields}, tags=("Web app",), description=what)
       for path, what, fields, ok_text in (
           ("/console/catalog/items", "A new item (multipart: its image file with it).",
            "csrf_token, store, name, description, price, stock, fulfillmentType, options, "
            "variants (one a line: values / …, price, stock), imageFile, image (URL).",
            "Not used: a new item answers 303."),
           ("/console/import", "Import a catalog file into a store (all or nothing).",
            "csrf_token, store, file (a Shopify or WooCommerce CSV, or a JSON store file), "
            "dryRun.", "A dry run's counts (nothing changed)."))},
    # --- catalog ------------------------------------------------------------------------
    ("GET", "/stores"): Operation(ok(models.StoreList, PAGE_OK), query=PAGE,
                                  tags=("Catalog",)),
    ("GET", "/stores/{store_id}"): Operation(ok(models.Store), tags=("Catalog",)),
    ("GET", "/catalogs"): Operation(
        ok(list[models.CatalogSummary], "A page of catalogs (next page in the Link header).",
           headers=("Link",)), query=PAGE, tags=("Catalog",)),
    ("GET", "/catalogs/{catalog_id}"): Operation(
        ok(models.Catalog, "The catalog with all its items (large catalogs are streamed), or "
                           "with one page of them and `pagination` when `limit` or `cursor` "
                           "is given."),
        query=(Param("limit", Limit, "Optional: answer one page of this many items (1 to "
                                     "100) with `pagination`, instead of every item."),
               Param("cursor", str, "Optional: the next or previous page of items: pass "
                                    "back pagination.nextCursor or previousCursor as "
                                    "received (a page of 20 items unless `limit` says).")),
        tags=("Catalog",)),
    ("GET", "/items/{item_id}"): Operation(ok(models.ItemDetail), tags=("Catalog",)),
    ("POST", "/items/{item_id}/reviews"): Operation(ok(models.Review, "Created", 201),
                                                    tags=("Catalog",)),
    # --- carts --------------------------------------------------------------------------
    ("POST", "/carts"): Operation(ok(models.Cart, "Created", 201, ("Location",)),
                                  tags=("Carts",)),
    ("GET", "/carts"): Operation(
        ok(models.CartList, "A page of the caller's open carts (active, not expired), most "
                            "recently changed first."), query=PAGE,
        description="With a user's token: that user's carts, whichever client made them (web, "
                    "agent, MCP). With a guest cart token: the carts that token holds.",
        tags=("Carts",)),
    ("POST", "/guest-tokens"): Operation(
        ok(GuestToken, "A new guest cart token: send it as `Authorization: Bearer` to the cart "
                       "routes; it holds the carts made with it.", 201),
        body_required=False, tags=("Carts",)),
    ("POST", "/carts/adopt"): Operation(
        ok(models.AdoptedCarts, "The guest's open carts, now the signed-in user's."),
        description="The signed-in caller takes over every open cart the guest token holds "
                    "(the web sign-in does it for the browser's guest cart).",
        tags=("Carts",)),
    ("GET", "/carts/{cart_id}"): Operation(ok(models.Cart), tags=("Carts",)),
    ("POST", "/carts/{cart_id}/items"): Operation(ok(models.Cart), tags=("Carts",)),
    ("PATCH", "/carts/{cart_id}/items/{line_id}"): Operation(ok(models.Cart),
                                                             tags=("Carts",)),
    ("DELETE", "/carts/{cart_id}/items/{line_id}"): Operation(ok(models.Cart),
                                                              tags=("Carts",)),
    ("POST", "/carts/{cart_id}/promotions"): Operation(ok(models.Cart), tags=("Carts",)),
    ("DELETE", "/carts/{cart_id}/promotions/{code}"): Operation(ok(models.Cart),
                                                                tags=("Carts",)),
    ("PUT", "/carts/{cart_id}/shipping"): Operation(ok(models.Cart), tags=("Carts",)),
    # --- orders -------------------------------------------------------------------------
    ("POST", "/orders"): Operation(
        {201: Answer("The order (an array when a fulfillment intent splits the cart).",
                     models.Order | list[models.Order],
                     headers=("Location", "X-PAYMENT-RESPONSE", "PAYMENT-RESPONSE")),
         402: Answer("Payment required: the ways to pay.", models.PaymentRequirements,
                     headers=("PAYMENT-REQUIRED",))},
        headers=(Param("X-PAYMENT", str, "Base64 JSON payment proof (x402 v1)."),
                 Param("PAYMENT-SIGNATURE", str,
                       "Base64 JSON payment payload (x402 v2): {x402Version: 2, accepted, "
                       "payload, resource}. Send this or X-PAYMENT, not both.")),
        tags=("Orders",)),
    ("POST", "/payments/sandbox/intents/{intent_id}/confirm"): Operation(
        ok(ConfirmedIntent, "The intent succeeded: send its id in X-PAYMENT."),
        description="The sandbox card provider named by a 402's `accepts[].extra.confirmUrl`. "
                    "No bearer token: the client secret is the credential. Test cards: "
                    "4242424242424242 succeeds, 4000000000000002 is declined.",
        tags=("Payments",)),
    ("GET", "/shop/pay/{intent_id}"): Operation(
        {**page("The payment page of a Stripe PaymentIntent: Stripe's card form, for the link "
                "the agent and MCP hand the shopper (`?secret=` is the intent's client secret).",
                200),
         404: Answer("No payment intent with this id and secret.", models.Error)},
        query=(Param("secret", str, "The PaymentIntent's client secret."),
               Param("return", str, "A path on this shop to come back to after paying.")),
        tags=("Web app",)),
    ("POST", "/payments/stripe/webhook"): Operation(
        {200: Answer("The event was applied (or was already): `{received, outcome}`.", dict),
         400: Answer("The Stripe-Signature header does not sign this payload.", None),
         404: Answer("Stripe is not this server's payment provider.", None)},
        description="Stripe's events for this server's PaymentIntents and refunds, signed with "
                    "the endpoint's secret (`STRIPE_WEBHOOK_SECRET`; docs/payments.md).",
        raw_body={"application/json": "The event exactly as Stripe sent it."},
        tags=("Payments",)),
    ("GET", "/orders"): Operation(ok(models.OrderList, PAGE_OK), query=(
        Param("status", OrderStatus, "Only orders in this status."),
        *PAGE), tags=("Orders",)),
    ("GET", "/orders/{order_id}"): Operation(ok(models.Order), tags=("Orders",)),
    ("GET", "/orders/{order_id}/updates"): Operation(
        {200: Answer("Server-Sent Events: `order.patch` events (id: the order's event number; "
                     "data: a JSON Patch array), `: heartbeat` comments, and a final `close` "
                     "event once the order is completed or cancelled.", str,
                     "text/event-stream")},
        headers=(Param("Last-Event-ID", str, "The id of the last event received: the stream "
                                             "replays what came after it."),),
        description="Without Last-Event-ID (or with an unknown one) the first event replaces "
                    "the whole order (`{op: replace, path: \"\"}`); apply each later patch to "
                    "stay equal to GET /orders/{id}.",
        tags=("Orders",)),
    ("POST", "/orders/{order_id}/cancel"): Operation(
        ok(models.Order, "The cancelled order."), body_required=False, tags=("Orders",)),
    ("POST", "/orders/{order_id}/ratings"): Operation(ok(models.Order, "Rated.", 201),
                                                      tags=("Orders",)),
    ("POST", "/orders/{order_id}/tips"): Operation(ok(models.Order, "Tipped.", 201),
                                                   tags=("Orders",)),
    ("POST", "/orders/{order_id}/subscription/{action}"): Operation(
        ok(models.Order, "The order with its subscription changed (action: pause, resume "
                         "or cancel)."), tags=("Orders",)),
    ("GET", "/orders/{order_id}/downloads/{asset_id}"): Operation(
        {200: Answer("The digital asset (a sandbox licence file).", str, "text/plain")},
        tags=("Orders",)),
    ("POST", "/returns"): Operation(ok(models.Return, "Created", 201, ("Location",)),
                                    tags=("Returns",)),
    ("GET", "/returns/{return_id}"): Operation(ok(models.Return), tags=("Returns",)),
    # --- webhooks -----------------------------------------------------------------------
    ("POST", "/webhooks"): Operation(
        ok(webhook_routes.CreatedWebhook, "Created; `secret` appears only in this answer.",
           201, ("Location",)),
        description="Deliveries are POSTed to `url` with the exact event body, signed with the "
                    "secret (Standard Webhooks headers and X-Commerce-Webhook-Signature). "
                    "See docs/webhooks.md.", tags=("Webhooks",)),
    ("GET", "/webhooks"): Operation(
        ok(webhook_routes.WebhookList, PAGE_OK),
        query=(Param("includeInactive", Literal["true", "false"],
                     "Also list subscriptions deactivated by a 410 answer."), *PAGE),
        tags=("Webhooks",)),
    ("GET", "/webhooks/{webhook_id}"): Operation(ok(webhook_routes.Webhook),
                                                 tags=("Webhooks",)),
    ("DELETE", "/webhooks/{webhook_id}"): Operation(
        {204: Answer("Deleted; its pending deliveries are cancelled.")}, tags=("Webhooks",)),
    ("GET", "/webhooks/{webhook_id}/deliveries"): Operation(
        ok(webhook_routes.DeliveryList, "A page of deliveries, newest first."), query=PAGE,
        tags=("Webhooks",)),
    ("POST", "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver"): Operation(
        ok(webhook_routes.WebhookDelivery, "Queued: a new delivery of the same event (same "
                                           "event id and body).", 202),
        body_required=False, tags=("Webhooks",)),
    # --- MCP (the protocol itself, at /mcp, is described by docs/mcp.md) -----------------
    ("GET", "/.well-known/oauth-protected-resource/mcp"): Operation(
        {200: Answer("Protected resource metadata of /mcp (RFC 9728): where to get a token.",
                     dict[str, Any], JSON)}, tags=("MCP",)),
    # --- profile and accounts -----------------------------------------------------------
    ("GET", "/user/profile"): Operation(ok(Profile), tags=("Profile",)),
    ("PATCH", "/user/profile"): Operation(ok(Profile, "The whole profile after the change."),
                                          tags=("Profile",)),
    ("POST", "/auth/token"): Operation(
        {200: Answer("An access token and a refresh token.", TokenPair),
         429: Answer("too_many_attempts: this email failed to sign in too often; wait "
                     "Retry-After seconds.", models.Error, headers=("Retry-After",))},
        tags=("Accounts",)),
    ("POST", "/auth/refresh"): Operation(
        {200: Answer("A new pair; the refresh token sent is used up.", TokenPair)},
        tags=("Accounts",)),
    ("POST", "/auth/revoke"): Operation({204: Answer("Revoked (or unknown).")},
                                        tags=("Accounts",)),
    ("POST", "/auth/sign-out"): Operation({204: Answer("The bearer token is revoked.")},
                                          tags=("Accounts",)),
    ("GET", "/account/sign-in"): Operation(
        {**page("The sign-in form.", 200),
         303: redirect("Already signed in: on to `next`.")},
        query=(Param("next", str, "Same-origin path to go to after signing in."),),
        tags=("Account pages",)),
    ("POST", "/account/sign-in"): Operation(
        {303: redirect("Signed in: on to `next` with the session cookie set."),
         **page("The form again", 400, 401, 403, 413, 429)},
        form=_SIGN_IN_FORM, required_form=("csrf_token", "email", "password"),
        tags=("Account pages",)),
    ("GET", "/account/register"): Operation(
        page("The registration form.", 200),
        query=(Param("next", str, "Same-origin path to go to after registering."),),
        tags=("Account pages",)),
    ("POST", "/account/register"): Operation(
        {303: redirect("Registered and signed in: on to `next`."),
         **page("The form again", 400, 403, 409, 413)},
        form={**_SIGN_IN_FORM, "name": "Display name."},
        required_form=("csrf_token", "email", "password", "name"), tags=("Account pages",)),
    ("GET", "/account/sign-out"): Operation(page("The sign-out button.", 200),
                                            tags=("Account pages",)),
    ("POST", "/account/sign-out"): Operation(
        {303: redirect("Signed out: on to the sign-in page."),
         **page("Nothing changed", 400, 403, 413)},
        form=CSRF, required_form=("csrf_token",), tags=("Account pages",)),
    ("GET", "/account/profile"): Operation(
        {**page("The profile with its edit forms.", 200),
         303: redirect("Not signed in: to the sign-in page.")},
        query=(Param("saved", str, "1 after a successful change."),),
        tags=("Account pages",)),
    ("POST", "/account/profile"): Operation(
        {303: redirect("Saved (or not signed in): back to the profile page."),
         **page("Not saved", 400, 403, 413)},
        form={**CSRF, "action": "preferences, billing, clear_billing, add_address or "
                                "remove_address.",
              "language": "Preferred language tag.", "currency": "Preferred currency.",
              "notifications": "Present when checked.", "consentGiven": "Present when checked.",
              "label": "Label of a new saved address.", "index": "Saved address to remove.",
              "streetAddress": "Street.", "addressLocality": "City.",
              "addressRegion": "Region.", "postalCode": "Postal code.",
              "addressCountry": "Country."},
        required_form=("csrf_token", "action"), tags=("Account pages",)),
}

# Below the agent mount (settings.agent_mount); errors there are {error: {code, message}}.
AGENT_OPERATIONS: dict[tuple[str, str], Operation] = {
    ("GET", "/health"): Operation({200: Answer("Ready.", models.AgentHealth, JSON)}),
    ("GET", "/info"): Operation({200: Answer("The agent, its tools and connections.",
                                             models.AgentInfo, JSON)}),
    ("POST", "/session"): Operation({202: Answer("Accepted; the turn runs in the background.",
                                                 models.AgentSessionHandle, JSON)}),
    ("POST", "/session/{session_id}"): Operation(
        {200: Answer("Accepted.", models.AgentSessionHandle, JSON)}),
    ("GET", "/session/{session_id}/stream"): Operation(
        {200: Answer("The session's events as NDJSON, one JSON object a line.", str,
                     "application/x-ndjson")},
        query=(Param("startIndex", Annotated[int, Meta(ge=0)],
                     "Events already consumed (default 0)."),
               Param("follow", Literal["true", "false"], "Keep following across turns."))),
    ("POST", "/session/{session_id}/cancel"): Operation(
        {200: Answer("Nothing was running.", models.AgentCancelled, JSON),
         202: Answer("Cancelling.", models.AgentCancelled, JSON)}),
    ("GET", "/consent/{session_id}/{secret}"): Operation(
        page("The consent form (404 page once used).", 200, 404)),
    ("POST", "/consent/{session_id}/{secret}"): Operation(
        page("The outcome page.", 200, 400, 401, 403, 404, 413),
        form={"email": "Account email.", "password": "Account password.",
              "decision": "approve or decline."}),
}
