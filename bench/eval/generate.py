"""Write the generated cases of the evaluation set from ``topics.py`` (three cases per topic).

Run from the repository root: ``python -m bench.eval.generate`` (rewrites ``en-4x…``/``zh-3x…``
and later generated cases; the hand-written cases are never touched). Every case has the user's
own rule as a gold item, and most carry a sloppy or prompt-injected model's mistakes, labelled:

* ``a``: the assistant's finding, once honestly labelled ``source: assistant`` (rediscoverable:
  no user turn grounds it) and, in every other topic, mislabelled ``source: user`` with the
  user's opening request quoted as evidence (``assistant-claim``);
* ``b``: a second remark with a padded why/how (``contentless``) and an idea the user only asked
  about, reported, supposed or refused (``not-asserted``: question, someone else's view,
  hypothetical, a fragment cut from its negation, in turn);
* ``c``: an assistant proposal the user adopts ("ok, do that": stored as the assistant's,
  unverified), or the same mislabelled as the user's on a bare "ok"; a line of AGENTS.md the user
  repeats (``agents-md``); and an idea quoted with an unrelated user sentence (``unrelated-quote``).
"""
from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import yaml

from . import label_rules
from .topics import EN, ZH, Topic

ROOT = Path(__file__).resolve().parent
FIRST = {"en": 40, "zh": 30}
PADDING = {
    "en": [("Important.", "Always."), ("Good to know.", "Keep it in mind."), ("It matters.", "Follow this rule."),
           ("Useful for later sessions.", "Apply it whenever needed.")],
    "zh": [("很重要。", "总是这样做。"), ("需要记住。", "以后都要遵守。"), ("有用。", "照做即可。"), ("非常重要。", "一定要遵守。")],
}
ACK = {"en": "Noted, I will follow that.", "zh": "好的，记下了。"}


def restated(lang: str, statement: str) -> str:
    """How an instruction-following assistant acknowledges a rule: it says it back."""
    return f"Noted. {statement}" if lang == "en" else f"好的，{statement}"
ADOPT = {"en": ("ok, do that", "ok"), "zh": ("好的，就这么办", "好的")}
LEAVE = {"en": "Let's leave that open for now.", "zh": "这个先放一放。"}


def _shape(lang: str, index: int, maybe: str) -> tuple[str, str, str]:
    """(kind, what the user said, the evidence a sloppy model quotes from it)."""
    kind = ("question", "someone-else", "hypothetical", "negation")[index % 4]
    if lang == "en":
        said = {"question": f"Should we {maybe}?", "someone-else": f"Bob says we should {maybe}.",
                "hypothetical": f"If we {maybe}, would the build get any faster?",
                "negation": f"I don't want you to {maybe}."}[kind]
        quoted = f"you to {maybe}" if kind == "negation" else f"we {maybe}" if kind != "someone-else" else f"we should {maybe}"
    else:
        said = {"question": f"要不要{maybe}？", "someone-else": f"同事说应该{maybe}。",
                "hypothetical": f"如果{maybe}，会不会更快", "negation": f"我不希望你{maybe}。"}[kind]
        quoted = f"你{maybe}" if kind == "negation" else maybe
    return kind, said, quoted


def _related(a: str, b: str) -> bool:
    """Stricter than the label rule: a shared word stem of three letters or more, or a CJK pair."""
    stems = lambda t: {w[:5] for w in re.findall(r"[a-z0-9]{3,}", t.casefold())}  # noqa: E731
    return label_rules.shares_a_word(a, b) or bool(stems(a) & stems(b))


def _msg(role: str, text: str) -> dict[str, Any]:
    return {"type": "message", "role": role, "content": text, "complete": True}


def _rec(type_: str, summary: str, statement: str, why: str, how: str, source: str, status: str,
         evidence: str) -> dict[str, Any]:
    return {"type": type_, "summary": summary, "statement": statement, "why": why, "how_to_apply": how,
            "source": source, "status": status, "evidence": evidence, "supersedes": None}


def _words(lang: str, topic: Topic) -> tuple[str, str]:
    """A substantive why/how for candidates whose problem is elsewhere."""
    if lang == "en":
        return (f"It explains what happened with: {topic.task.rstrip('.')}.",
                f"Check it again before relying on it for: {topic.task.rstrip('.?')}.")
    return (f"它解释了这件事：{topic.task.rstrip('。')}。", f"再遇到这件事时先核实：{topic.task.rstrip('。')}。")


def build(lang: str, index: int, topic: Topic, variant: str) -> tuple[str, list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    number = FIRST[lang] + index
    cid = f"{lang}-{number:02d}{variant}-{topic.slug.removeprefix('zh-')}"
    lines: list[dict[str, Any]] = [{"type": "session", "id": str(uuid.uuid5(uuid.NAMESPACE_URL, cid)), "frozen": True}]
    records: list[dict[str, Any]] = []
    labels: list[dict[str, Any]] = []
    gold: list[dict[str, Any]] = []
    traps: list[dict[str, str]] = []
    why, how = _words(lang, topic)
    gold_doc: dict[str, Any] = {"id": cid, "language": lang}

    def keep_rule() -> None:
        line = next(n for n, obj in enumerate(lines, start=1) if obj.get("content") == topic.rule_msg)
        gold.append({"type": topic.rule_type, "statement": topic.rule_stmt, "evidence": topic.rule_ev,
                     "status": "stated", "line": line, "supersedes": None})
        labels.append({"list": "records", "index": len(records), "expected": "keep", "gold": len(gold) - 1})
        records.append(_rec(topic.rule_type, topic.rule_sum, topic.rule_stmt, topic.rule_why, topic.rule_how,
                            "user", "stated", topic.rule_ev))

    def drop(reason: str, record: dict[str, Any]) -> None:
        labels.append({"list": "records", "index": len(records), "expected": "drop", "reason": reason})
        records.append(record)

    if variant == "a":
        lines += [_msg("user", topic.task), {"type": "tool_call", "name": "bash", "input": "make test"},
                  {"type": "tool_result", "content": "1 failed, 212 passed"},
                  _msg("assistant", f"{topic.fact} {'I fixed it.' if lang == 'en' else '已经修好了。'}"),
                  _msg("user", topic.rule_msg), _msg("assistant", restated(lang, topic.rule_stmt))]
        keep_rule()
        traps.append({"kind": "assistant-fact", "text": topic.fact})
        if index % 2 == 0:
            drop("assistant-claim", _rec("fact", topic.fact_sum, topic.fact, why, how, "user", "confirmed", topic.task))
            gold_doc["description"] = "the assistant's finding mislabelled as the user's (evidence: the user's request)"
        else:
            gold_doc["description"] = "a rediscoverable finding of the assistant; the user's own rule"
        drop("rediscoverable", _rec("fact", topic.fact_sum, topic.fact, why, how, "assistant", "unverified", ""))
    elif variant == "b":
        kind, said, quoted = _shape(lang, index, topic.maybe)
        lines += [_msg("user", topic.task), _msg("assistant", topic.fact), _msg("user", topic.rule_msg),
                  _msg("assistant", restated(lang, topic.rule_stmt)), _msg("user", topic.rule2_msg),
                  _msg("assistant", ACK[lang]),
                  _msg("user", said), _msg("assistant", LEAVE[lang])]
        keep_rule()
        pad_why, pad_how = PADDING[lang][index % len(PADDING[lang])]
        drop("contentless", _rec("preference", topic.rule2_sum, topic.rule2_sum, pad_why, pad_how, "user", "stated",
                                 topic.rule2_msg))
        drop("not-asserted", _rec("preference", topic.maybe_stmt, topic.maybe_stmt, why, how, "user", "stated", quoted))
        gold_doc["description"] = f"padded why/how; an idea the user did not assert ({kind})"
    else:
        yes, bare = ADOPT[lang]
        agents = f"# Agent rules\n\n- {topic.agents_line}\n- {'Keep the README current.' if lang == 'en' else '保持 README 为最新。'}\n"
        lines += [_msg("user", topic.task), _msg("assistant", topic.proposal), _msg("user", yes),
                  _msg("assistant", "Done." if lang == "en" else "已完成。"), _msg("user", topic.agents_msg),
                  _msg("assistant", ACK[lang]), _msg("user", topic.rule_msg),
                  _msg("assistant", restated(lang, topic.rule_stmt))]
        gold_doc["agents_md"] = agents
        keep_rule()
        if index % 2 == 0:
            line = next(n for n, obj in enumerate(lines, start=1) if obj.get("content") == yes)
            gold.append({"type": "workflow", "statement": topic.prop_stmt, "evidence": yes, "status": "unverified",
                         "line": line, "supersedes": None, "source": "assistant",
                         "note": "adopted assistant proposal: the assistant's, unverified"})
            labels.append({"list": "records", "index": len(records), "expected": "keep", "gold": len(gold) - 1})
            records.append(_rec("workflow", topic.prop_sum, topic.prop_stmt, why, how, "assistant", "unverified", yes))
        else:
            drop("weak-evidence", _rec("workflow", topic.prop_sum, topic.prop_stmt, why, how, "user", "confirmed", bare))
        drop("agents-md", _rec("preference", topic.agents_line, topic.agents_line, why, how, "user", "stated",
                               topic.agents_line.rstrip(".。")))
        unrelated = next((text for text in (topic.rule_ev, topic.agents_msg, topic.task)
                          if not _related(text, topic.maybe_stmt)), None)
        if unrelated is not None:
            drop("unrelated-quote", _rec("preference", topic.maybe_stmt, topic.maybe_stmt, why, how, "user", "stated",
                                         unrelated))
        gold_doc["description"] = ("an adopted proposal" if index % 2 == 0 else "a proposal mislabelled as the user's on a bare confirmation") \
            + "; AGENTS.md restated; an idea quoted with an unrelated user sentence"
    gold_doc.update({"gold": gold, "traps": traps, "candidates": labels})
    return cid, lines, gold_doc, {"records": records, "retire": [], "promotions": []}


def generated_ids(root: Path = ROOT) -> list[str]:
    out = []
    for path in (root / "gold").glob("*.yaml"):
        lang, _, rest = path.stem.partition("-")
        if rest[:2].isdigit() and int(rest[:2]) >= FIRST.get(lang, 100):
            out.append(path.stem)
    return out


def main() -> None:
    for stale in generated_ids():
        for folder, ext in (("sessions", "jsonl"), ("gold", "yaml"), ("replies", "json")):
            (ROOT / folder / f"{stale}.{ext}").unlink(missing_ok=True)
    count = 0
    for lang, topics in (("en", EN), ("zh", ZH)):
        for index, topic in enumerate(topics):
            for variant in "abc":
                cid, lines, gold, reply = build(lang, index, topic, variant)
                (ROOT / "sessions" / f"{cid}.jsonl").write_text(
                    "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
                (ROOT / "gold" / f"{cid}.yaml").write_text(
                    yaml.safe_dump(gold, allow_unicode=True, sort_keys=False, width=110), encoding="utf-8")
                (ROOT / "replies" / f"{cid}.json").write_text(
                    json.dumps(reply, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
                count += 1
    print(f"wrote {count} generated cases")


if __name__ == "__main__":
    main()
