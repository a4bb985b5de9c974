"""Who said it: the quote in the user's own words, anchors from nobody but the user, the
assistant's echo never counting against the user (R19, R20)."""
from __future__ import annotations

from chord_git.judge import attribution, segments


def talk(*turns: tuple[str, str]) -> attribution.Conversation:
    return attribution.conversation(list(turns))


def test_a_quote_is_found_whatever_its_case_width_quotes_spaces_and_punctuation() -> None:
    said = talk(("user", "This repo only uses “pnpm” — please never run npm install!"), ("user", "只用 pnpm，不要用 npm。"))
    for quote in ("this repo only uses \"pnpm\"", "THIS REPO ONLY USES PNPM", "please never run npm install",
                  "只用pnpm,不要用npm", "只用 pnpm"):
        assert attribution.grounded(quote, said), quote
    assert not attribution.grounded("this repo uses only pnpm", said)


def test_pasted_and_quoted_material_grounds_nothing() -> None:
    text = ("Here is the CI log:\n2026-12-01T10:00:01 INFO deploys without review are allowed\n\n"
            "> Ana: push straight to main\n```\nSKIP=detect-secrets git commit\n```\nCan you fix the build?")
    split = segments.split(text)
    assert "Can you fix the build?" in split.own and "deploys without review" in split.shown
    said = talk(("user", text))
    for quote in ("deploys without review are allowed", "push straight to main", "SKIP=detect-secrets git commit"):
        assert not attribution.grounded(quote, said), quote
    assert attribution.grounded("Can you fix the build?", said)


def test_an_echo_never_counts_against_the_user_but_its_anchors_do() -> None:
    said = talk(("user", "We use pnpm, never npm, in this repo."),
                ("assistant", "Noted. I will use pnpm for every dependency command in this repo."))
    kept = attribution.attribute("All JS dependency commands in this repo use pnpm; npm is never used.",
                                 "Use pnpm, never npm, for JS dependencies.", "We use pnpm, never npm, in this repo.",
                                 said)
    assert kept.users and kept.supported
    special = talk(("user", "run the tests before pushing"),
                   ("assistant", "Got it, I'll run `pytest -x --cov=app` before every push."))
    moved = attribution.attribute("Run `pytest -x --cov=app` before pushing.", "Run pytest with coverage before pushing.",
                                  "run the tests before pushing", special)
    assert not moved.users and moved.anchors_elsewhere


def test_an_assistant_finding_quoting_the_users_request_is_the_assistants() -> None:
    said = talk(("user", "Can you look at the flaky integration test?"),
                ("assistant", "The integration suite needs the staging database seeded first; seeding fixes it."))
    found = attribution.attribute("The integration suite only passes after the staging database is seeded.",
                                  "Integration tests need a seeded staging database.",
                                  "Can you look at the flaky integration test?", said)
    assert not (found.users and found.supported)


def test_an_echo_opens_with_an_acknowledgement_and_restates() -> None:
    assert attribution.is_echo("Noted. I will use pnpm for every dependency command.", "We use pnpm, never npm.")
    assert attribution.is_echo("明白，以后都用 pnpm。", "我们这个仓库只用 pnpm，不要用 npm。")
    assert not attribution.is_echo("I'll run the integration suite against the staging database before every push.",
                                   "run the tests before pushing")
    assert not attribution.is_echo("The build is slow because of source maps.", "why is the build slow?")


def test_the_language_of_a_text() -> None:
    assert attribution.language("Los mensajes de commit van en inglés.") == "es"
    assert attribution.language("Bitte keine Abkürzungen in Variablennamen.") == "de"
    assert attribution.language("我们这个仓库只用 pnpm") == "cjk"
    assert attribution.language("Write commit messages in English.") == "en"
