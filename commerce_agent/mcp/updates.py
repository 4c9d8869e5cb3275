"""Order updates as `notifications/resources/updated`, for the caller's own orders only.

2026-07-28 clients open a `subscriptions/listen` stream naming the order URIs they follow;
2025-era clients send `resources/subscribe` and hear on the session's standalone stream. Both
watch the app's OrderFeed (the one reader behind the order-updates SSE), so an order that
advances in any process reaches them; a URI that is not one of the caller's orders is simply
not honored (nothing leaks about other customers' orders).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY

from commerce_agent.auth.tokens import Principal
from commerce_agent.background import stop
from commerce_agent.commerce.orders.feed import OrderFeed
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.mcp.resources import order_id_of, order_uri
from commerce_agent.mcp.shop import Shop

# Orders one stream or subscription may name; subscriptions of 2025-era sessions in all.
MAX_FOLLOWED = 100
MAX_SUBSCRIPTIONS = 10_000


class _SessionGone(Exception):
    pass


async def owned_orders(shop: Shop, principal: Principal | None, uris: list[str]) -> list[str]:
    """The order ids among `uris` that belong to `principal`."""
    found: list[str] = []
    for uri in uris[:MAX_FOLLOWED]:
        order_id = order_id_of(uri)
        if principal is None or order_id is None or order_id in found:
            continue
        if await order_storage.get_order(shop.db, order_id, principal.user_id) is not None:
            found.append(order_id)
    return found


async def follow(feed: OrderFeed, order_id: str,
                 updated: Callable[[str], Awaitable[None]]) -> None:
    """Call `updated(uri)` after each change of the order, until cancelled."""
    while True:
        async with feed.watch(order_id) as watcher:
            while True:
                event = await watcher.queue.get()
                await updated(order_uri(order_id))
                if event.seq < 0:  # dropped for falling behind: watch again
                    break


class Listen:
    """The `subscriptions/listen` handler (2026-07-28)."""

    def __init__(self, shop: Shop) -> None:
        self.shop = shop

    async def __call__(self, ctx: ServerRequestContext[Any, Any],
                       params: types.SubscriptionsListenRequestParams
                       ) -> types.SubscriptionsListenResult:
        principal = self.shop.caller(ctx.request)
        wanted = list(params.notifications.resource_subscriptions or [])
        orders = await owned_orders(self.shop, principal, wanted)
        meta: dict[str, Any] = {SUBSCRIPTION_ID_META_KEY: ctx.request_id}
        honored = types.SubscriptionFilter(
            resource_subscriptions=[order_uri(order_id) for order_id in orders] or None)
        await ctx.session.send_notification(
            types.SubscriptionsAcknowledgedNotification(
                params=types.SubscriptionsAcknowledgedNotificationParams(
                    notifications=honored, _meta=meta)),
            related_request_id=ctx.request_id)

        async def updated(uri: str) -> None:
            await ctx.session.send_notification(
                types.ResourceUpdatedNotification(
                    params=types.ResourceUpdatedNotificationParams(uri=uri, _meta=meta)),
                related_request_id=ctx.request_id)

        # Open until the client goes (which cancels this handler), even following nothing.
        async with asyncio.TaskGroup() as group:
            group.create_task(asyncio.Event().wait())
            for order_id in orders:
                group.create_task(follow(self.shop.order_feed, order_id, updated))
        return types.SubscriptionsListenResult(_meta=meta)  # not reached: cancelled


class Subscriptions:
    """`resources/subscribe` and `resources/unsubscribe` (2025-era sessions)."""

    def __init__(self, shop: Shop) -> None:
        self.shop = shop
        self._followers: dict[tuple[int, str], asyncio.Task[None]] = {}

    async def subscribe(self, ctx: ServerRequestContext[Any, Any],
                        params: types.SubscribeRequestParams) -> types.EmptyResult:
        principal = self.shop.caller(ctx.request)
        orders = await owned_orders(self.shop, principal, [params.uri])
        key = _key(ctx, params.uri)
        if orders and key not in self._followers:
            if len(self._followers) >= MAX_SUBSCRIPTIONS:
                raise MCPError(types.INTERNAL_ERROR, "Too many order subscriptions; try later.")
            # The SDK's notifications to a closed session are dropped silently: hold the
            # connection weakly, and stop following at the first change after it is gone.
            connection = weakref.ref(getattr(ctx.session, "_connection", ctx.session))

            async def updated(uri: str) -> None:
                alive = connection()
                if alive is None:
                    raise _SessionGone
                await alive.send_resource_updated(uri)

            task = asyncio.create_task(self._follow(key, orders[0], updated))
            self._followers[key] = task
        return types.EmptyResult()

    async def _follow(self, key: tuple[int, str], order_id: str,
                      updated: Callable[[str], Awaitable[None]]) -> None:
        try:
            await follow(self.shop.order_feed, order_id, updated)
        except Exception:  # noqa: S110 - the session is gone (or its stream broke): stop
            pass
        finally:
            self._followers.pop(key, None)

    async def unsubscribe(self, ctx: ServerRequestContext[Any, Any],
                          params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        key = _key(ctx, params.uri)
        await stop(self._followers.pop(key, None))
        return types.EmptyResult()

    async def close(self) -> None:
        for task in list(self._followers.values()):
            task.cancel()
        self._followers.clear()


def _key(ctx: ServerRequestContext[Any, Any], uri: str) -> tuple[int, str]:
    # One follower per connection and URI; the SDK keeps the connection on the session.
    return id(getattr(ctx.session, "_connection", ctx.session)), uri
