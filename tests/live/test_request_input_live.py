"""A malformed request against a live server is answered 400 and the keep-alive connection
stays open: the next request on it is served (one httpx client, one connection)."""

from __future__ import annotations

import httpx
import pytest

from tests.support.live import LiveServer, user_token

pytestmark = pytest.mark.both_backends

BAD = [
    ("POST", "/carts", b'{"storeId": "store_\xff"}'),
    ("POST", "/carts", b'{"storeId": "a", "storeId": "store_ceramics"}'),
    ("POST", "/carts", b'{"storeId": "store\\u0000"}'),
    ("POST", "/carts", b'{"storeId": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
    ("POST", "/auth/token", b'{"email": "\xc3\x28", "password": "x"}'),
    ("POST", "/agent/v1/session", b'{"message": "hi", "message": "\xff"}'),
    ("GET", "/stores/x%00", b""),
    ("GET", "/search?storeId=%00&q=mug", b""),
]


def _local_address(response: httpx.Response) -> object:
    return response.extensions["network_stream"].get_extra_info("client_addr")


def test_a_bad_request_leaves_the_connection_open(live_server: LiveServer) -> None:
    token = user_token(live_server.db_path)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    with httpx.Client(base_url=live_server.url, headers=headers, timeout=10,
                      limits=httpx.Limits(max_connections=1)) as client:
        first = client.get("/capabilities")
        assert first.status_code == 200
        address = _local_address(first)
        for method, path, body in BAD:
            refused = client.request(method, path, content=body)
            assert refused.status_code in (400, 404), (path, refused.text)
            assert refused.headers.get("connection") != "close", path
            assert _local_address(refused) == address, path
            served = client.post("/carts", json={"storeId": "store_ceramics"})
            assert served.status_code == 201, served.text
            assert _local_address(served) == address, path
