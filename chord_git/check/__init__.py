"""``git memory check`` and ``scan``: the rules a memory file must pass (schema and caps, secrets)
and the reports (text, JSON, SARIF) that the pre-commit hook and CI read."""
