"""The application factory: the one place where routes, errors and background work meet."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import State
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute
from starlette.types import ASGIApp

from commerce_agent import request_stack
from commerce_agent.agent import routes as agent_routes
from commerce_agent.agent.worker import agent_worker
from commerce_agent.auth import routes as account_routes
from commerce_agent.commerce.admin import (
    image_routes,
    import_routes,
    item_routes,
    mail_routes,
    order_routes,
    store_routes,
)
from commerce_agent.commerce.orders.feed import OrderFeed, order_feed_worker
from commerce_agent.commerce.payments import chain, providers, settlement
from commerce_agent.commerce.routes import (
    carts,
    catalog,
    discovery,
    health,
    images,
    order_actions,
    order_updates,
    orders,
    profile,
    returns,
    webhooks,
)
from commerce_agent.commerce.routes.payments import routes as payment_routes
from commerce_agent.commerce.services.catalog.cache import CatalogCache
from commerce_agent.commerce.services.fulfillment.simulator import simulator_worker
from commerce_agent.commerce.services.mail.sender import mail_sender_worker
from commerce_agent.commerce.services.webhooks.sender import webhook_sender_worker
from commerce_agent.compression import compressed
from commerce_agent.db import DatabaseUnavailable, database_for
from commerce_agent.errors import (
    CommerceError,
    commerce_error_handler,
    database_unavailable_handler,
    http_error_handler,
    internal_error_handler,
)
from commerce_agent.i18n import localize_error
from commerce_agent.mcp import routes as mcp_routes
from commerce_agent.openapi import routes as openapi_routes
from commerce_agent.routing import IndexedRouter
from commerce_agent.seed import seed
from commerce_agent.settings import Settings
from commerce_agent.web import routes as web_routes
from commerce_agent.web.error_pages import error_page
from commerce_agent.web.site_layout import site_page

# Background services started with the app (simulator, webhook sender, …), each an async
# context manager factory taking the app.
Worker = Callable[[Starlette], AbstractAsyncContextManager[None]]


class AppState(State):
    """`app.state` holding its values as plain attributes. Starlette's State answers each read
    through `__getattr__` after a failed lookup whose AttributeError is formatted (Python
    3.11), and the routes read it several times per request."""

    def __setattr__(self, key: str, value: Any) -> None:
        object.__setattr__(self, key, value)

    def __delattr__(self, key: str) -> None:
        object.__delattr__(self, key)


class CommerceApp(Starlette):
    """Starlette whose layers are request_stack's: the same order as Starlette's own (the
    outer layer, the app's middleware from `add_middleware`, the handled errors, the router),
    in fewer coroutines."""

    def __init__(self, *, agent_mount: str, **options: Any) -> None:
        super().__init__(**options)
        self.agent_mount = agent_mount

    def build_middleware_stack(self) -> ASGIApp:
        return compressed(request_stack.stack(self.router, self.user_middleware,
                                              dict(self.exception_handlers),
                                              skip=(self.agent_mount, mcp_routes.MCP_PATH)))


def commerce_routes() -> list[BaseRoute]:
    return [*discovery.routes, *health.routes, *catalog.routes, *carts.routes, *orders.routes,
            *order_updates.routes, *payment_routes, *profile.routes, *account_routes.routes,
            *order_actions.routes, *returns.routes, *webhooks.routes, *openapi_routes.routes,
            *mcp_routes.routes, *store_routes.routes, *item_routes.routes,
            *order_routes.routes, *mail_routes.routes, *import_routes.routes,
            *image_routes.routes, *images.routes,
            *web_routes.routes]


def exact_asset(settings: Settings) -> chain.ExactAsset:
    """The token the `exact` scheme is paid in; chain.AssetMisconfigured says what is wrong."""
    return chain.from_settings(settings.x402_network, settings.x402_asset,
                               settings.x402_asset_name, settings.x402_asset_version)


def create_app(settings: Settings | None = None, *, seed_data: bool = True,
               workers: list[Worker] | None = None) -> Starlette:
    settings = settings or Settings()
    # The card provider, its keys read from the environment here and nowhere else.
    provider = providers.build(settings.payments, os.environ, settings.stripe_api_base)
    providers.install(provider)
    # The x402 `exact` asset and, when set, the facilitator that settles it on chain.
    chain.install(exact_asset(settings))
    facilitator = settlement.build(settings.x402_facilitator)
    settlement.install(facilitator)
    database = database_for(settings.db_path, synchronous=settings.sqlite_synchronous)
    background = [agent_worker, order_feed_worker, webhook_sender_worker, mail_sender_worker,
                  mcp_routes.mcp_worker,
                  *(workers or [])]
    if settings.simulate:
        background.append(simulator_worker)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await database.open()
        try:
            if seed_data:
                await seed(database)
            async with AsyncExitStack() as stack:
                for worker in background:
                    await stack.enter_async_context(worker(app))
                yield
        finally:
            await provider.close()
            if facilitator is not None:
                await facilitator.close()
            await database.close()

    app = CommerceApp(
        agent_mount=settings.agent_mount,
        exception_handlers={CommerceError: commerce_error_handler,
                            HTTPException: http_error_handler,
                            DatabaseUnavailable: database_unavailable_handler,
                            Exception: internal_error_handler},
    )
    # Starlette always builds a plain Router; ours matches by first path segment (routing.py).
    app.router = IndexedRouter([*commerce_routes(), agent_routes.mount(settings.agent_mount)],
                               lifespan=lifespan)
    app.state = AppState()
    app.state.settings = settings
    app.state.db = database
    app.state.order_feed = OrderFeed(database)
    app.state.catalog_cache = CatalogCache(database)
    app.state.pay_to = settings.pay_to
    app.state.max_promotions = settings.max_promotions
    app.state.localize_error = localize_error
    app.state.error_page = error_page
    app.state.site_page = site_page  # the account and consent pages' layout (the shop's)
    return app
