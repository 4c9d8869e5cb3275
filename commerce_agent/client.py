"""The async client for the Agent Session Streaming API (see commerce_agent.agent.client)."""

from __future__ import annotations

from commerce_agent.agent.client import AgentAPIError, AgentClient, Session

__all__ = ["AgentAPIError", "AgentClient", "Session"]
