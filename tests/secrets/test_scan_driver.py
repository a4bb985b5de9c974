"""The driver's own arithmetic (``secrets/scan.py``): line numbers of every secret ``find``
reports, the part of a file layer 2 reads, and how overlapping spans become one."""
from __future__ import annotations

from chord_git.secrets import LAYER2_MAX_CHARS, LAYER2_MAX_LINE, find, redact, scan_added_lines
from chord_git.secrets.scan import _merge, layer2_part
from chord_git.secrets.text.spans import RANK_ASSIGNMENT, RANK_FORMAT, Span

from . import fakes as f

TOKEN = f.GITHUB_CLASSIC
OTHER = f.join("gh", "p_", f.body(36, seed=62))


def test_find_numbers_the_line_of_every_secret_not_only_the_first() -> None:
    text = "\n".join([
        f"token {TOKEN}",  # 1
        "plain", "plain",
        f"one {OTHER} and two {TOKEN}",  # 4: two on one line
        "plain", "", "plain", "plain",
        f"last {OTHER}",  # 9
    ])
    assert [(s.line, s.kind) for s in find(text)] == [
        (1, "github-token"), (4, "github-token"), (4, "github-token"), (9, "github-token")]
    for span in find(text):
        assert text.count("\n", 0, span.start) + 1 == span.line
        assert text[span.start:span.end] in (TOKEN, OTHER)


def test_find_numbers_lines_after_a_secret_that_spans_lines() -> None:
    key = "\n".join(["-----BEGIN OPENSSH PRIVATE KEY-----", *(f.body(70, f.B64, seed=n) for n in range(6)),
                     "-----END OPENSSH PRIVATE KEY-----"])
    text = f"intro\n{key}\nafter\nthen {TOKEN}\n"
    assert [(s.line, s.kind) for s in find(text)] == [(2, "private-key"), (11, "github-token")]


def test_touching_spans_stay_two_and_overlapping_ones_merge_under_the_more_specific_kind() -> None:
    touching = [Span(0, 5, "password-assignment", RANK_ASSIGNMENT), Span(5, 9, "github-token", RANK_FORMAT)]
    assert _merge(touching) == touching
    overlapping = [Span(0, 6, "password-assignment", RANK_ASSIGNMENT), Span(5, 9, "github-token", RANK_FORMAT)]
    assert _merge(overlapping) == [Span(0, 9, "github-token", RANK_FORMAT)]
    inside = [Span(2, 4, "jwt", RANK_FORMAT), Span(0, 9, "secret-assignment", RANK_ASSIGNMENT)]
    assert _merge(inside) == [Span(0, 9, "jwt", RANK_FORMAT)]
    assert _merge([Span(3, 7, "x", 1)]) == [Span(3, 7, "x", 1)]


def test_redact_keeps_two_touching_secrets_apart() -> None:
    text = f"{TOKEN} {OTHER}"
    assert redact(text) == "[REDACTED:github-token] [REDACTED:github-token]"


def test_layer2_reads_a_record_whole_and_a_long_file_up_to_its_budget() -> None:
    record = [(n, "x" * 40) for n in range(1, 50)]
    assert layer2_part(record) == record
    width = 1000
    long = [(n, "y" * width) for n in range(1, 200)]
    part = layer2_part(long)
    # Lines are taken while budget is left: 66 lines of 1,001 characters start inside 64 KiB.
    assert len(part) == -(-LAYER2_MAX_CHARS // (width + 1)) == 66
    assert part == long[:66]
    over = [(1, "z" * (LAYER2_MAX_LINE + 1)), (2, "short line"), (3, "w" * LAYER2_MAX_LINE)]
    assert layer2_part(over) == [(2, "short line"), (3, "w" * LAYER2_MAX_LINE)]


def test_layer2_finds_inside_its_budget_and_layer1_reads_past_it() -> None:
    salt = f'signing_salt = "{f.body(40, f.ALNUM, seed=6)}"'
    filler = [(n, f"- note {n}: " + "plain words " * 80) for n in range(1, 80)]
    early = scan_added_lines({"m.md": [(1, salt), *[(n + 1, t) for n, t in filler]]})
    assert [(h.line, h.layer) for h in early] == [(1, "detect-secrets")]
    late = scan_added_lines({"m.md": [*filler, (80, salt), (81, f"token {TOKEN}")]})
    assert [(h.line, h.layer) for h in late] == [(81, "sanitizer")], "past 64 KiB only layer 1 reads"
