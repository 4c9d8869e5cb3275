"""json_response sets its headers itself on the common path: they must be Starlette's."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.responses import Response

from commerce_agent.http import MEDIA_TYPE, encoder, json_response


@pytest.mark.parametrize(("body", "status", "headers", "media_type"), [
    ({"id": "cart_1", "total": {"amount": "4.99", "currency": "USD"}}, 200, None, MEDIA_TYPE),
    ({"id": "ürün"}, 201, {"Location": "/carts/x"}, MEDIA_TYPE),
    ([], 200, None, "application/schema+json"),
    ({"code": "gone"}, 410, {}, MEDIA_TYPE),
    (None, 204, None, MEDIA_TYPE),
])
def test_json_response_headers_are_starlettes(body: Any, status: int,
                                              headers: dict[str, str] | None,
                                              media_type: str) -> None:
    ours = json_response(body, status, headers, media_type)
    starlette = Response(encoder.encode(body), status_code=status, headers=headers,
                         media_type=media_type)
    assert ours.status_code == status
    assert ours.body == starlette.body
    assert ours.raw_headers == starlette.raw_headers
