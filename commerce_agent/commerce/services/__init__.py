"""Business rules of the Commerce API."""
