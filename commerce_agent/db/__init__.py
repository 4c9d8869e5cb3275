"""Storage: SQLite (one file, the default) or PostgreSQL, behind one interface; numbered
migrations for each."""

from commerce_agent.db.backends import database_for
from commerce_agent.db.base import Database, IntegrityError, Row, Transaction

__all__ = ["Database", "IntegrityError", "Row", "Transaction", "database_for"]
