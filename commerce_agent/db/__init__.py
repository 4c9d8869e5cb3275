"""Storage: SQLite (one file, the default) or PostgreSQL, behind one interface; numbered
migrations for each."""

from commerce_agent.db.backends import database_for
from commerce_agent.db.base import (
    Check,
    Database,
    DatabaseUnavailable,
    IntegrityError,
    Row,
    Transaction,
    WriteConflict,
    locking,
    retry_conflicts,
)

__all__ = ["Check", "Database", "DatabaseUnavailable", "IntegrityError", "Row", "Transaction",
           "WriteConflict", "database_for", "locking", "retry_conflicts"]
