"""Catalog: stores, catalogs and items as clients see them, their caches and search."""
