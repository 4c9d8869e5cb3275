"""The admin API (`/admin/...`): merchants run their own stores. Routes are thin: they decode,
check the caller is a merchant of the store (403 for other accounts, 404 for other stores),
and call the same services as seed, `catalog import` and the CLI (commerce/shop/)."""
