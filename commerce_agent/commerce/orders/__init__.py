"""Orders: placing them, their view, events, live updates and the actions on them."""
