"""The held-out conversation sets (tests/heldout/ to tests/heldout11/): well
formed, their expectations name what the stores really sell, their checks judge what they
claim to, and the agent stays at or above the floor each set records in its FLOOR.json (safety
failures at most, pass rate at least).

The sets are never tuned against; see the README.md of each set."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.heldout_support import (
    FLOOR,
    FOLDERS,
    Outcome,
    changed_orders,
    changes,
    in_language,
    load_heldout,
    missing,
    rates,
    run_all,
)

SETS = {folder.name: load_heldout(folder) for folder in FOLDERS}
CONVERSATIONS = [c | {"set": name} for name, found in SETS.items() for c in found]
STORES = Path(__file__).parents[2] / "sample_data" / "stores"
# What the set exists to measure (issue 21): each must have conversations of its own.
CATEGORIES = {"question-no-change", "negation", "decline-offer", "variant-change",
              "units-not-counts", "quantity-words", "confirmations", "codes", "order-status",
              "cheapest", "last-order", "address-in-sentence", "several-items", "price-limit",
              "french", "japanese", "approval", "approval-prompt", "answers", "fees",
              "subscription", "typos"}


def catalog() -> dict[str, dict[str, Any]]:
    """Per store: its currency and, per item, the ids a line may name."""
    stores: dict[str, dict[str, Any]] = {}
    for path in sorted(STORES.glob("*.json")):
        store = json.loads(path.read_text(encoding="utf-8"))
        items = {}
        for listed in store["catalogs"]:
            for item in listed["items"]:
                metadata = item.get("metadata", {})
                groups = metadata.get("dev.commerce.product.customization", {}).get("groups", [])
                items[item["id"]] = {
                    "variants": {v["id"] for v in metadata.get(
                        "dev.commerce.product.variants", {}).get("variants", [])},
                    "groups": {g["id"]: {o["id"] for o in g["options"]} for g in groups},
                    "addons": {a["id"] for a in metadata.get(
                        "dev.commerce.product.addons", {}).get("items", [])},
                    "slots": {s["id"] for s in metadata.get(
                        "dev.commerce.service.scheduling", {}).get("timeSlots", [])}}
        stores[store["id"]] = {"currency": store["currency"], "items": items}
    return stores


def wrong_lines(store: dict[str, Any], lines: list[list[Any]]) -> list[str]:
    wrong = []
    for line in lines:
        item = store["items"].get(line[0])
        options = line[2] if len(line) > 2 else {}
        if item is None or not isinstance(line[1], int) or line[1] < 1:
            wrong.append(f"{line}")
            continue
        if item["variants"] and options.get("variantId") not in item["variants"]:
            wrong.append(f"{line}: variant")
        for group, chosen in options.get("customizations", {}).items():
            picked = chosen if isinstance(chosen, list) else [chosen]
            if not set(picked) <= item["groups"].get(group, set()):
                wrong.append(f"{line}: {group}")
        if not set(options.get("addOnIds", [])) <= item["addons"]:
            wrong.append(f"{line}: add-ons")
    return wrong


@pytest.mark.parametrize("folder", FOLDERS, ids=[folder.name for folder in FOLDERS])
def test_the_set_is_well_formed_and_covers_what_it_measures(folder: Path) -> None:
    conversations = SETS[folder.name]
    assert len(conversations) >= 70
    names = [c["name"] for c in conversations]
    assert len(set(names)) == len(names)
    assert CATEGORIES - {tag for c in conversations for tag in c["covers"]} == set()
    assert {c["store"] for c in conversations} == set(catalog())
    assert (folder / FLOOR.name).is_file()
    for conversation in conversations:
        assert {"name", "store", "covers", "turns", "expect"} <= set(conversation)
        assert conversation.get("replyLanguage") in (None, "fr", "ja")
        for turn in conversation["turns"]:
            assert isinstance(turn, str) or "say" in turn or "merchant" in turn, turn


@pytest.mark.parametrize("conversation", CONVERSATIONS,
                         ids=[f"{c['set']}/{c['name']}" for c in CONVERSATIONS])
def test_expectations_name_what_the_stores_sell(conversation: dict[str, Any]) -> None:
    stores = catalog()
    assert conversation["store"] in stores
    for order in conversation["expect"].get("orders", []):
        store = stores[order["store"]]
        assert order["currency"] == store["currency"]
        assert wrong_lines(store, order["items"]) == []
        booked = {s for line in order["items"] for s in store["items"][line[0]]["slots"]}
        assert set(order.get("slots", [])) <= booked
    for store_id, lines in conversation["expect"].get("carts", {}).items():
        assert wrong_lines(stores[store_id], lines) == []


def test_the_language_check_tells_french_and_japanese_from_english() -> None:
    assert in_language("Voici le mug classique en grès. Voulez-vous l'ajouter à votre panier ?",
                       "fr")
    assert in_language("Commande ord_01a2 passée et payée (Théière céladon, 72.00 USD).", "fr")
    assert not in_language("I found 5 matches: the best one is the Celadon Teapot.", "fr")
    assert not in_language("", "fr")
    assert in_language("ご注文 ord_01a2142fae7c は確定しました。合計 8800 JPY。", "ja")
    assert not in_language("I found Uji Matcha (1800 JPY). Want me to add it?", "ja")
    assert not in_language("宇治抹茶 Uji Matcha ceremonial grade thirty grams tin", "ja")
    # A Japanese sentence holding a number is still Japanese (no spaces around the number).
    assert in_language("お届けから14日以内なら返品できます。", "ja")
    assert in_language("常滑焼の急須 300ml を1つ：￥8,800", "ja")
    assert not in_language("Returns are accepted within 14 days of delivery.", "ja")


def test_mentions_accept_any_of_their_words_case_insensitively() -> None:
    assert missing("Cancel any time, no fee.", ["fee", ["anytime", "any time"]]) == []
    assert missing("A 3-month minimum applies.", [["three month", "3 month"]]) == [
        ["three month", "3 month"]]
    assert missing("Total 54.00 USD, Cobalt Blue / 16 oz", ["cobalt blue", "54.00"]) == []


def test_a_mention_found_only_inside_a_generated_id_is_missing() -> None:
    said = "Your order ord_01a21d9b821c9f68c740d168a947 can be paused."
    assert missing(said, [["7"]]) == [["7"]]
    assert missing(said, ["ord_01a21d9b821c9f68c740d168a947", "paused"]) == []


def test_a_change_is_any_new_order_or_changed_state() -> None:
    before: dict[str, dict[str, Any]] = {"ord_a": {
        "status": "confirmed", "refunds": {}, "returns": [],
        "subscription": "active", "tip": None}}
    assert changes(before, before) == []
    paused = {"ord_a": {**before["ord_a"], "subscription": "paused"}}
    assert changes(before, paused) == ["ord_a subscription: active -> paused"]
    placed = {**before, "ord_b": {**before["ord_a"], "subscription": None}}
    assert changes(before, placed) == ["ord_b was placed (confirmed)"]
    # One approved cancel of a subscription order changes two things of one order.
    cancelled = {"ord_a": {**before["ord_a"], "status": "cancelled", "subscription": "cancelled"}}
    assert changed_orders(changes(before, cancelled)) == {"ord_a"}
    assert changed_orders(changes(before, {**placed, **cancelled})) == {"ord_a", "ord_b"}


@pytest.fixture(scope="module", ids=[folder.name for folder in FOLDERS], params=FOLDERS)
def judged(request: pytest.FixtureRequest) -> tuple[dict[str, Any], list[Outcome]]:
    """A set's floor and its outcomes, each set run once per module (and worker)."""
    folder: Path = request.param
    floor = json.loads((folder / FLOOR.name).read_text())
    return floor, asyncio.run(run_all(folder=folder))


def test_safety_failures_stay_at_or_below_the_floor(
        judged: tuple[dict[str, Any], list[Outcome]]) -> None:
    floor, outcomes = judged
    unsafe = [f"{o.name}: {f}" for o in outcomes for f in o.safety]
    assert len(unsafe) <= floor["max_safety_failures"], "\n".join(unsafe)


def test_the_pass_rate_stays_at_or_above_the_floor(
        judged: tuple[dict[str, Any], list[Outcome]]) -> None:
    floor, outcomes = judged
    overall, _ = rates(outcomes)
    failed = [f"{o.name}: {(o.reasons + o.safety)[0][:200]}" for o in outcomes if not o.passed]
    assert overall >= floor["min_pass_rate"], "\n".join(failed)
