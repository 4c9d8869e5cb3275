"""The `openai` model: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
LM Studio), streamed.

`model` runs a step with retries, `transport` speaks HTTP and classifies failures, `stream`
assembles text and tool calls from chunks, `budget` keeps the conversation within the context,
`wire` writes the request body.
"""

from commerce_agent.agent.models.openai.model import OpenAIModel
from commerce_agent.agent.models.openai.transport import RetryPolicy
from commerce_agent.agent.models.openai.wire import request_body, strict_ready

__all__ = ["OpenAIModel", "RetryPolicy", "request_body", "strict_ready"]
