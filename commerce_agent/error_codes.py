"""Every error code the server answers with, and the HTTP status it always comes with.

The one table of codes: the Commerce API's errors (errors.CommerceError, rendered in its one
shape), the agent API's (agent.errors.AgentError, `{error: {code, message}}`), and the codes
given to HTTP errors raised without one (routing's 404, 405, …). tests/api/test_error_codes.py
walks the source: every code raised is here, with the status it is raised with.
"""

from __future__ import annotations

STATUS: dict[str, int] = {
    # Generic (also what an HTTP error of that status without a code of its own answers).
    "bad_request": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "not_acceptable": 406,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "too_many_attempts": 429,
    "internal_error": 500,
    "not_implemented": 501,
    "service_unavailable": 503,
    # Resources not found (errors.not_found(kind, id) answers `<kind>_not_found`).
    "action_not_found": 404,
    "cart_item_not_found": 404,
    "cart_not_found": 404,
    "catalog_not_found": 404,
    "download_not_found": 404,
    "image_not_found": 404,
    "item_not_found": 404,
    "order_not_found": 404,
    "payment_intent_not_found": 404,
    "promotion_not_applied": 404,
    "promotion_not_found": 404,
    "return_not_found": 404,
    "schema_not_found": 404,
    "store_not_found": 404,
    "subscription_not_found": 404,
    "user_not_found": 404,
    "variant_not_found": 404,
    "message_not_found": 404,
    "webhook_delivery_not_found": 404,
    "webhook_not_found": 404,
    # Requests the Commerce API refuses.
    "cart_empty": 400,
    "delivery_address_required": 400,
    "fulfillment_intent_duplicate_item": 400,
    "fulfillment_intent_incomplete": 400,
    "fulfillment_method_invalid": 400,
    "invalid_quantity": 400,
    "max_cart_items_exceeded": 400,
    "minimum_order_value": 400,
    "payment_failed": 400,
    "payment_provider_unavailable": 503,  # the card provider (Stripe) cannot be reached
    "webhook_signature_invalid": 400,  # a Stripe event not signed with our secret
    "shipping_method_invalid": 400,  # a shipping option the store does not offer
    "payment_method_unsupported": 400,
    "product_unavailable": 400,
    "promotion_invalid": 400,
    "cancellation_window_expired": 403,
    "geographic_restriction": 403,
    "minimum_commitment_not_met": 403,
    "order_already_cancelled": 403,
    "return_not_allowed": 403,
    "return_window_expired": 403,
    "capability_version_unsupported": 406,
    "account_exists": 409,
    "cart_already_submitted": 409,
    "idempotency_key_reused": 409,
    "insufficient_stock": 409,
    "invalid_transition": 409,
    "currency_locked": 409,
    "order_already_rated": 409,
    "order_already_tipped": 409,
    "order_items_unavailable": 409,
    "order_not_completed": 409,
    "payment_intent_unexpected_state": 409,
    "promotion_stacking_not_allowed": 409,
    "review_exists": 409,
    "tip_not_allowed": 409,
    "webhook_inactive": 409,
    "webhook_limit_reached": 409,
    "cart_expired": 410,
    # The agent API.
    "invalid_input_response": 400,
    "invalid_json": 400,
    "invalid_output_schema": 400,
    "invalid_request": 400,
    "invalid_start_index": 400,
    "message_or_input_required": 400,
    "message_required": 400,
    "token_mismatch": 400,
    "unknown_agent": 400,
    "session_not_found": 404,
    "authorization_required": 409,
    "input_required": 409,
    "no_pending_input": 409,
    "turn_in_progress": 409,
    "session_terminated": 410,
}

# The code of an HTTP error raised without one, by status: the generic codes above.
_GENERIC = ("not_found", "method_not_allowed", "not_acceptable", "payload_too_large",
            "unsupported_media_type")
_BY_STATUS = {STATUS[code]: code for code in _GENERIC}
SERVER_ERROR = "error"  # an HTTP error of status 5xx raised without a code


def for_status(status: int) -> str:
    """The code of an HTTP error (Starlette's HTTPException) raised with only a status."""
    return _BY_STATUS.get(status, "bad_request" if status < 500 else SERVER_ERROR)
