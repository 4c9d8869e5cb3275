"""HTTP routes of the Commerce API: decode, call a service, encode."""
