"""commerce-agent: a local commerce backend and shopping-agent server in one process."""

__version__ = "0.1.0"
