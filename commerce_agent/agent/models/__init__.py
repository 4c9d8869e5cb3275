"""Models that drive an agent: `scripted` (built in, no network) and `openai` (any
OpenAI-compatible chat-completions endpoint)."""
