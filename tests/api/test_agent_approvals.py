"""Approval prompts name exactly what will happen, read from the data the call acts on: the
store, every line with its variant, customizations, add-ons, time slot, quantity and price,
the address or pickup place, the total or the refund; in English, French and Japanese."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.auth.tokens import Principal
from commerce_agent.errors import CommerceError
from commerce_agent.i18n.messages import catalog, placeholders
from commerce_agent.operations import Tool, ToolContext, ToolFailure, all_tools, policy
from tests.support.helpers import US_ADDRESS, add_item, new_cart
from tests.support.lifecycle_support import (
    JP_ADDRESS,
    complete,
    digital_order,
    kitchen_order,
    mug_order,
    order,
)

pytestmark = pytest.mark.both_backends

TOOLS = {tool.short_name: tool for tool in all_tools()}


def context(app: Starlette) -> ToolContext:
    state = app.state
    return ToolContext(state.db, state.settings, state.pay_to,
                       Principal("user_alice", "alice@example.com", "Alice Martin"), "k")


async def prompt(app: Starlette, tool: str, args: dict[str, Any], locale: str) -> str:
    return await policy.prompt(TOOLS[tool], context(app), args, locale)


def test_every_approval_text_exists_in_every_language_with_the_same_placeholders() -> None:
    english = {key: value for key, value in catalog("en").items()
               if key.startswith("approval.")}
    assert len(english) >= 25
    for locale in ("fr", "ja"):
        theirs = {key: value for key, value in catalog(locale).items()
                  if key.startswith("approval.")}
        assert theirs.keys() == english.keys(), locale
        for key, template in english.items():
            assert placeholders(theirs[key]) == placeholders(template), (locale, key)


async def test_a_mug_order_with_variant_and_add_on(app: Starlette, client: httpx.AsyncClient,
                                                   alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], "item_classic_mug", 2,
                   variantId="var_mug_blue_16oz", addOnIds=["addon_ceramics_gift_box"])
    args = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    assert await prompt(app, "place_order", args, "en") == (
        "Place this order at Hearth & Kiln Ceramics?\n"
        "Items:\n"
        "- 2 × Classic Stoneware Mug (Color: Cobalt Blue, Size: 16 oz; add-ons: Gift Box): "
        "$62.00\n"
        "Delivery to: 1 Main St, Springfield, US\n"
        "Shipping (Standard Shipping): $8.50\n"
        "Total to pay: $70.50, with the sandbox test card.")
    express = await prompt(app, "place_order",
                           {**args, "shippingMethodId": "ship_ceramics_express"}, "en")
    assert express.endswith("Shipping (Express Shipping): $24.00\n"
                            "Total to pay: $86.00, with the sandbox test card.")
    assert await prompt(app, "place_order", args, "fr") == (
        "Passer cette commande chez Hearth & Kiln Céramiques ?\n"
        "Articles :\n"
        "- 2 × Mug classique en grès (Couleur : Bleu cobalt, Taille : 16 oz; suppléments : "
        "Coffret cadeau) : 62,00\xa0$US\n"
        "Livraison à : 1 Main St, Springfield, US\n"
        "Livraison (Livraison standard) : 8,50\xa0$US\n"
        "Total à payer : 70,50\xa0$US, avec la carte de test du bac à sable.")
    assert await prompt(app, "place_order", args, "ja") == (
        "ハース＆キルン 陶器店でこの注文を確定しますか？\n"
        "商品：\n"
        "- クラシックマグ（炻器のマグカップ） (色：コバルトブルー, サイズ：16 oz; 追加オプション："
        "ギフトボックス) × 2：$62.00\n"
        "お届け先：1 Main St, Springfield, US\n"
        "送料（通常配送）：$8.50\n"
        "お支払い合計：$70.50（サンドボックスのテストカード）")


async def test_a_discount_names_its_code(app: Starlette, client: httpx.AsyncClient,
                                        alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], "item_classic_mug", 2, variantId="var_mug_blue_16oz")
    applied = await client.post(f"/carts/{cart['id']}/promotions", headers=alice,
                                json={"type": "promo_code", "value": "WELCOME10"})
    assert applied.status_code == 200, applied.text
    args = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    assert "Discount (code WELCOME10): $5.40\n" in await prompt(app, "place_order", args, "en")
    assert "Remise (code WELCOME10) : 5,40\xa0$US" in await prompt(app, "place_order", args, "fr")
    assert "割引（コード WELCOME10）：$5.40" in await prompt(app, "place_order", args, "ja")


async def test_a_pizza_with_customizations_is_picked_up(app: Starlette,
                                                        client: httpx.AsyncClient,
                                                        alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice, "store_trattoria")
    await add_item(client, alice, cart["id"], "item_pizza_margherita", 1, customizations={
        "group_margherita_size": "opt_margherita_size_16in",
        "group_margherita_toppings": ["opt_margherita_top_nduja"]},
        addOnIds=["addon_trattoria_burrata"])
    args = {"cartId": cart["id"]}
    english = await prompt(app, "place_order", args, "en")
    assert ("- 1 × Pizza Margherita (Choose your size: 16-inch; Extra toppings: 'Nduja; "
            "add-ons: Burrata on the side): $31.00") in english
    assert "Pickup at: 2150 N Milwaukee Ave, Chicago" in english
    assert "Total to pay: $31.00" in english
    french = await prompt(app, "place_order", args, "fr")
    assert "Retrait à : 2150 N Milwaukee Ave" in french and "31,00\xa0$US" in french
    # the store's own French names for its options and add-ons (its `options` translations)
    assert ("- 1 × Pizza margherita (Taille : 16 pouces; Garnitures en plus : 'Nduja; "
            "suppléments : Burrata à part)") in french
    assert "受け取り場所：2150 N Milwaukee Ave" in await prompt(app, "place_order", args, "ja")


async def test_a_booked_session_names_its_time_and_place(app: Starlette,
                                                         client: httpx.AsyncClient,
                                                         alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice, "store_lumen_studio")
    await add_item(client, alice, cart["id"], "item_vinyasa_drop_in", 1,
                   timeSlotId="slot_vinyasa_20270111_0700")
    args = {"cartId": cart["id"]}
    assert ("- 1 × Vinyasa Flow — Drop-in Class (January 11, 2027 7:00\u202fAM at Lumen "
            "Studio, 48 Columbia Road, London E2 7NN (Main room)): £14.00") in \
        await prompt(app, "place_order", args, "en")
    assert "11 janvier 2027 07:00 à Lumen Studio" in await prompt(app, "place_order", args, "fr")
    assert "2027年1月11日 7:00、Lumen Studio" in await prompt(app, "place_order", args, "ja")


async def test_yen_and_the_japanese_store_and_item_names(app: Starlette, client: httpx.AsyncClient,
                                               alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice, "store_midori")
    await add_item(client, alice, cart["id"], "item_uji_matcha", 2,
                   variantId="var_matcha_ceremonial_30g")
    args = {"cartId": cart["id"], "deliveryAddress": JP_ADDRESS}
    japanese = await prompt(app, "place_order", args, "ja")
    assert japanese.startswith("緑堂 茶と紙でこの注文を確定しますか？")
    assert "宇治抹茶 (等級：お点前用, 内容量：30 g) × 2：￥3,600" in japanese
    assert "お届け先：1-1 Marunouchi, Chiyoda-ku, Tokyo" in japanese
    english = await prompt(app, "place_order", args, "en")
    assert "Shipping (Yamato Transport (Takkyubin)): ¥800" in english
    assert "Total to pay: ¥4,400" in english


async def test_an_order_that_cannot_be_placed_asks_nobody(app: Starlette,
                                                          client: httpx.AsyncClient,
                                                          alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], "item_limited_glaze_mug", 1)
    with pytest.raises(CommerceError) as refused:
        await prompt(app, "place_order", {"cartId": cart["id"]}, "en")
    assert refused.value.code == "delivery_address_required"


async def test_cancel_names_the_refund(app: Starlette, client: httpx.AsyncClient,
                                       alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    args = {"orderId": placed["id"]}
    assert await prompt(app, "cancel_order", args, "en") == (
        f"Cancel order {placed['id']} from Hearth & Kiln Ceramics?\n"
        "Items:\n"
        "- 1 × Limited Edition Glaze Mug: $18.00\n"
        "Delivery to: 1 Main St, Springfield, US\n"
        "Refund: $26.50 to the original payment method.")  # the mug and its shipping
    french = await prompt(app, "cancel_order", args, "fr")
    assert french.startswith(f"Annuler la commande {placed['id']} de Hearth & Kiln Céramiques")
    assert "Remboursement : 26,50\xa0$US sur le moyen de paiement d'origine." in french
    japanese = await prompt(app, "cancel_order", args, "ja")
    assert f"注文{placed['id']}をキャンセルしますか？" in japanese
    assert "返金：$26.50（元の支払い方法へ）" in japanese


async def test_a_return_names_its_lines_and_refund_estimate(app: Starlette,
                                                            client: httpx.AsyncClient,
                                                            alice: dict[str, str]) -> None:
    placed = await order(client, alice, "store_ceramics", [("item_limited_glaze_mug", 3)],
                         deliveryAddress=US_ADDRESS)
    await complete(app, placed["id"])
    line = placed["items"][0]["id"]
    args = {"orderId": placed["id"], "items": [{"cartItemId": line, "quantity": 2}],
            "preferredResolution": "store_credit", "returnMethod": "in_store"}
    english = await prompt(app, "start_return", args, "en")
    assert "- 2 × Limited Edition Glaze Mug: $36.00" in english
    assert "Estimated store credit: $36.00, once the store has the items back." in english
    assert "You bring the items back to the store." in english
    whole = await prompt(app, "start_return", {"orderId": placed["id"]}, "fr")
    assert "3 × Mug émail édition limitée : 54,00\xa0$US" in whole
    assert "Remboursement estimé : 54,00\xa0$US" in whole
    assert "返金見込み額：$54.00" in await prompt(app, "start_return",
                                            {"orderId": placed["id"]}, "ja")
    too_many = {"orderId": placed["id"], "items": [{"cartItemId": line, "quantity": 4}]}
    with pytest.raises(CommerceError):
        await prompt(app, "start_return", too_many, "en")


async def test_a_tip_names_its_amount(app: Starlette, client: httpx.AsyncClient,
                                      alice: dict[str, str]) -> None:
    placed = await kitchen_order(client, alice)
    await complete(app, placed["id"])
    args = {"orderId": placed["id"], "percentage": 10}
    assert (await prompt(app, "tip_order", args, "en")).startswith(
        f"Add a tip of $2.20 to order {placed['id']} from Trattoria Fiamma")
    assert "pourboire de 2,20\xa0$US" in await prompt(app, "tip_order", args, "fr")
    assert "$2.20のチップ" in await prompt(app, "tip_order", args, "ja")
    with pytest.raises(ToolFailure):
        await prompt(app, "tip_order", {"orderId": placed["id"]}, "en")


async def test_a_rating_names_its_stars_and_comment(app: Starlette, client: httpx.AsyncClient,
                                                    alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    await complete(app, placed["id"])
    args = {"orderId": placed["id"], "overall": 2, "comment": "Chipped"}
    english = await prompt(app, "rate_order", args, "en")
    assert f"Rate order {placed['id']} from Hearth & Kiln Ceramics 2 out of 5?" in english
    assert "Comment: Chipped" in english
    assert "2 sur 5" in await prompt(app, "rate_order", args, "fr")
    assert "5段階中2で評価" in await prompt(app, "rate_order", args, "ja")


async def test_subscription_prompts_say_what_happens_to_billing(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    folio = await digital_order(client, alice, "item_folio_unlimited_monthly")
    terms = folio["metadata"]["dev.commerce.order.subscription"]
    cancel = {"orderId": folio["id"], "action": "cancel"}
    english = await prompt(app, "change_subscription", cancel, "en")
    assert english.startswith(f"Cancel the subscription of order {folio['id']} from Folio")
    assert "Delivered digitally" in english
    assert "Billing stops for good: no further charges" in english
    assert "Résilier l'abonnement" in await prompt(app, "change_subscription", cancel, "fr")
    assert "定期購入を解約しますか" in await prompt(app, "change_subscription", cancel, "ja")
    pause = {"orderId": folio["id"], "action": "pause"}
    assert "the charge due on" in await prompt(app, "change_subscription", pause, "en")
    assert terms["nextBillingDate"]
    with pytest.raises(CommerceError) as refused:
        await prompt(app, "change_subscription", {**pause, "action": "resume"}, "en")
    assert refused.value.code == "invalid_transition"

    studio = await order(client, alice, "store_lumen_studio",
                         [("item_unlimited_studio_monthly", 1)])
    held = {"orderId": studio["id"], "action": "pause"}
    english = await prompt(app, "change_subscription", held, "en")
    assert "- 1 × Unlimited Studio Membership: £95.00" in english
    assert "This plan can only be cancelled after 3 billing cycles." in english
    assert "3 périodes de facturation" in await prompt(app, "change_subscription", held, "fr")
    assert "3回の請求期間" in await prompt(app, "change_subscription", held, "ja")
    with pytest.raises(CommerceError) as refused:
        await prompt(app, "change_subscription", {**held, "action": "cancel"}, "en")
    assert refused.value.code == "minimum_commitment_not_met"
    # Cancelling the whole order ends the subscription too: the same rule answers, for the
    # prompt and for the tool itself (which MCP offers as it is).
    with pytest.raises(CommerceError) as refused:
        await prompt(app, "cancel_order", {"orderId": studio["id"]}, "en")
    assert refused.value.code == "minimum_commitment_not_met"
    with pytest.raises(CommerceError) as refused:
        await TOOLS["cancel_order"].run(context(app), {"orderId": studio["id"]})
    assert refused.value.code == "minimum_commitment_not_met"
    kept = (await client.get(f"/orders/{studio['id']}", headers=alice)).json()
    assert kept["status"] == "confirmed" and "dev.commerce.order.refunds" not in kept["metadata"]


async def test_an_order_of_someone_else_is_not_found(app: Starlette, client: httpx.AsyncClient,
                                                     bob: dict[str, str]) -> None:
    placed = await mug_order(client, bob)
    for tool in ("cancel_order", "start_return", "tip_order", "rate_order"):
        with pytest.raises(ToolFailure) as refused:
            await prompt(app, tool, {"orderId": placed["id"], "overall": 5, "percentage": 5},
                         "en")
        assert refused.value.code == "order_not_found"


def test_an_unknown_locale_gets_english() -> None:
    assert policy.prompt_locale("ar") == "en" and policy.prompt_locale("fr-CA") == "fr"
    assert policy.prompt_locale(None) == "en" and policy.prompt_locale("ja_JP") == "ja"


def test_the_rejection_names_what_was_not_done() -> None:
    tools: dict[str, Tool] = TOOLS
    result = policy.rejected(tools["cancel_order"], {"orderId": "ord_1"})
    assert result["code"] == "rejected_by_user" and result["orderId"] == "ord_1"
    assert "Order ord_1 was not changed" in result["message"]
    placing = policy.rejected(tools["place_order"], {"cartId": "cart_1"})
    assert "No order was placed from cart cart_1" in placing["message"]
    assert json.dumps(placing)  # a plain JSON tool result
