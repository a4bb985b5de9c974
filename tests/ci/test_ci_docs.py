"""docs/ci.md against what it documents: the action's inputs (``action.yml``), the GitLab
template's variables (``ci/gitlab/memory-scan.yml``) and the plain commands that stand in for the
action's scan step. Each table row is one input or variable with its default; a default that is
empty is described in words, any other is the value in backticks."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from chord_git import main as main_mod

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs/ci.md"
_ROW = re.compile(r"^\| `([A-Za-z0-9_-]+)` \| ([^|]*) \|", re.M)


def table(heading: str) -> dict[str, str]:
    """The first table under the ``## heading`` section of docs/ci.md: name -> default cell."""
    section = DOC.read_text().split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("\n| ", 1)[1]
    rows = "| " + block.split("\n\n", 1)[0]
    return {name: default.strip() for name, default in _ROW.findall(rows)}


def documented_default(value: object) -> str | None:
    """The cell a default must have: the value in backticks, or None (words) for an empty one."""
    text = str(value) if value is not None else ""
    return f"`{text}`" if text else None


def check(rows: dict[str, str], defaults: dict[str, object]) -> None:
    assert set(rows) >= set(defaults), sorted(set(defaults) - set(rows))
    for name, value in defaults.items():
        wanted = documented_default(value)
        if wanted is None:
            assert not rows[name].startswith("`"), (name, rows[name])
        else:
            assert rows[name] == wanted, (name, rows[name], wanted)


def test_the_action_inputs_table_is_action_yml() -> None:
    inputs = yaml.safe_load((ROOT / "action.yml").read_text())["inputs"]
    rows = table("GitHub Actions")
    check(rows, {name: spec.get("default", "") for name, spec in inputs.items()})
    assert set(rows) == set(inputs)


def test_the_gitlab_variables_table_is_the_template() -> None:
    text = (ROOT / "ci/gitlab/memory-scan.yml").read_text()
    variables = yaml.safe_load(text)["variables"]
    rows = table("GitLab CI")
    check(rows, variables)
    # Besides the template's variables, only those its jobs read without a default.
    read = set(re.findall(r"\$\{?(CHORD_[A-Z_]+)", text))
    assert set(rows) - set(variables) <= read, sorted(set(rows) - set(variables) - read)
    assert read <= set(rows), sorted(read - set(rows))


def test_the_check_sees_a_missing_or_wrong_row() -> None:
    defaults: dict[str, object] = {"format": "sarif", "range": ""}
    check({"format": "`sarif`", "range": "the event's range"}, defaults)
    for broken in ({"format": "`json`", "range": "the event's range"}, {"format": "`sarif`"},
                   {"format": "`sarif`", "range": "`all`"}):
        try:
            check(broken, defaults)
        except AssertionError:
            continue
        raise AssertionError(f"not caught: {broken}")


def test_the_plain_commands_are_the_actions_scan_step_with_its_defaults() -> None:
    """What docs/ci.md gives as the action's stand-in is the scan step's command line with the
    default inputs, parsed by our own parser: the same flags, so the same report and job summary."""
    section = DOC.read_text().split("Without the action", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block
    lines = [line.split("   #", 1)[0] for line in block.group(1).splitlines() if line.startswith("git memory ")]
    [line] = lines
    argv = shlex.split(line)[2:]
    parser = main_mod.build_parser()
    args = parser.parse_args(argv)
    inputs = {name: spec.get("default", "") for name, spec in
              yaml.safe_load((ROOT / "action.yml").read_text())["inputs"].items()}
    assert args.command == "scan" and args.format == inputs["format"] and str(args.output) == inputs["output"]
    assert inputs["memory-summary"] == "true" and str(args.summary) == "$GITHUB_STEP_SUMMARY" and args.annotate
    assert args.range_spec is None and not args.all_history  # the range from the CI event, as the action's default
    assert not args.fail_on_assistant_entries and not args.fail_on_unreviewed_memory
