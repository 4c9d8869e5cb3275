"""The Agent Session Streaming API: sessions, journals, the turn runner, models and tools."""
