"""Layer 1's scanners, one module per kind of text; ``secrets.scan`` runs them."""
