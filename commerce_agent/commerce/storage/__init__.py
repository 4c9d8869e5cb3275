"""SQL for each aggregate of the Commerce API."""
