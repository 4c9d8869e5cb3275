"""Returns and the refunds they (and cancellations) give back."""
