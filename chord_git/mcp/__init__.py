"""``git memory mcp``: project memory served to MCP clients over stdio (recall on demand).

``tools`` holds the four tools as plain functions over the project; ``server`` is the one module
that imports the ``mcp`` SDK (the optional ``chord-git[mcp]`` extra). The agent hooks never import
this package (``tests/agents/test_hook_imports.py``).
"""
