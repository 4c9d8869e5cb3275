"""Order mail without a database: which mails a change sends, who gets them in which language,
and how each kind reads in every catalog (tests/api/test_mail.py sends real ones)."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.commerce.orders.model import DETAILED_STATUS, KITCHEN_STATUS
from commerce_agent.commerce.services.mail import outbox
from commerce_agent.i18n.messages import catalog, placeholders
from commerce_agent.i18n.negotiation import SUPPORTED_LOCALES

KINDS = ("order_placed", "order_new", "order_shipped", "order_ready", "order_cancelled",
         "order_refunded")
PARAMS = {"orderId": "order_1", "storeId": "store_1", "total": {"amount": "1234.5",
                                                                "currency": "EUR"},
          "amount": {"amount": "5", "currency": "EUR"}}


def _order(status: str = "confirmed", **metadata: Any) -> dict[str, Any]:
    return {"id": "order_1", "storeId": "store_1", "status": status, "metadata": metadata,
            "total": {"amount": "20.00", "currency": "USD"}}


@pytest.mark.parametrize("locale", [code for code in SUPPORTED_LOCALES if code != "en"])
def test_every_mail_exists_in_every_language_with_the_english_placeholders(
        locale: str) -> None:
    for kind in KINDS:
        for part in ("subject", "body"):
            key = f"mail.{kind}.{part}"
            assert key in catalog(locale), (locale, key)
            assert placeholders(catalog(locale)[key]) == placeholders(catalog("en")[key]), key


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_mail_renders_with_its_params_filled(locale: str) -> None:
    for kind in KINDS:
        subject, body = outbox.render(kind, locale, PARAMS)
        assert "order_1" in subject and "order_1" in body, (locale, kind)
        assert "{" not in subject + body and "mail." not in subject + body, (locale, kind)


def test_amounts_are_written_the_recipients_way() -> None:
    assert "1\u202f234,50\xa0€" in outbox.render("order_placed", "fr", PARAMS)[1]
    assert "€1,234.50" in outbox.render("order_placed", "en", PARAMS)[1]
    assert "5,00\xa0€" in outbox.render("order_refunded", "fr", PARAMS)[1]


def test_a_language_without_a_catalog_reads_english() -> None:
    assert outbox.render("order_shipped", "de", PARAMS)[0] == "Your order order_1 has shipped"


def test_a_new_order_is_a_confirmation() -> None:
    assert outbox.customer_kinds(None, _order()) == ["order_placed"]


@pytest.mark.parametrize(("status", "kinds"), [
    ("in_transit", ["order_shipped"]), ("cancelled", ["order_cancelled"]),
    ("delivered", []), ("confirmed", [])])
def test_status_moves_that_send_mail(status: str, kinds: list[str]) -> None:
    assert outbox.customer_kinds(_order(), _order(status)) == kinds


def test_a_status_already_reached_sends_nothing_again() -> None:
    assert outbox.customer_kinds(_order("in_transit"), _order("in_transit")) == []


@pytest.mark.parametrize("metadata", [
    {KITCHEN_STATUS: {"status": "ready"}}, {KITCHEN_STATUS: {"status": "ready_for_pickup"}},
    {DETAILED_STATUS: {"title": "Ready for pickup"}}])
def test_ready_for_pickup_is_told_once(metadata: dict[str, Any]) -> None:
    ready = _order(**metadata)
    assert outbox.customer_kinds(_order(), ready) == ["order_ready"]
    assert outbox.customer_kinds(ready, ready) == []


@pytest.mark.parametrize("metadata", [
    {KITCHEN_STATUS: {"status": "cooking"}}, {KITCHEN_STATUS: "ready"},
    {DETAILED_STATUS: {"title": "Packed"}}, {DETAILED_STATUS: ["Ready for pickup"]}])
def test_other_kitchen_and_detailed_statuses_send_nothing(metadata: dict[str, Any]) -> None:
    assert outbox.customer_kinds(_order(), _order(**metadata)) == []


def test_people_are_read_only_for_a_change_that_mails() -> None:
    assert outbox.needs_people(None, _order(), [])
    assert outbox.needs_people(_order(), _order(), [{"amount": {}}])
    assert outbox.needs_people(_order(), _order("cancelled"), [])
    assert not outbox.needs_people(_order(), _order("delivered"), [])


class _Outbox:
    """A transaction that keeps the mail rows it is given."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    async def defer(self, sql: str, params: dict[str, Any], **_: Any) -> None:
        assert sql.startswith("INSERT INTO mail_messages")
        self.rows.append(dict(params))


def _person(user_id: str, email: str | None, profile: str | None = None,
            merchant: bool = False) -> dict[str, Any]:
    return {"id": user_id, "email": email, "profile": profile, "merchant": merchant}


async def _sent(people: list[dict[str, Any]], previous: dict[str, Any] | None,
                current: dict[str, Any], refunds: list[dict[str, Any]] | None = None
                ) -> list[dict[str, Any]]:
    tx = _Outbox()
    await outbox.order_changed(tx, "user_a", people, previous, current,  # type: ignore[arg-type]
                               refunds or [])
    return tx.rows


async def test_a_placed_order_mails_the_customer_and_each_merchant() -> None:
    rows = await _sent([_person("user_a", "a@example.com"),
                        _person("user_m", "m@example.com", merchant=True),
                        _person("user_n", "n@example.com", merchant=True)], None, _order())
    assert [(row["kind"], row["to_address"]) for row in rows] == [
        ("order_placed", "a@example.com"), ("order_new", "m@example.com"),
        ("order_new", "n@example.com")]
    assert {row["order_id"] for row in rows} == {"order_1"}
    assert all(row["id"].startswith("mail_") for row in rows)


async def test_each_recipient_reads_their_saved_language() -> None:
    rows = await _sent([_person("user_a", "a@example.com",
                                '{"preferences": {"language": "fr-CA"}}'),
                        _person("user_m", "m@example.com", '{"preferences": {"language": 3}}',
                                merchant=True)], None, _order())
    assert [(row["locale"], row["subject"][:5]) for row in rows] == [("fr", "Votre"),
                                                                      ("en", "New o")]


@pytest.mark.parametrize("profile", ["not json", "[]", '{"preferences": "fr"}', None])
async def test_an_unreadable_profile_means_english(profile: str | None) -> None:
    rows = await _sent([_person("user_a", "a@example.com", profile)], None, _order())
    assert rows[0]["locale"] == "en"


async def test_nobody_without_an_address_is_mailed() -> None:
    assert await _sent([_person("user_a", "", merchant=True)], None, _order()) == []
    assert await _sent([], _order(), _order("cancelled")) == []


async def test_each_refund_is_a_mail_with_its_amount() -> None:
    rows = await _sent([_person("user_a", "a@example.com")], _order(), _order(),
                       [{"amount": {"amount": "3.00", "currency": "USD"}}, {}])
    assert [row["kind"] for row in rows] == ["order_refunded", "order_refunded"]
    assert "$3.00" in rows[0]["body"] and "$20.00" in rows[1]["body"]  # no amount: the total
