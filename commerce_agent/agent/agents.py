"""Named agents: instructions, a model and a set of tools; `shopper` is the default."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from commerce_agent.agent.models.base import Model
from commerce_agent.agent.models.openai import OpenAIModel, RetryPolicy
from commerce_agent.agent.models.scripted import ScriptedModel
from commerce_agent.operations import COMMERCE, Tool, all_tools
from commerce_agent.settings import Settings

DEFAULT_AGENT = "shopper"
INSTRUCTIONS = (
    "You are a shopping assistant for the stores on this server. Find products with the "
    "search tools, build the user's cart, and place orders only through the tools; placing an "
    "order asks the user for approval first. Quote prices exactly as the tools return them, "
    "and never invent products, prices, order ids or statuses.")


@dataclass
class Agent:
    name: str
    description: str
    instructions: str
    model: Model
    model_name: str
    tools: dict[str, Tool] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "model": self.model_name, "description": self.description}


def connections(tools: list[Tool]) -> list[dict[str, Any]]:
    names = sorted({tool.connection for tool in tools if tool.connection})
    return [{"name": name, "title": "Commerce API" if name == COMMERCE else name,
             "authorization": "consent",
             "description": "Acts for a signed-in user: carts, orders, payments, returns.",
             "tools": [tool.name for tool in tools if tool.connection == name]}
            for name in names]


OPENAI_AGENT = "openai-shopper"


def agent_names(settings: Settings) -> list[str]:
    """The agents build_agents makes for these settings (what /openapi.json offers)."""
    return [DEFAULT_AGENT, *([OPENAI_AGENT] if settings.openai_base_url else [])]


def build_agents(settings: Settings, http: httpx.AsyncClient, pace: float = 0.0
                 ) -> dict[str, Agent]:
    tools = {tool.name: tool for tool in all_tools()}
    agents = {DEFAULT_AGENT: Agent(
        DEFAULT_AGENT, "Shops the sample stores with the built-in scripted model (no network).",
        INSTRUCTIONS, ScriptedModel(pace), "scripted", tools)}
    if settings.openai_base_url:
        policy = RetryPolicy(max_retries=settings.openai_max_retries,
                             base_delay=settings.openai_retry_seconds)
        model = OpenAIModel(settings.openai_base_url, settings.openai_api_key,
                            settings.openai_model, http, policy=policy,
                            timeout=settings.openai_timeout,
                            context_tokens=settings.openai_context_tokens)
        agents[OPENAI_AGENT] = Agent(
            OPENAI_AGENT, f"Shops with {settings.openai_model} at "
            f"{settings.openai_base_url}.", INSTRUCTIONS, model,
            f"openai:{settings.openai_model}", tools)
    return agents
