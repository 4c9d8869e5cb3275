"""Product search: FTS5 relevance, the relevance cutoff, plurals, typos, filters, an index
kept current by triggers for any writer, and queries that cannot break the FTS5 syntax."""

from __future__ import annotations

import base64
import json
import sqlite3
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.search import terms
from commerce_agent.db.migrations import apply_migrations
from commerce_agent.seed import seed

pytestmark = pytest.mark.both_backends

MUGS = {"item_classic_mug", "item_limited_glaze_mug"}
TEAPOTS = {"item_celadon_teapot", "item_tokoname_kyusu"}


async def found(client: httpx.AsyncClient, query: str, **params: str) -> list[dict[str, Any]]:
    response = await client.get("/search", params={"q": query, "limit": "100", **params})
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def ids(items: list[dict[str, Any]]) -> list[str]:
    return [item["id"] for item in items]


async def test_the_glaze_mug_comes_first_and_no_ebook(client: httpx.AsyncClient) -> None:
    items = await found(client, "find the limited edition glaze mug")
    assert ids(items)[0] == "item_limited_glaze_mug"
    assert all(item["fulfillmentType"] != "digital" for item in items)
    assert "item_glazing_guide_ebook" not in ids(items)


async def test_only_items_matching_every_term_when_some_do(client: httpx.AsyncClient) -> None:
    # "glaze" alone finds the glazing guide; with "mug" only glazed mugs are relevant.
    assert "item_glazing_guide_ebook" in ids(await found(client, "glaze"))
    assert set(ids(await found(client, "glaze mug"))) <= MUGS
    # No item is both a mug and a teapot: the items matching either come back.
    assert set(ids(await found(client, "mug teapot"))) == MUGS | TEAPOTS


async def test_relevance_is_descending_and_name_matches_rank_first(
        client: httpx.AsyncClient) -> None:
    items = await found(client, "teapot")
    scores = [item["relevance"] for item in items]
    assert scores == sorted(scores, reverse=True) and set(ids(items)) == TEAPOTS
    # "matcha" is in several names; the bowl is the only item that is also a bowl.
    assert ids(await found(client, "matcha bowl")) == ["item_raku_matcha_bowl"]


async def test_plurals_find_the_singular(client: httpx.AsyncClient) -> None:
    assert set(ids(await found(client, "mugs"))) == MUGS
    assert set(ids(await found(client, "teapots"))) == TEAPOTS


async def test_typos_are_corrected_from_item_names(client: httpx.AsyncClient) -> None:
    assert set(ids(await found(client, "cermic mug"))) == MUGS
    assert set(ids(await found(client, "teapto"))) == TEAPOTS  # two letters swapped
    assert "item_caesar_salad" in ids(await found(client, "chiken"))  # an option's name
    assert await found(client, "xyzzy") == []


async def test_prefixes_complete_a_word(client: httpx.AsyncClient) -> None:
    assert "item_pizza_margherita" in ids(await found(client, "margh"))


async def test_search_spans_stores_and_filters_by_store(client: httpx.AsyncClient) -> None:
    items = await found(client, "teapot")
    assert {item["storeId"] for item in items} == {"store_ceramics", "store_midori"}
    within = await found(client, "teapot", storeId="store_midori")
    assert ids(within) == ["item_tokoname_kyusu"]
    # The store's name is indexed with its items.
    assert "item_pizza_margherita" in ids(await found(client, "fiamma pizza"))


async def test_price_bounds_keep_relevance(client: httpx.AsyncClient) -> None:
    cheap = await found(client, "mug", maxPrice="20")
    assert ids(cheap) == ["item_limited_glaze_mug"]
    dear = await found(client, "mug", minPrice="20")
    assert ids(dear) == ["item_classic_mug"]
    # A bound can leave no item matching every term: the best partial matches come back.
    partial = await found(client, "glaze teapot", maxPrice="20", currency="USD")
    assert partial and all(float(item["price"]["amount"]) <= 20 for item in partial)
    assert "item_celadon_teapot" not in ids(partial)


async def test_sorts_apply_to_relevant_items_only(client: httpx.AsyncClient) -> None:
    by_price = await found(client, "teapot", sort="price_asc", currency="USD")
    assert ids(by_price) == ["item_celadon_teapot"]
    by_name = await found(client, "mugs", sort="name_desc")
    assert ids(by_name) == ["item_limited_glaze_mug", "item_classic_mug"]


async def test_translated_names_are_searchable(client: httpx.AsyncClient) -> None:
    response = await client.get("/search", params={"q": "mug classique"},
                                headers={"Accept-Language": "fr"})
    assert [item["name"] for item in response.json()["items"]] == ["Mug classique en grès"]


@pytest.mark.parametrize(("query", "item"), [
    ("玄米茶", "item_genmaicha"), ("和紙ノート", "item_washi_notebook"),
    ("ノート", "item_washi_notebook"),
    ("急須", "item_tokoname_kyusu"), ("茶筅", "item_chasen_whisk")])
async def test_a_japanese_word_is_found_inside_a_longer_name(
        client: httpx.AsyncClient, query: str, item: str) -> None:
    """Japanese is written without spaces, so the index holds 抹茶入り玄米茶 as one word; a
    shopper's shorter word is found inside it."""
    assert item in ids(await found(client, query))


@pytest.mark.parametrize(("query", "first"), [
    ("抹茶", "item_uji_matcha"), ("玄米茶", "item_genmaicha"), ("茶碗", "item_raku_matcha_bowl")])
async def test_a_japanese_compound_named_by_its_last_word_comes_first(
        client: httpx.AsyncClient, query: str, first: str) -> None:
    """宇治抹茶 is a matcha and 抹茶碗 a bowl: a compound ending in the word ranks first."""
    assert ids(await found(client, query))[0] == first


def test_only_unspaced_scripts_are_matched_inside_words() -> None:
    assert terms.unspaced("玄米茶") and terms.unspaced("ノート") and terms.unspaced("ひらがな")
    assert not terms.unspaced("mug") and not terms.unspaced("théière")


async def test_query_syntax_cannot_break_search(client: httpx.AsyncClient) -> None:
    for query in ['"', '"mug', 'mug"teapot', "*", "mug*", "NEAR(mug teapot)", "NEAR", "(mug",
                  "mug)", "mug AND", "OR", "NOT mug", "-mug", "^mug", "name:mug", "{name}: mug",
                  "'", "mug + teapot", "\\", "%", "_", "ć"]:
        response = await client.get("/search", params={"q": query})
        assert response.status_code == 200, (query, response.text)
    assert set(ids(await found(client, "NEAR(mug teapot)"))) >= MUGS


async def insert_item(app: Starlette, item_id: str, name: str, **doc: Any) -> None:
    """Write an item the way any writer would (seeding, import, the admin API): plain SQL."""
    body = {"id": item_id, "name": name, "price": {"amount": "15.00", "currency": "USD"},
            "fulfillmentType": "physical", **doc}
    async with app.state.db.transaction() as tx:
        await tx.execute(
            "INSERT INTO items (id, catalog_id, store_id, position, name, price, doc) "
            "VALUES (:id, 'cat_ceramics_drinkware', 'store_ceramics', 99, :name, '15.00', "
            ":doc)", {"id": item_id, "name": name, "doc": json.dumps(body)})


async def rename(app: Starlette, table: str, row_id: str, name: str) -> None:
    """Give a store or an item a new name in its document (and column), in plain SQL."""
    async with app.state.db.transaction() as tx:
        row = await tx.fetch_one(f"SELECT doc FROM {table} WHERE id = :id",  # noqa: S608
                                 {"id": row_id})
        doc = {**json.loads(row["doc"]), "name": name}
        named = ", name = :name" if table == "items" else ""
        await tx.execute(f"UPDATE {table} SET doc = :doc{named} WHERE id = :id",  # noqa: S608
                         {"doc": json.dumps(doc), "name": name, "id": row_id})


async def test_items_written_after_startup_are_searchable(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await insert_item(app, "item_speckled_tumbler", "Speckled Tumbler",
                      description="A handleless cup for cold brew.")
    assert ids(await found(client, "tumblers")) == ["item_speckled_tumbler"]
    assert ids(await found(client, "cold brew cup")) == ["item_speckled_tumbler"]
    await rename(app, "items", "item_speckled_tumbler", "Ash Beaker")
    assert await found(client, "tumbler") == []
    assert ids(await found(client, "beaker")) == ["item_speckled_tumbler"]
    await rename(app, "stores", "store_ceramics", "Ember Pottery")
    assert "item_speckled_tumbler" in ids(await found(client, "ember beaker"))
    async with app.state.db.transaction() as tx:
        await tx.execute("DELETE FROM items WHERE id = 'item_speckled_tumbler'")
    assert await found(client, "beaker") == []


async def test_a_renamed_item_changes_tier_and_words_of_several_lexemes_match(
        app: Starlette, client: httpx.AsyncClient) -> None:
    """The name tier follows writes (PostgreSQL's postings are rebuilt with the tsvector),
    and a word the index splits into several lexemes (`t-shirt`) is matched as a phrase."""
    await insert_item(app, "item_kiln_apron", "Canvas Apron", description="A kiln-safe t-shirt.")
    await insert_item(app, "item_kiln_shirt", "Kiln T-Shirt", description="Cotton.")
    assert ids(await found(client, "t-shirt")) == ["item_kiln_shirt", "item_kiln_apron"]
    await rename(app, "items", "item_kiln_apron", "T-Shirt Apron")
    await rename(app, "items", "item_kiln_shirt", "Kiln Tee")
    assert ids(await found(client, "t-shirt")) == ["item_kiln_apron"]


async def test_odd_documents_never_block_a_write(app: Starlette,
                                                 client: httpx.AsyncClient) -> None:
    async with app.state.db.transaction() as tx:
        await tx.execute("UPDATE stores SET translations = '{\"fr\": \"oops\"}' "
                         "WHERE id = 'store_ceramics'")
    await insert_item(app, "item_odd", "Walnut Coaster", tags="wood", description=["x"])
    assert ids(await found(client, "walnut wood")) == ["item_odd"]


async def test_the_index_survives_a_reseed(app: Starlette, client: httpx.AsyncClient) -> None:
    await seed(app.state.db, reset=True)
    assert set(ids(await found(client, "mugs"))) == MUGS
    await insert_item(app, "item_new_cup", "Tall Cup")
    assert ids(await found(client, "tall cup")) == ["item_new_cup"]


def test_migration_backfills_items_written_before_it(tmp_path: Any) -> None:
    path = str(tmp_path / "old.db")
    connection = sqlite3.connect(path, isolation_level=None)
    apply_migrations(connection)
    connection.execute("INSERT INTO stores (id, position, currency, doc) "
                       "VALUES ('s', 0, 'USD', '{\"name\": \"Old Shop\"}')")
    connection.execute("INSERT INTO catalogs (id, store_id, position, doc) "
                       "VALUES ('c', 's', 0, '{}')")
    connection.execute("INSERT INTO items (id, catalog_id, store_id, position, name, price, doc) "
                       "VALUES ('i', 'c', 's', 0, 'Walnut Board', '9', '{}')")
    # Undo migration 0009 as if the items had been written by an older version.
    for kind, name in [("TRIGGER", "items_search_insert"), ("TRIGGER", "items_search_update"),
                       ("TRIGGER", "items_search_delete"), ("TRIGGER", "stores_search_update"),
                       ("VIEW", "item_search_text"), ("TABLE", "items_fts"),
                       ("TABLE", "items_trigram"), ("TABLE", "item_search_keys")]:
        connection.execute(f"DROP {kind} {name}")
    connection.execute("DELETE FROM schema_migrations WHERE version = 9")
    assert apply_migrations(connection) == ["0009_item_search"]
    rows = connection.execute("SELECT keys.item_id FROM items_fts JOIN item_search_keys AS keys "
                              "ON keys.key = items_fts.rowid WHERE items_fts MATCH 'boards'")
    assert [row[0] for row in rows] == ["i"]
    connection.close()


@pytest.mark.parametrize(("typed", "meant", "distance"), [
    ("cermic", "ceramic", 1), ("teapto", "teapot", 1), ("mug", "mug", 0), ("", "abc", 3),
    ("kitten", "sitting", 3)])
def test_edit_distance(typed: str, meant: str, distance: int) -> None:
    assert terms.edit_distance(typed, meant) == distance == terms.edit_distance(meant, typed)


async def test_a_price_in_words_is_not_a_word_to_match(client: httpx.AsyncClient) -> None:
    pizzas = await found(client, "pizza under 20")
    assert pizzas and all("pizza" in (item["name"] + item["description"]).lower()
                          for item in pizzas)
    assert set(ids(await found(client, "a mug less than $20"))) == MUGS
    assert terms.terms_of("12 oz mug") == ["12", "oz", "mug"]  # not a price: kept


def test_terms_drop_filler_words_and_quote_for_fts() -> None:
    assert terms.terms_of("Find me THE glaze mug, the mug") == ["glaze", "mug"]
    assert terms.terms_of("the") == ["the"]
    assert terms.phrase('a"b') == '"a""b"'


async def walk(client: httpx.AsyncClient, **params: str) -> list[dict[str, Any]]:
    """Every page of a search by nextCursor: (items, pagination) of each."""
    pages, params = [], {"limit": "2", **params}
    while True:
        response = await client.get("/search", params=params)
        assert response.status_code == 200, response.text
        body = response.json()
        pages.append(body)
        if not body["pagination"]["nextCursor"]:
            return pages
        params["cursor"] = body["pagination"]["nextCursor"]


async def test_pages_of_one_term_are_read_by_key_name_matches_first(
        app: Starlette, client: httpx.AsyncClient) -> None:
    """One term is read out of the index a page at a time (storage.keyed_page): the pages of
    two join up into every match once, items named by the word before items that only
    mention it, each page ranked within itself; the last page knows the total, previous
    cursors walk back over the same pages, and filters apply before the cut."""
    for number in range(7):
        await insert_item(app, f"item_stoneware_{number}", f"Stoneware Cup {number}",
                          description="stoneware " * (number + 1))
    for number in range(4):
        await insert_item(app, f"item_plain_{number}", f"Plain Cup {number}",
                          description="A cup of stoneware.")
    whole = await found(client, "stoneware")
    pages = await walk(client, q="stoneware")
    walked = [item for body in pages for item in body["items"]]
    assert sorted(ids(walked)) == sorted(ids(whole)) and len(set(ids(walked))) == len(walked)
    named = ["stoneware" in item["name"].lower() for item in walked]
    assert named == sorted(named, reverse=True) and named.count(False) >= 4
    for body in pages:
        scores = [item["relevance"] for item in body["items"]]
        page_named = ["stoneware" in item["name"].lower() for item in body["items"]]
        if len(set(page_named)) == 1:  # a page of one tier is in rank order
            assert scores == sorted(scores, reverse=True)
    assert [body["pagination"]["totalCount"] for body in pages][-1] == len(whole)
    assert all(body["pagination"]["totalCount"] is None for body in pages[:-1])
    back: list[list[str]] = []
    previous = pages[-1]["pagination"]["previousCursor"]
    while previous:
        body = (await client.get("/search", params={"q": "stoneware", "limit": "2",
                                                    "cursor": previous})).json()
        back.insert(0, ids(body["items"]))
        previous = body["pagination"]["previousCursor"]
    assert back == [ids(body["items"]) for body in pages[:-1]]
    only_ceramics = await found(client, "stoneware", storeId="store_ceramics", limit="3")
    assert len(only_ceramics) == 3
    assert all(item["storeId"] == "store_ceramics" for item in only_ceramics)


async def test_a_cursor_of_before_or_of_another_list_is_answered(
        client: httpx.AsyncClient) -> None:
    """An offset cursor (issued before key cursors) is served once by reading up to it; a key
    cursor of another list is a 400, as everywhere."""
    first = (await client.get("/search", params={"q": "mug", "limit": "1"})).json()
    offset = base64.urlsafe_b64encode(json.dumps({"o": 1}).encode()).decode().rstrip("=")
    second = (await client.get("/search", params={"q": "mug", "limit": "1",
                                                  "cursor": offset})).json()
    keyed = (await client.get("/search", params={
        "q": "mug", "limit": "1", "cursor": first["pagination"]["nextCursor"]})).json()
    assert ids(second["items"]) == ids(keyed["items"]) != ids(first["items"])
    foreign = base64.urlsafe_b64encode(json.dumps({"a": ["x", "y"]}).encode()).decode()
    response = await client.get("/search", params={"q": "mug", "cursor": foreign})
    assert response.status_code == 400
    cursor = first["pagination"]["nextCursor"]
    (kind, key), = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))).items()
    for forged in ([7, key[1], key[2]], [key[0], key[1], -3], [key[0], 2**70, key[2]],
                   [key[0], "a\x00", key[2]]):
        text = base64.urlsafe_b64encode(json.dumps({kind: forged}).encode()).decode()
        response = await client.get("/search", params={"q": "mug", "cursor": text})
        assert response.status_code == 400, forged
    # Several terms rank every match and page by offset, with the same contract.
    pages = await walk(client, q="mug teapot")
    assert sorted(ids([item for body in pages for item in body["items"]])) \
        == sorted(MUGS | TEAPOTS)
