"""What every console page and form shares: who is asking (a merchant, with their stores), the
page's context, reading a posted form with its CSRF token, the redirect after a write with
its one-line outcome, and refusals turned into problems beside the fields."""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import quote, unquote

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from commerce_agent.auth import flows
from commerce_agent.auth.tokens import Principal
from commerce_agent.auth.web import (
    CSRF_FIELD,
    Browser,
    bad_form,
    form_expired,
    message,
    read_form,
    secure_cookies,
)
from commerce_agent.commerce.shop import writes
from commerce_agent.commerce.storage import catalog_writes
from commerce_agent.db import Database, Transaction
from commerce_agent.digits import whole_number
from commerce_agent.errors import CommerceError, not_found
from commerce_agent.http import convert
from commerce_agent.web import paths
from commerce_agent.web.pages import page_context
from commerce_agent.web.templates import render

T = TypeVar("T")
FLASH_COOKIE = "commerce_console_done"
MAX_FORM_BYTES = 11 * 1024 * 1024  # a catalog file (10 MiB) and its fields
# page name (its template is console/<name minus "console-">, its script static/<name>.js
# when there is one) → (path, title)
SECTIONS = {
    "console-orders": (paths.CONSOLE, "Orders"),
    "console-catalog": (paths.CONSOLE_CATALOG, "Items, stock and prices"),
    "console-import": (paths.CONSOLE_IMPORT, "Catalog import"),
    "console-returns": (paths.CONSOLE_RETURNS, "Returns"),
    "console-webhooks": (paths.CONSOLE_WEBHOOKS, "Webhooks"),
    "console-store": (paths.CONSOLE_STORE, "Store and promotions"),
    "console-mail": (paths.CONSOLE_MAIL, "Mail"),
}


@dataclass(frozen=True)
class Upload:
    """A file sent with a form: its name, declared media type and content."""

    filename: str
    media: str
    data: bytes


@dataclass
class Console:
    """One request of a signed-in merchant: their stores and the page's context."""

    request: Request
    browser: Browser
    principal: Principal
    page: str
    stores: list[dict[str, Any]]
    values: dict[str, Any]
    form: dict[str, str] = field(default_factory=dict)
    files: dict[str, Upload] = field(default_factory=dict)

    @property
    def db(self) -> Database:
        database: Database = self.request.app.state.db
        return database

    def store(self, store_id: str) -> dict[str, Any]:
        """One of the merchant's stores; another's (or none) is 404."""
        found = next((store for store in self.stores if store["id"] == store_id), None)
        if found is None:
            raise not_found("store", store_id)
        return found

    def chosen_store(self) -> dict[str, Any] | None:
        """The store of ?store= (404 when not theirs), else their first."""
        wanted = self.request.query_params.get("store")
        if wanted:
            return self.store(wanted[:100])
        return self.stores[0] if self.stores else None

    def filters(self, statuses: Collection[str]) -> tuple[str | None, str | None, list[str]]:
        """The page's filters: ?store= (404 when not theirs), ?status= (None when not one of
        `statuses`), and the ids of the stores shown: the chosen one, else all of them."""
        wanted = self.request.query_params.get("store") or None
        shown = [self.store(wanted)["id"]] if wanted else [store["id"] for store in self.stores]
        return wanted, self.chosen_status(statuses), shown

    def chosen_status(self, statuses: Collection[str]) -> str | None:
        """?status= when it is one of `statuses`, else None (any status)."""
        status = self.request.query_params.get("status") or None
        return status if status in statuses else None

    def show(self, template: str, status: int = 200, **extra: Any) -> Response:
        """The page `template` with the console's context (and the last write's outcome)."""
        values = {**self.values, "stores": self.stores, "sections": SECTIONS,
                  "title": SECTIONS[self.page][1], "query": self.request.url.query,
                  "form": self.form, "errors": {}, **extra}
        response = self.browser.respond(render(template, status=status, **values))
        if FLASH_COOKIE in self.request.cookies:
            response.delete_cookie(FLASH_COOKIE, path=paths.CONSOLE, httponly=True,
                                   samesite="lax", secure=secure_cookies(self.request))
        return response

    def done(self, location: str, outcome: str) -> Response:
        """Post/redirect/get: back to `location`, which then says `outcome` once."""
        response = RedirectResponse(location, status_code=303,
                                    headers={"Cache-Control": "no-store"})
        response.set_cookie(FLASH_COOKIE, quote(outcome[:300]), path=paths.CONSOLE,
                            httponly=True, samesite="lax", secure=secure_cookies(self.request))
        return response

    def back(self, path: str) -> str:
        """`path` with the query the form was posted with (the page's filters)."""
        query = self.request.url.query
        return f"{path}?{query}" if query else path

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run `work` in one transaction."""
        async with self.db.transaction() as tx:
            return await work(tx)


async def open_console(request: Request, page: str, browser: Browser | None = None
                       ) -> Console | Response:
    """The console for this request, or the page that stands in for it: a sign-in prompt
    for a browser not signed in, "merchant accounts only" (403) for a customer."""
    browser = browser or await Browser.of(request)
    values = await page_context(request, browser, page)
    values["done"] = unquote(request.cookies.get(FLASH_COOKIE, ""))[:300]
    shared: dict[str, Any] = {"sections": SECTIONS, "title": SECTIONS[page][1]}
    if browser.principal is None:
        return browser.respond(render("console/layout.html", **values, **shared))
    if not values["merchant"]:
        return browser.respond(render("console/merchants_only.html", status=403, **values,
                                      **shared))
    db = request.app.state.db
    stores = [await writes.admin_store(db, store_id) for store_id in
              await catalog_writes.merchant_store_ids(db, browser.principal.user_id)]
    return Console(request, browser, browser.principal, page, stores, values)


async def _read(request: Request) -> tuple[dict[str, str], dict[str, Upload]] | Response:
    """The posted fields and files, or the page refusing the body: 400 for a body that is
    not a form, 413 past the limit. A multipart body that cannot be parsed has no fields (so
    no CSRF token: the form is refused as expired)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    files: dict[str, Upload] = {}
    if media != "multipart/form-data":
        found = await read_form(request)
        return bad_form(request) if found is None else (found, files)
    declared = request.headers.get("content-length", "")
    if (whole_number(declared) or 0) > MAX_FORM_BYTES:
        return message(request, "Cannot read this form", "The form exceeds 11 MiB.", 413,
                       error=True)
    try:
        async with request.form(max_files=2, max_fields=50, max_part_size=64 * 1024) as data:
            fields = {key: value for key, value in data.items() if isinstance(value, str)}
            for key, value in data.items():
                if isinstance(value, UploadFile) and value.filename:
                    files[key] = Upload(value.filename, (value.content_type or "").lower(),
                                        await value.read(MAX_FORM_BYTES + 1))
    except (HTTPException, MultiPartException):
        return {}, {}
    return fields, files


async def posted(request: Request, page: str) -> Console | Response:
    """The console with the posted form read, in this order: 400/413 for a body that is not
    a form, 403 for a missing or stale CSRF token, then who is asking (signed out: on to the
    sign-in; a customer: 403)."""
    browser = await Browser.of(request)
    read = await _read(request)
    if isinstance(read, Response):
        return browser.respond(read)
    fields, files = read
    if not browser.csrf_ok({CSRF_FIELD: fields.get(CSRF_FIELD, "")}):
        return form_expired(browser, SECTIONS[page][0])
    console = await open_console(request, page, browser)
    if not isinstance(console, Console):
        if console.status_code == 200:  # not signed in
            return RedirectResponse(f"{flows.SIGN_IN_PATH}?next={quote(SECTIONS[page][0])}",
                                    status_code=303)
        return console
    console.form, console.files = fields, files
    return console


Handler = Callable[[Console], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]


def _endpoint(opened: Callable[[Request, str], Awaitable[Console | Response]], page: str
              ) -> Callable[[Handler], Endpoint]:
    def decorate(handle: Handler) -> Endpoint:
        @functools.wraps(handle)
        async def answer(request: Request) -> Response:
            console = await opened(request, page)
            return console if not isinstance(console, Console) else await handle(console)
        return answer
    return decorate


def page_endpoint(page: str) -> Callable[[Handler], Endpoint]:
    """The endpoint of a page of the console: `handle` runs for a merchant; for anyone else
    `open_console`'s answer stands (the sign-in prompt, or merchants only)."""
    return _endpoint(open_console, page)


def form_endpoint(page: str) -> Callable[[Handler], Endpoint]:
    """The endpoint of a form of `page`: `handle` runs only once `posted` has a console (the
    form read, its CSRF token checked, a merchant asking); otherwise its answer stands."""
    return _endpoint(posted, page)


async def submit(console: Console, work: Callable[[Transaction], Awaitable[str]],
                 form_id: str, fields: Mapping[str, str],
                 shown: Callable[..., Awaitable[Response]], location: str) -> Response:
    """Run `work` in one transaction, then back to `location` saying the outcome it returns;
    a refusal shows the page again with the problems beside the form's fields."""
    try:
        outcome = await console.write(work)
    except CommerceError as error:
        return await refused(console, error, form_id, fields, shown)
    return console.done(location, outcome)


def problems(error: CommerceError, fields: Mapping[str, str]) -> dict[str, str]:
    """Where each problem of `error` goes: {form field: reason}, by the JSON pointer each
    detail names (`fields` maps a pointer, or the start of one, to a form field); what no
    field claims goes to "" (shown at the top of the form), else "" sums up every problem."""
    found: dict[str, str] = {}
    for detail in error.details or []:
        pointer = str(detail.get("field") or "")
        reason = str(detail.get("reason") or detail.get("message") or "is not valid")
        name = next((name for prefix, name in fields.items()
                     if pointer == prefix or pointer.startswith(prefix + "/")), "")
        found.setdefault(name, reason)
    if not found:
        found[""] = error.message
    elif "" not in found:
        # An error summary (the GOV.UK pattern): the top says every problem too, so a
        # refusal still reads when its field is not on the page shown again (a form of a
        # variant deleted meanwhile).
        found[""] = "Nothing was changed: " + "; ".join(
            f"{_spoken(name)} {reason}" for name, reason in found.items()) + "."
    return found


def _spoken(field_name: str) -> str:
    """A form field's name as words: `shippingFee` → "shipping fee"."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", field_name).lower()


async def refused(console: Console, error: CommerceError, form_id: str,
                  fields: Mapping[str, str], shown: Callable[..., Awaitable[Response]]
                  ) -> Response:
    """The page again (status of the refusal) with the form's problems beside its fields. A
    404 is the error page (another merchant's things do not exist here)."""
    if error.status == 404:
        return await missing(console, error)
    return await shown(console, status=error.status,
                       errors={form_id: problems(error, fields)})


async def missing(console: Console, error: CommerceError) -> Response:
    """The 404 page for a form about something that is not the merchant's."""
    return console.browser.respond(render(
        "error.html", status=404, **console.values, heading="Not found",
        message="There is nothing at this address: the link may be wrong, or the page was "
                "removed.", code=error.code))


def typed(value: Any, kind: type[T]) -> T:
    """A form's values as the admin API's request struct (its 400 names the field)."""
    return convert(value, kind)
