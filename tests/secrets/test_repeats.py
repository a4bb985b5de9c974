"""``text.repeats.Runs``: a run of hits settled by its first hit only when the text it reads repeats.

The detectors' own tests (``test_label_runs``, ``test_linear_time``) prove the findings; these pin
the API's promise on hand-made hits: a run is taken whole, its first finding shifted onto each hit,
and anything that could make a hit read different characters stops the shortcut.
"""
from __future__ import annotations

from chord_git.secrets.text.repeats import MIN_RUN, Reach, Runs
from chord_git.secrets.text.spans import Span

_TEXT = "key " * 100
_HITS = list(range(8, 400, 4))  # every "key" but the first two
_REACH = Reach(before=5, after=10)


def test_a_run_in_repeating_text_is_settled_by_its_first_hit() -> None:
    found: list[Span] = []
    first = Span(8, 11, "kind", 3)
    index, done = Runs(_TEXT, _TEXT, _HITS, _REACH).after(1, first, 11, found)
    last = max(i for i, hit in enumerate(_HITS) if hit <= len(_TEXT) - _REACH.after)  # the reach stays inside
    assert index == last + 1
    assert found == [Span(8 + 4 * k, 11 + 4 * k, "kind", 3) for k in range(1, last + 1)]
    assert done == 11 + 4 * last


def test_without_a_finding_done_moves_only_for_detectors_that_set_it_at_every_hit() -> None:
    assert Runs(_TEXT, _TEXT, _HITS, _REACH).after(1, None, 11, [])[1] == 11
    index, done = Runs(_TEXT, _TEXT, _HITS, _REACH._replace(every_hit_sets_done=True)).after(1, None, 11, [])
    assert done == 11 + 4 * (index - 1)


def test_a_text_that_stops_repeating_inside_the_reach_settles_nothing() -> None:
    odd = _TEXT[:200] + "kex " + _TEXT[204:]
    runs = Runs(odd, odd, _HITS, _REACH)
    found: list[Span] = []
    assert runs.after(1, Span(8, 11, "kind", 3), 11, found) == (1, 11)
    assert found == []
    # The run that failed is not tested again from each of its hits.
    assert runs.after(2, None, 15, found) == (2, 15)


def test_a_run_too_short_a_refused_period_or_a_hit_near_the_start_settles_nothing() -> None:
    short = _HITS[:MIN_RUN + 1]
    assert Runs(_TEXT, _TEXT, short, _REACH).after(1, None, 11, []) == (1, 11)
    refused = _REACH._replace(refuses=lambda view, low, high, start, step: True)
    assert Runs(_TEXT, _TEXT, _HITS, refused).after(1, None, 11, []) == (1, 11)
    assert Runs(_TEXT, _TEXT, _HITS, _REACH._replace(before=9)).after(1, None, 11, []) == (1, 11)


def test_tuple_hits_run_only_while_their_width_and_fields_agree() -> None:
    hits = [(pos, pos + 3, "weak") for pos in _HITS]
    hits[20] = (hits[20][0], hits[20][1], "strong")  # same place, another class: its own verdict
    found: list[Span] = []
    assert Runs(_TEXT, _TEXT, hits, _REACH).after(1, Span(8, 11, "kind", 3), 11, found) == (20, 11 + 4 * 19)
    assert len(found) == 19
