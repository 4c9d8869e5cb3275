"""The redis journal: each session's events in a Redis Stream, its record in a hash.

`--journal redis://127.0.0.1:6379/0` (optionally `?prefix=NAME:` to namespace the keys). A
commit is one Lua script, so the version check, the appends (stream ids `0-<index+1>`) and the
record update are atomic across every server sharing the Redis. Each commit publishes the
session id; every process subscribes once and wakes its local followers, with a slow poll as a
safety net should a notification be lost while reconnecting.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from commerce_agent.agent.journals.base import Conflict, Journal, SessionExists
from commerce_agent.agent.records import SessionRecord, decode_record, encode_record
from commerce_agent.background import stop

try:
    import redis.asyncio as aioredis
except ImportError:  # pragma: no cover - depends on the installed extras
    aioredis = None  # type: ignore[assignment]

DEFAULT_PREFIX = "commerce-agent:"
POOL_SIZE = 32
MISSING = "The redis journal needs the `redis` package: pip install 'commerce-agent[redis]'"


def available() -> bool:
    return aioredis is not None

# KEYS: record hash, event stream, running set.
# ARGV: expected version ("" to create), new version, record, status, session id, channel,
# notification, then one encoded event per argument.
_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == '' then
  if current then return -1 end
elseif current ~= ARGV[1] then
  return -1
end
local length = tonumber(redis.call('HGET', KEYS[1], 'length') or '0')
for i = 8, #ARGV do
  length = length + 1
  redis.call('XADD', KEYS[2], '0-' .. length, 'e', ARGV[i])
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'length', length, 'record', ARGV[3])
if ARGV[4] == 'running' then
  redis.call('SADD', KEYS[3], ARGV[5])
else
  redis.call('SREM', KEYS[3], ARGV[5])
end
if #ARGV >= 8 then
  redis.call('PUBLISH', ARGV[6], ARGV[7])
end
return length
"""


# KEYS: event stream. ARGV: first stream id, count (0: all). Returns the encoded events joined
# into one string (each ends with a newline): far cheaper to parse than XRANGE's entries.
_READ = """
local entries
if ARGV[2] == '0' then
  entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+')
else
  entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
end
local lines = {}
for i, entry in ipairs(entries) do
  lines[i] = entry[2][2]
end
return table.concat(lines)
"""


def split_url(url: str) -> tuple[str, str]:
    """The connection URL without our `prefix` parameter, and the key prefix."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query)
    prefix = next((value for key, value in query if key == "prefix"), DEFAULT_PREFIX)
    rest = urlencode([(key, value) for key, value in query if key != "prefix"])
    return urlunsplit(parts._replace(query=rest)), prefix


class RedisJournal(Journal):
    name = "redis"
    poll_interval = 1.0

    def __init__(self, url: str) -> None:
        if aioredis is None:
            raise RuntimeError(MISSING)
        super().__init__()
        self.url, self.prefix = split_url(url)
        # A bounded pool that waits for a free connection: a thousand streams opening at once
        # share it instead of failing with "Too many connections".
        pool = aioredis.BlockingConnectionPool.from_url(self.url, max_connections=POOL_SIZE,
                                                        timeout=30)
        self.client: Any = aioredis.Redis.from_pool(pool)
        self._script: Any = self.client.register_script(_COMMIT)
        self._reader: Any = self.client.register_script(_READ)
        self._listener: asyncio.Task[None] | None = None
        self.origin = secrets.token_hex(8)

    @property
    def channel(self) -> str:
        return f"{self.prefix}notify"

    def _keys(self, session_id: str) -> list[str]:
        return [f"{self.prefix}session:{session_id}", f"{self.prefix}events:{session_id}",
                f"{self.prefix}running"]

    async def open(self) -> None:
        await self.client.ping()
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        self._listener = asyncio.create_task(self._listen(pubsub))
        await super().open()

    async def close(self) -> None:
        await super().close()
        await stop(self._listener)
        await self.client.aclose()

    async def _listen(self, pubsub: Any) -> None:
        try:
            while True:
                try:
                    message = await pubsub.get_message(timeout=5.0)
                except Exception:  # a broken connection: wait, then let redis-py reconnect
                    await asyncio.sleep(1.0)
                    continue
                if message is not None and message.get("type") == "message":
                    session_id, _, origin = message["data"].decode().partition(" ")
                    if origin != self.origin:  # our own commits already reached followers
                        self.notifier.notify(session_id)
        finally:
            await pubsub.aclose()

    async def _run(self, expected: str, record: SessionRecord, lines: list[bytes]) -> int:
        result: int = await self._script(
            keys=self._keys(record.id),
            args=[expected, record.version, encode_record(record), record.status, record.id,
                  self.channel, f"{record.id} {self.origin}", *lines])
        return result

    async def _insert(self, record: SessionRecord, lines: list[bytes]) -> None:
        if await self._run("", record, lines) < 0:
            raise SessionExists(record.id)

    async def _replace(self, old: SessionRecord, new: SessionRecord, lines: list[bytes]) -> None:
        if await self._run(str(old.version), new, lines) < 0:
            raise Conflict(old.id)

    async def load(self, session_id: str) -> SessionRecord | None:
        data = await self.client.hget(self._keys(session_id)[0], "record")
        return None if data is None else decode_record(data)

    async def read(self, session_id: str, start: int, limit: int | None = None) -> list[bytes]:
        joined: bytes = await self._reader(keys=[self._keys(session_id)[1]],
                                           args=[f"0-{start + 1}", limit or 0])
        return joined.splitlines(keepends=True)

    async def running(self) -> list[SessionRecord]:
        members = await self.client.smembers(f"{self.prefix}running")
        found = []
        for member in sorted(members):
            record = await self.load(member.decode())
            if record is not None and record.status == "running":
                found.append(record)
        return found

    async def marks(self, session_ids: list[str]) -> dict[str, object]:
        async with self.client.pipeline(transaction=False) as pipe:
            for session_id in session_ids:
                pipe.hget(self._keys(session_id)[0], "length")
            lengths = await pipe.execute()
        return {session_id: length for session_id, length in zip(session_ids, lengths,
                                                                   strict=True)
                if length is not None}
