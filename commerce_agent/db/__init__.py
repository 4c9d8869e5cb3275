"""SQLite storage: one writer, many readers, numbered migrations."""

from commerce_agent.db.database import Database, Transaction

__all__ = ["Database", "Transaction"]
