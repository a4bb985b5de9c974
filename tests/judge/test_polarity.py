"""Polarity, clause by clause: the opposite of the quote is refused; prohibitions, "X not Y",
"only on A, so don't … on other days" and paraphrases that keep the meaning are not (R19)."""
from __future__ import annotations

import pytest

from chord_git.judge import polarity

SAME_MEANING = [
    ("We use pnpm, never npm, in this repo.",
     "All JS dependency commands in this repo use pnpm; npm is never used.\nUse pnpm, never npm, for JS dependencies."),
    ("Don't push directly to main; always open a pull request.",
     "Changes to main go through a pull request; never push directly to main."),
    ("British English, so colour not color", "Write British English spelling: colour, not color."),
    ("we deploy only on Tuesdays and Thursdays, so don't merge release PRs on other days",
     "Deploy only on Tuesdays and Thursdays; release PRs are merged only on those days."),
    ("Never commit generated files", "Generated files stay out of commits."),
    ("我们这个仓库只用 pnpm，不要用 npm。", "Use pnpm, never npm."),
    ("Use pnpm instead of npm", "Never use npm."),
    ("refunds over 500 eur need manual approval by finance, the service must never auto-approve them.",
     "The refund service must not auto-approve refunds above 500 EUR; those require manual approval by finance."),
    ("error messages start lowercase and never end with punctuation",
     "Error messages start lowercase and have no trailing punctuation."),
    ("any bug that reaches production gets a regression test in the same pr, no exceptions.",
     "A bug that reached production is fixed with a regression test in the same PR, without exception."),
    ("别把 main 的分支保护关掉，合不进去就来找我。", "main 分支保护始终开启。"),
    ("変数名はキャメルケースではなくスネークケースで統一しています。", "変数名は常にスネークケースで書く。"),
    ("Don't trust whatever's in the repo's .envrc until you've read it.", "Read the repo's .envrc before trusting it."),
    ("Never print the output of env in the CI log, not even for debugging.",
     "CI jobs never print the environment to their logs, even for debugging."),
    ("数据库表名用单数，比如 user 而不是 users。", "Name database tables in the singular, e.g. user rather than users."),
    # restatements in other words: a condition, a bound, an order or a preference turned around
    ("don't merge PRs before the reviewers approve, even if they're slow", "Wait for reviewer approval before merging PRs."),
    ("Keep PRs under about 400 lines of diff; if it's bigger, split it.", "Don't open PRs with diffs much over 400 lines."),
    ("Prefer composition over inheritance in the service layer.",
     "Use composition rather than inheritance in the service layer."),
    ("以后升级前端框架前先跑一遍 e2e 测试。", "不跑 e2e 测试就不要升级前端框架。"),
    ("代码注释统一用中文写，变量名还是用英文。", "注释不要用英文写，变量名不要用中文。"),
]
OPPOSITE = [
    ("never npm", "use npm"),
    ("tests must be run before merging", "Tests must never be run before merging."),
    ("British English, so colour not color", "Use color, never colour."),
    ("i don't want you to commit generated files", "Commit generated files."),
    ("我们这个仓库只用 pnpm，不要用 npm。", "用 npm 安装依赖。"),
    ("我不希望你先发说明再打标签", "先发布说明再打标签。"),
    ("不要在循环里查数据库，会有 N+1 问题。", "可以在循环里逐条查询数据库。"),
    ("Use UTC everywhere in the backend.", "Times in the backend are handled in local time rather than UTC."),
    ("Please stop adding emojis to commit messages.", "Commit messages start with an emoji in the gitmoji style."),
    ("数据库迁移必须可以回滚。", "本项目的数据库迁移不要求编写回滚脚本。"),
]


@pytest.mark.parametrize(("evidence", "claim"), SAME_MEANING)
def test_the_same_meaning_in_other_words_is_not_refuted(evidence: str, claim: str) -> None:
    assert polarity.opposite(evidence, claim) == []


@pytest.mark.parametrize(("evidence", "claim"), OPPOSITE)
def test_the_opposite_is_refuted(evidence: str, claim: str) -> None:
    assert polarity.refutes(evidence, claim)


def test_a_clause_that_turns_by_itself_is_never_compared() -> None:
    assert polarity.parts("we got burned by deep class hierarchies")[0][1] == polarity.UNKNOWN
    assert polarity.parts("mypy --strict must pass without errors")[0][1] == polarity.UNKNOWN
    assert polarity.parts("Swagger UI 已停用")[0][1] == polarity.UNKNOWN
