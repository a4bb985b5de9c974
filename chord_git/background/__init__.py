"""Background extraction: the per-project job queue, the worker that drains it, and the agent's
busy/idle signal that gates main-pool model calls (R14, R15, R16)."""
