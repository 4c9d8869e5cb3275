"""Discovery and docs: /openapi.json (generated from the app), /docs, /.well-known/commerce."""
