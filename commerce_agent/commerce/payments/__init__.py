"""x402 payments: the 402 requirements, the sandbox fiat provider and `exact` signatures."""
