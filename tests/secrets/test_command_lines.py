"""Passwords on command lines in long lines: each flag reads the command of the last tool before it."""
from __future__ import annotations

from chord_git.secrets import find, redact
from chord_git.secrets.scanners import commands
from chord_git.secrets.text.normalize import ascii_view


def test_every_command_in_a_long_line_is_read_whole() -> None:
    """Commands in a line longer than a command's reach used to be read in windows that followed
    each other, so a command cut by a window's edge lost its password or part of it; each anchor
    now reads the command of the last tool before it."""
    unit = "mysql -u root -pS3cr3tPw "
    text = unit * 50
    spans = commands.scan(text, ascii_view(text))
    assert [text[s.start:s.end] for s in spans] == ["S3cr3tPw"] * 50
    words = " ".join(f"{unit}{n}" for n in range(20))
    assert [words[s.start:s.end] for s in commands.scan(words, ascii_view(words))] == ["S3cr3tPw"] * 20
    line = "sqlplus scott/ghXr3xi%So@orcl\t" * 200
    assert redact(line).count("ghXr3xi%So") == 0


def test_a_command_reads_up_to_its_segment_and_line() -> None:
    text = "mysql -uroot -pS3cr3tX9 db && docker login -u me -p Tok3nX99q reg | grep -p x\nsshpass -p Hunt3rX99 ssh h"
    values = [text[s.start:s.end] for s in commands.scan(text, ascii_view(text))]
    assert values == ["S3cr3tX9", "Tok3nX99q", "Hunt3rX99"]
    far = "mysql " + "a " * 250 + "-pS3cr3tX9"  # the flag more than 400 characters after its tool
    assert commands.scan(far, ascii_view(far)) == []
    other_line = "mysql db\n -pS3cr3tX9"
    assert commands.scan(other_line, ascii_view(other_line)) == []


def test_dense_commands_in_one_line_are_each_found() -> None:
    text = " ".join(f"sshpass -p Hunt3rX{n:03d} ssh host{n};" for n in range(300))
    assert len(find(text)) == 300
