"""The shop's pages in-process: rendered on the server from the services (browsable without
JavaScript), with images, sold-out states and store names; HTML errors for browsers and JSON
for API clients; the shopper's carts (guest and signed in) on the cart page; gzip and hashed
static URLs."""

from __future__ import annotations

import gzip
import re

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, StreamingResponse
from starlette.routing import Route

from commerce_agent.compression import compressed
from commerce_agent.web import static_files

pytestmark = pytest.mark.both_backends

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
FORM_CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]+)"')
PAGE_CSRF = re.compile(r'data-csrf="([0-9a-f]*)"')


async def test_store_page_shows_product_cards_with_images(client: httpx.AsyncClient) -> None:
    page = await client.get("/shop/stores/store_ceramics", headers=BROWSER)
    assert page.status_code == 200
    html = page.text
    assert "<h1 id=\"store-name\">Hearth &amp; Kiln Ceramics</h1>" in html
    assert "Loading" not in html
    cards = re.findall(r'<li class="card product[^"]*">(.*?)</li>', html, re.S)
    assert len(cards) == 11
    mug = next(card for card in cards if "Classic Stoneware Mug" in card)
    assert 'src="/shop/media/item_classic_mug.svg"' in mug
    assert 'alt="Classic Stoneware Mug: illustration"' in mug
    # space reserved before the image loads, and the image is lazy below the fold
    assert 'width="360" height="270"' in mug
    assert "$24.00" in mug and "In stock" in mug
    assert html.count('loading="lazy"') >= 8 and 'fetchpriority="high"' in html


async def test_sample_images_are_served(client: httpx.AsyncClient) -> None:
    image = await client.get("/shop/media/item_classic_mug.svg")
    assert image.status_code == 200 and image.headers["content-type"] == "image/svg+xml"
    assert image.content.startswith(b"<svg") and len(image.content) < 4096
    assert "max-age" in image.headers["cache-control"]
    for name in ("nope.svg", "..%2Fusers.json", "users.json"):
        assert (await client.get(f"/shop/media/{name}")).status_code == 404


async def test_product_page_is_whole_without_javascript(client: httpx.AsyncClient) -> None:
    page = await client.get("/shop/items/item_classic_mug", headers=BROWSER)
    html = page.text
    assert page.status_code == 200
    assert "<title>Classic Stoneware Mug · commerce-agent</title>" in html
    # the store by name, the price of the first variant for sale, each variant with its price
    assert "← Hearth &amp; Kiln Ceramics" in html
    assert re.search(r'id="item-price"[^>]*>\$24\.00<', html)
    white = re.search(r'<input type="radio" name="variant" value="var_mug_white_12oz"[^>]*>', html,
                      re.S)
    assert white and "disabled" in white.group(0) and "(sold out)" in html
    blue16 = re.search(r'value="var_mug_blue_16oz"[^>]*>', html, re.S)
    assert blue16 and 'data-price="27.00"' in blue16.group(0)
    # the variant's own picture
    assert 'data-image="/shop/media/item_classic_mug-cobalt-blue.svg"' in html
    assert re.search(r'value="addon_ceramics_gift_box" data-delta="4.00"', html)
    assert 'id="add-button" class="primary">Add to cart<' in html


async def test_time_slots_read_as_dates(client: httpx.AsyncClient) -> None:
    html = (await client.get("/shop/items/item_vinyasa_drop_in", headers=BROWSER)).text
    assert 'name="slot"' in html
    assert not re.search(r'\d{4}-\d\d-\d\dT\d\d:\d\d', re.sub(r'<[^>]+>', '', html))


async def test_search_renders_results_on_the_server(client: httpx.AsyncClient) -> None:
    html = (await client.get("/", params={"q": "mug"}, headers=BROWSER)).text
    assert "Results for “mug”" in html and "Classic Stoneware Mug" in html
    assert "Hearth &amp; Kiln Ceramics" in html  # the store's name, not its id
    html = (await client.get("/", params={"q": "zzzqqq"}, headers=BROWSER)).text
    assert "Nothing matches" in html


@pytest.mark.parametrize("path", ["/shop/items/item_nope", "/shop/stores/store_nope",
                                  "/no/such/path"])
async def test_unknown_pages_are_404_pages_for_browsers(client: httpx.AsyncClient,
                                                        path: str) -> None:
    page = await client.get(path, headers=BROWSER)
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "<h1>Not found</h1>" in page.text and 'href="/"' in page.text
    api = await client.get(path, headers={"Accept": "application/json"})
    assert api.status_code == 404 and api.headers["content-type"].startswith("application/")
    assert api.json()["status"] == 404
    assert (await client.get(path)).json()["status"] == 404  # */*: JSON


async def test_api_errors_stay_json_for_api_clients(client: httpx.AsyncClient) -> None:
    response = await client.get("/items/item_nope", headers={
        "Accept": "application/json, text/html;q=0.5"})
    assert response.json()["code"] == "item_not_found"
    posted = await client.post("/carts", json={}, headers=BROWSER)
    assert posted.headers["content-type"].startswith("application/")


async def _guest_token(client: httpx.AsyncClient) -> str:
    page = await client.get("/", headers=BROWSER)
    answer = await client.post("/shop/api-token",
                               headers={"X-CSRF-Token": PAGE_CSRF.search(page.text).group(1)})
    assert answer.status_code == 200
    token: str = answer.json()["accessToken"]
    return token


async def test_a_guest_cart_is_on_the_cart_page_and_survives_sign_in(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    guest = {"Authorization": f"Bearer {await _guest_token(client)}"}
    cart = (await client.post("/carts", json={"storeId": "store_ceramics"},
                              headers=guest)).json()
    added = await client.post(f"/carts/{cart['id']}/items", headers=guest,
                              json={"itemId": "item_classic_mug", "quantity": 2,
                                    "variantId": "var_mug_blue_16oz"})
    assert added.status_code == 200
    page = (await client.get("/shop/cart", headers=BROWSER)).text
    assert f'data-cart-id="{cart["id"]}"' in page and "Classic Stoneware Mug" in page
    assert "Hearth &amp; Kiln Ceramics" in page and "$54.00" in page
    assert re.search(r'id="cart-count"[^>]*>2<', page)  # the header's count
    assert "Sign in</a> to check out" in page
    # signing in hands the cart to Alice, and the guest cookie goes
    form = await client.get("/account/sign-in")
    signed = await client.post("/account/sign-in", data={
        "csrf_token": FORM_CSRF.search(form.text).group(1), "email": "alice@example.com",
        "password": "alice-demo-pass", "next": "/shop/cart"})
    assert signed.status_code == 303
    assert any(c.startswith("commerce_guest_cart=") and "Max-Age=0" in c
               for c in signed.headers.get_list("set-cookie"))
    page = (await client.get("/shop/cart", headers=BROWSER)).text
    assert f'data-cart-id="{cart["id"]}"' in page and "to check out" not in page
    mine = (await client.get("/carts", headers=alice)).json()["carts"]
    assert [c["id"] for c in mine] == [cart["id"]]


async def test_an_agent_or_api_cart_is_on_the_cart_page(client: httpx.AsyncClient,
                                                        alice: dict[str, str]) -> None:
    cart = (await client.post("/carts", json={"storeId": "store_trattoria"},
                              headers=alice)).json()
    added = await client.post(f"/carts/{cart['id']}/items", headers=alice,
                              json={"itemId": "item_tiramisu", "quantity": 1})
    assert added.status_code == 200, added.text
    form = await client.get("/account/sign-in")
    await client.post("/account/sign-in", data={
        "csrf_token": FORM_CSRF.search(form.text).group(1), "email": "alice@example.com",
        "password": "alice-demo-pass"})
    page = (await client.get("/shop/cart", headers=BROWSER)).text
    assert f'data-cart-id="{cart["id"]}"' in page and "Tiramisù" in page


async def test_pages_link_hashed_static_files_cached_for_good(client: httpx.AsyncClient) -> None:
    html = (await client.get("/", headers=BROWSER)).text
    link = re.search(r'href="(/shop/static/app\.css\?v=([0-9a-f]{16}))"', html)
    assert link and link.group(2) == static_files.files()["app.css"].version
    hashed = await client.get(link.group(1))
    assert hashed.headers["cache-control"] == "public, max-age=31536000, immutable"
    stale = await client.get("/shop/static/app.css?v=0000000000000000")
    assert stale.headers["cache-control"] == "no-cache"
    # scripts import each other by hashed URL too
    chat = (await client.get("/shop/static/chat.js")).text
    assert re.search(r'from "\./api\.js\?v=[0-9a-f]{16}"', chat)


async def test_html_css_js_and_json_are_gzipped(client: httpx.AsyncClient) -> None:
    for path in ("/", "/shop/static/app.css", "/shop/static/api.js", "/stores",
                 "/catalogs/cat_ceramics_drinkware"):
        response = await client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.headers.get("content-encoding") == "gzip", path
        assert response.content  # httpx decoded it
    plain = await client.get("/stores", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers


async def test_streams_are_never_compressed() -> None:
    async def lines():  # type: ignore[no-untyped-def]
        for n in range(200):
            yield b'{"n": %d, "padding": "%s"}\n' % (n, b"x" * 40)

    async def ndjson(request):  # type: ignore[no-untyped-def]
        return StreamingResponse(lines(), media_type="application/x-ndjson")

    async def events(request):  # type: ignore[no-untyped-def]
        return StreamingResponse(lines(), media_type="text/event-stream")

    async def text(request):  # type: ignore[no-untyped-def]
        return PlainTextResponse("word " * 1000)

    app = compressed(Starlette(routes=[Route("/n", ndjson), Route("/e", events),
                                       Route("/t", text)]))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://t") as plain:
        for path in ("/n", "/e"):
            response = await plain.get(path, headers={"Accept-Encoding": "gzip"})
            assert "content-encoding" not in response.headers, path
        response = await plain.get("/t", headers={"Accept-Encoding": "gzip"})
        assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(gzip.compress(b"x")) == b"x"
