"""Catalog names and descriptions in the negotiated locale, where the sample data has them."""

from __future__ import annotations

import httpx
import pytest

CERAMICS = "store_ceramics"
MUG = "item_classic_mug"


@pytest.mark.parametrize(("language", "store_name", "mug_name"), [
    ("fr", "Hearth & Kiln Céramiques", "Mug classique en grès"),
    ("ar-EG", None, None),
])
async def test_store_catalog_and_item_are_translated(
        client: httpx.AsyncClient, language: str, store_name: str | None,
        mug_name: str | None) -> None:
    english = (await client.get(f"/stores/{CERAMICS}")).json()
    headers = {"Accept-Language": language}
    store = (await client.get(f"/stores/{CERAMICS}", headers=headers)).json()
    assert store["name"] != english["name"]
    assert store["description"] != english["description"]
    if store_name:
        assert store["name"] == store_name
    catalogs = (await client.get("/catalogs?limit=100", headers=headers)).json()
    english_catalogs = (await client.get("/catalogs?limit=100")).json()
    ours = [c for c in catalogs if c["storeId"] == CERAMICS]
    theirs = {c["id"]: c for c in english_catalogs}
    assert ours and all(c["name"] != theirs[c["id"]]["name"] for c in ours)
    catalog = (await client.get(f"/catalogs/{ours[0]['id']}", headers=headers)).json()
    english_catalog = (await client.get(f"/catalogs/{ours[0]['id']}")).json()
    assert catalog["items"][0]["name"] != english_catalog["items"][0]["name"]
    item = (await client.get(f"/items/{MUG}", headers=headers)).json()
    if mug_name:
        assert item["name"] == mug_name
    assert item["description"] != (await client.get(f"/items/{MUG}")).json()["description"]


async def test_japanese_store(client: httpx.AsyncClient) -> None:
    response = await client.get("/stores/store_midori", headers={"Accept-Language": "ja-JP"})
    assert response.headers["content-language"] == "ja"
    assert response.json()["name"] == "緑堂 茶と紙"


async def test_untranslated_store_stays_in_the_original(client: httpx.AsyncClient) -> None:
    stores = (await client.get("/stores?limit=100")).json()["stores"]
    french = (await client.get("/stores?limit=100", headers={"Accept-Language": "fr"})).json()
    names = {s["id"]: s["name"] for s in french["stores"]}
    untranslated = [s for s in stores if s["id"] != CERAMICS and "midori" not in s["id"]]
    assert untranslated and all(names[s["id"]] == s["name"] for s in untranslated)
    assert names[CERAMICS] != next(s["name"] for s in stores if s["id"] == CERAMICS)


async def test_search_results_are_translated(client: httpx.AsyncClient) -> None:
    response = await client.get("/search?q=mug&storeId=store_ceramics",
                                headers={"Accept-Language": "fr"})
    names = [item["name"] for item in response.json()["items"]]
    assert "Mug classique en grès" in names
