"""Hostile inputs a cloned repository can ship, built at run time for the trust-boundary tests."""
from __future__ import annotations


def billion_laughs(levels: int) -> str:
    """The classic YAML alias bomb: each level lists the previous one nine times."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, levels):
        name, prev = chr(97 + level), chr(96 + level)
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"
