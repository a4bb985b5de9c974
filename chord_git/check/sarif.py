"""SARIF 2.1.0 for GitHub code scanning (and any SARIF viewer), as plain dicts.

GitHub wants, beyond the schema: rules with ``id``, ``shortDescription``, ``fullDescription`` and
``help``; results with a repository-relative ``physicalLocation`` whose ``region.startLine`` is at
least 1; and ``partialFingerprints`` so an alert keeps its identity across runs. Messages name
the kind and place of a secret, never its value, and fingerprints hash only path, kind and
commit, so nothing derived from the value leaves the process either.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any
from urllib.parse import quote

from chord_git import __version__
from chord_git.check import memory_rules
from chord_git.findings import Finding

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "chordFindingHash/v1"

_SECRET_HELP = (
    "A value that looks like a credential was added to a memory file. Remove it from the file, "
    "and rotate the credential: it is in the commit history and may have been pushed. If it is "
    "not a secret, mark the line with an `allowlist secret` pragma, add the value to "
    ".secrets.baseline (detect-secrets audit), or add the finding's fingerprint to "
    ".chord/secrets-ignore with a comment saying why."
)
_SCHEMA_HELP = (
    "Run `git memory check` locally for the same finding with its explanation; memory files "
    "follow the formats in the project's SPEC (index lines between the markers, records with "
    "front matter, size caps, project-relative paths)."
)


_RULE_HELP = (
    "Memory text that grants a permission, turns a safeguard off, sends secret-bearing material out, "
    "runs what a download fetches, orders a destructive command, overrides instructions or holds a "
    "machine-local fact was added to a memory file. Memory reaches every agent's prompt, so it never "
    "carries these, whoever wrote them. Reword or remove the text; for a false positive, add the "
    "finding's fingerprint to .chord/secrets-ignore on the base branch with a comment saying why."
)


def rule_id(finding: Finding) -> str:
    if finding.is_memory_rule:  # one rule per refusal class: the reason leads the message
        return f"chord/memory-rule/{memory_rules.reason(finding)}"
    return f"chord/{'secret' if finding.is_secret else 'memory'}/{finding.kind}"


def _rule(finding: Finding) -> dict[str, Any]:
    name = finding.kind.replace("-", " ")
    if finding.is_memory_rule:
        reason = memory_rules.reason(finding)
        return {
            "id": rule_id(finding),
            "name": "RefusedMemoryText",
            "shortDescription": {"text": f"Memory never carries this: {reason.replace('-', ' ')}"},
            "fullDescription": {"text": finding.message},
            "help": {"text": _RULE_HELP},
            "defaultConfiguration": {"level": "error"},
            "properties": {"tags": ["security", "prompt-injection"], "precision": "medium",
                           "security-severity": "7.0"},
        }
    if finding.is_secret:
        return {
            "id": rule_id(finding),
            "name": "SecretInMemory",
            "shortDescription": {"text": f"Possible secret in project memory: {name}"},
            "fullDescription": {"text": f"A value that looks like a {name} was added to a memory file "
                                        "(MEMORY.md or .chord/memory/)."},
            "help": {"text": _SECRET_HELP},
            "defaultConfiguration": {"level": "error"},
            "properties": {"tags": ["security", "secret"], "precision": "high", "security-severity": "8.0"},
        }
    return {
        "id": rule_id(finding),
        "name": "MemoryFileProblem",
        "shortDescription": {"text": f"Memory file problem: {name}"},
        "fullDescription": {"text": f"A memory file breaks the '{finding.kind}' rule of the memory format."},
        "help": {"text": _SCHEMA_HELP},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["maintainability"], "precision": "very-high"},
    }


def _fingerprint(finding: Finding, uri: str) -> str:
    key = "\0".join((uri, finding.kind, finding.commit or ""))
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _result(finding: Finding, uri: str, occurrence: int) -> dict[str, Any]:
    text = finding.message
    if finding.commit:
        # Code scanning titles an alert with the message, cut to its first sentence when space
        # is short: the commit goes first. The full SHA is in the properties, for the API.
        text = f"Added in commit {finding.commit[:12]}: {text}"
    result: dict[str, Any] = {
        "ruleId": rule_id(finding),
        "level": "error",
        "message": {"text": text},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": uri},
            "region": {"startLine": finding.line if finding.line and finding.line >= 1 else 1},
        }}],
        # Same file, kind and commit repeat: the occurrence number keeps them apart, as GitHub's
        # own primaryLocationLineHash does.
        "partialFingerprints": {FINGERPRINT_KEY: f"{_fingerprint(finding, uri)}:{occurrence}"},
    }
    properties: dict[str, str] = {}
    if finding.commit:
        properties["commit"] = finding.commit
    if finding.fingerprint is not None:  # the .chord/secrets-ignore entry that accepts it
        properties["fingerprint"] = finding.fingerprint
    if properties:
        result["properties"] = properties
    return result


def render(findings: list[Finding], *, uri_prefix: str = "") -> dict[str, Any]:
    """The SARIF log for ``findings`` (paths relative to the project root under ``uri_prefix``)."""
    rules: dict[str, dict[str, Any]] = {}
    seen: Counter[tuple[str, str, str]] = Counter()
    results = []
    for finding in findings:
        rules.setdefault(rule_id(finding), _rule(finding))
        uri = quote(uri_prefix + finding.path, safe="/")
        seen[(uri, finding.kind, finding.commit or "")] += 1
        results.append(_result(finding, uri, seen[(uri, finding.kind, finding.commit or "")]))
    ordered = sorted(rules)
    position = {rid: number for number, rid in enumerate(ordered)}
    for result in results:
        result["ruleIndex"] = position[result["ruleId"]]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "chord-git",
                "semanticVersion": __version__,
                "rules": [rules[rid] for rid in ordered],
            }},
            "results": results,
        }],
    }
