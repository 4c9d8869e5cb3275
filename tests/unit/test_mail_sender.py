"""The mail sender without SMTP or a database: the --smtp URL, the message built from a row,
and what one send records: sent, pending again after a doubling delay (capped), or failed
for good after its last attempt (tests/api/test_mail.py sends through a real SMTP server)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiosmtplib
import pytest

from commerce_agent import clock
from commerce_agent.commerce.services.mail import sender
from commerce_agent.commerce.storage import mail as storage

ROW = {"id": "mail_1", "to_address": "alice@example.com", "subject": "Your order o1",
       "body": "Thank you for your order o1.\n", "attempts": 0}


@pytest.mark.parametrize(("url", "tls", "host", "port"), [
    ("smtp://mail.example", False, "mail.example", 587),
    ("smtps://mail.example", True, "mail.example", 465),
    ("smtp://mail.example:2525", False, "mail.example", 2525),
    ("smtp://[::1]:25", False, "::1", 25)])
def test_the_smtp_url_names_host_port_and_tls(url: str, tls: bool, host: str,
                                              port: int) -> None:
    target = sender.SmtpTarget(url)
    assert (target.implicit_tls, target.host, target.port) == (tls, host, port)
    options = target.options()
    assert options["use_tls"] is tls and options["start_tls"] is (None if not tls else False)
    assert options["username"] is None and options["password"] is None


def test_credentials_are_unescaped_and_kept_out_of_the_repr() -> None:
    target = sender.SmtpTarget("smtps://shop%40example.com:p%3Ass%2Fw@mail.example")
    assert (target.options()["username"], target.options()["password"]) \
        == ("shop@example.com", "p:ss/w")
    assert repr(target) == "SmtpTarget(smtps://shop@example.com:***@mail.example:465)"
    assert "p:ss" not in repr(target) and "p%3A" not in repr(target)


@pytest.mark.parametrize("url", ["http://mail.example", "mail.example:25", "smtp://",
                                 "smtp:///path", ""])
def test_anything_but_an_smtp_url_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="--smtp must be"):
        sender.SmtpTarget(url)


def test_the_message_is_the_rows() -> None:
    mail = sender.message(ROW, "Shop <shop@example.com>")  # type: ignore[arg-type]
    assert (mail["From"], mail["To"], mail["Subject"]) == (
        "Shop <shop@example.com>", "alice@example.com", "Your order o1")
    assert mail.get_content() == "Thank you for your order o1.\n"


class _Db:
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        yield None


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    async def record(tx: Any, outcome: dict[str, Any]) -> None:
        found.append(outcome)

    monkeypatch.setattr(storage, "record", record)
    monkeypatch.setattr(clock, "seconds", lambda: 1_900_000_000.0)  # time stands still
    return found


def _smtp(monkeypatch: pytest.MonkeyPatch, failure: Exception | None) -> list[Any]:
    sent: list[Any] = []

    async def send(message: Any, **options: Any) -> None:
        sent.append((message, options))
        if failure is not None:
            raise failure

    monkeypatch.setattr(aiosmtplib, "send", send)
    return sent


def _sender() -> sender.MailSender:
    return sender.MailSender(_Db(), sender.SmtpTarget("smtp://u:secret@mail.example"),  # type: ignore[arg-type]
                             "shop@example.com", retry_base=30.0)


async def test_a_sent_message_is_recorded_sent(monkeypatch: pytest.MonkeyPatch,
                                               recorded: list[dict[str, Any]]) -> None:
    sent = _smtp(monkeypatch, None)
    await _sender()._send(ROW)  # type: ignore[arg-type]
    assert sent[0][1]["hostname"] == "mail.example" and sent[0][1]["password"] == "secret"
    assert [(r["status"], r["attempt"], r["error"], r["next"]) for r in recorded] \
        == [("sent", 1, None, None)]


@pytest.mark.parametrize(("attempts", "delay"), [(0, 30), (1, 60), (3, 240), (6, 1920)])
async def test_a_failure_waits_twice_as_long_each_time(
        monkeypatch: pytest.MonkeyPatch, recorded: list[dict[str, Any]], attempts: int,
        delay: int) -> None:
    _smtp(monkeypatch, aiosmtplib.SMTPConnectError("refused"))
    await _sender()._send({**ROW, "attempts": attempts})  # type: ignore[arg-type]
    [outcome] = recorded
    assert (outcome["status"], outcome["attempt"]) == ("pending", attempts + 1)
    assert outcome["error"].startswith("SMTPConnectError: refused")
    waited = clock.parse(outcome["next"]) - clock.parse(outcome["at"])
    assert waited.total_seconds() == delay


async def test_the_delay_is_capped(monkeypatch: pytest.MonkeyPatch,
                                   recorded: list[dict[str, Any]]) -> None:
    _smtp(monkeypatch, OSError("unreachable"))
    slow = sender.MailSender(_Db(), sender.SmtpTarget("smtp://mail.example"),  # type: ignore[arg-type]
                             "shop@example.com", retry_base=3600.0)
    await slow._send({**ROW, "attempts": 6})  # type: ignore[arg-type]
    waited = clock.parse(recorded[0]["next"]) - clock.parse(recorded[0]["at"])
    assert waited.total_seconds() == sender.MAX_DELAY


async def test_the_last_attempt_fails_for_good(monkeypatch: pytest.MonkeyPatch,
                                               recorded: list[dict[str, Any]]) -> None:
    _smtp(monkeypatch, TimeoutError())
    await _sender()._send({**ROW, "attempts": sender.MAX_ATTEMPTS - 1})  # type: ignore[arg-type]
    assert [(r["status"], r["next"], r["error"]) for r in recorded] \
        == [("failed", None, "TimeoutError")]


async def test_an_unexpected_error_is_not_recorded_as_a_send(
        monkeypatch: pytest.MonkeyPatch, recorded: list[dict[str, Any]]) -> None:
    _smtp(monkeypatch, RuntimeError("bug"))
    with pytest.raises(RuntimeError):
        await _sender()._send(ROW)  # type: ignore[arg-type]
    assert recorded == []  # the lease runs out and the row is tried again
