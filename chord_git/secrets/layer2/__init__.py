"""Layer 2: detect-secrets behind one adapter (``detect``), its prefilter and its kinds.

Importing this package imports neither ``detect`` nor detect-secrets.
"""
