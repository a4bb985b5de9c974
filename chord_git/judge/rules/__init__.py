"""The judge's rules as data: frames with per-language word tables and their examples."""
