"""One module per store ``git memory import`` reads (``imports.registry`` names them)."""
