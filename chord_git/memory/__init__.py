"""The project's memory as files: where they live (``project``), MEMORY.md's managed section
(``index_file``), record and promotion files, the read-side view and the locked, atomic store."""
