"""Reading a store of Markdown files, or one Markdown file: the items of each, in name order."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from chord_git.imports import markdown, reading
from chord_git.imports.registry import Read

# A file's front matter and body, turned into its items (a source's own reading of a file).
FileItems = Callable[[str, str], list[markdown.Item]]


def body_items(rel: str, text: str) -> list[markdown.Item]:
    """Every bullet and paragraph of the body; front matter is the file's description, not an item."""
    front = markdown.front_matter(text)
    return markdown.items(front.body, front.body_line)


def read_markdown(root: Path, problems: list[reading.Problem], *, suffixes: tuple[str, ...] = (".md",),
                  names: tuple[str, ...] = (), recursive: bool = True,
                  file_items: FileItems = body_items) -> Iterator[Read]:
    """The items of ``root``: a folder's matching files, or ``root`` itself when it is a file."""
    if not root.is_dir() or root.is_symlink():
        text = reading.read_one(root, problems)
        if text is not None:
            name = reading.printable(root.name)
            yield from (Read(name, item) for item in file_items(name, text))
        return
    for file in reading.files(root, suffixes=suffixes, names=names, recursive=recursive, problems=problems):
        text = reading.read_text(file, problems)
        if text is not None:
            yield from (Read(file.rel, item) for item in file_items(file.rel, text))
