"""Message histories of written conversations as the scripted agent played them, recorded to
recorded_conversations.json for tests that need real histories without running the app
(tests/unit/test_agent_folds.py).

Any history is a valid input to the fold, so the recording stays a fair test after the rules
change; re-record it to follow them:

    PYTHONPATH=. python -m tests.support.recorded_conversations
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import tempfile
from pathlib import Path
from typing import Any

import httpx

from commerce_agent.agent.models.base import Message, ToolCallRecord
from commerce_agent.app import create_app
from commerce_agent.settings import Settings
from tests.support.app import MEDIA, token_for
from tests.support.conversation_support import FOLDER, Person, seeded_database, with_order_ids
from tests.support.seeded import copy_seeded

RECORDING = Path(__file__).with_name("recorded_conversations.json")
# Written conversations (never the set-aside ones), the first few of each file.
FILES = ("ceramics", "trattoria", "midori", "lumen", "ebooks", "several_stores",
         "checkout_details", "configurations", "languages_round5", "references_round5",
         "mind_round6", "oneshot_round6", "aftersale_round6", "units_round6")
PER_FILE = 3


def load() -> list[tuple[str, dict[str, Any], list[Message]]]:
    """(name, client context, messages) of each recorded conversation."""
    found = []
    for entry in json.loads(RECORDING.read_text(encoding="utf-8")):
        messages = [Message(**{**message, "tool_calls": [
            ToolCallRecord(**call) for call in message["tool_calls"]]})
            for message in entry["messages"]]
        found.append((entry["name"], entry["context"], messages))
    return found


async def _play(conversation: dict[str, Any], seeded: Path, folder: Path) -> dict[str, Any]:
    target = folder / f"{conversation['name']}.db"
    copy_seeded(seeded, str(target))
    app = create_app(Settings(db_path=str(target), base_url="http://test", simulate=False,
                              sqlite_synchronous="NORMAL"))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test",
                                     headers={"Accept": MEDIA}) as client:
            headers = {"Authorization": f"Bearer {await token_for(app, 'user_alice')}"}
            person = Person(app, client, headers)
            for turn in conversation["turns"]:
                turn = {"say": turn} if isinstance(turn, str) else turn
                if "merchant" in turn:
                    await person.merchant(turn["merchant"])
                    continue
                await person.say(await with_order_ids(person, turn["say"]),
                                 turn.get("approve", True), conversation.get("context"))
            played = await app.state.agent.conversation(person.session_id)
    return {"name": conversation["name"], "context": conversation.get("context") or {},
            "messages": [dataclasses.asdict(message) for message in played.messages]}


async def record() -> None:
    folder = Path(tempfile.mkdtemp())
    seeded = await seeded_database(folder)
    recorded = []
    for name in FILES:
        for conversation in json.loads((FOLDER / f"{name}.json").read_text("utf-8"))[:PER_FILE]:
            recorded.append(await _play(conversation, seeded, folder))
    RECORDING.write_text(json.dumps(recorded, ensure_ascii=False, separators=(",", ":")),
                         encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(record())
