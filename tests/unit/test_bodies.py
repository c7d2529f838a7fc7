"""The body of a declaration takes its place on a ranked page (retrieval/bodies.py)."""

from __future__ import annotations

from indexlib.records import Provenance
from indexlib.retrieval.bodies import bodies_first
from indexlib.retrieval.fusion import Candidate


def cand(
    uid: int, score: float, qualified: str, path: str, *, prototype: bool = False, kind: str = "function"
) -> Candidate:
    return Candidate(
        uid=uid,
        score=score,
        provenance=Provenance(),
        path=path,
        kind=kind,
        name=qualified.rsplit(".", 1)[-1],
        qualified_name=qualified,
        prototype=prototype,
    )


def test_a_body_ranked_below_its_declaration_takes_its_place_and_score() -> None:
    page = [
        cand(1, 0.9, "parse", "include/p.h", prototype=True),
        cand(2, 0.5, "other", "src/o.c"),
        cand(3, 0.4, "parse", "src/p.c"),
    ]
    out = bodies_first(page)
    assert [c.uid for c in out] == [3, 1, 2]
    assert out[0].score == 0.9


def test_other_pages_are_left_as_they_are() -> None:
    body_first = [cand(3, 0.9, "parse", "src/p.c"), cand(1, 0.5, "parse", "include/p.h", prototype=True)]
    assert [c.uid for c in bodies_first(body_first)] == [3, 1]
    alone = [cand(1, 0.9, "parse", "include/p.h", prototype=True), cand(2, 0.5, "parser", "src/p.c")]
    assert [c.uid for c in bodies_first(alone)] == [1, 2]  # no body of that name: nothing moves
    a_type = [cand(1, 0.9, "Parse", "a.h", prototype=True), cand(2, 0.5, "Parse", "a.c", kind="class")]
    assert [c.uid for c in bodies_first(a_type)] == [1, 2]  # a class of the name is no body of it
