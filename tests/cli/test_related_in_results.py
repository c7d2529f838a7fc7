"""What `related` in `qry search --jsonl` promises about shared callers (see indexlib/graph/expand.py `expand`).

`expand`'s docstring: "Each related node is listed once over the whole result, under the best-ranked
hit that reaches it at its smallest depth". On the polyglot fixture, `retry_failed_charge` in
python/billing/retry.py calls `gateway.charge(...)`, which resolves (ambiguously) to both
`Gateway.charge` and `StripeGateway.charge`, the first two Python hits of `qry search charge`; it should
be listed under hit 1. Calls resolve within a language family only: no Rust caller of a Python method.
"""

from __future__ import annotations

import msgspec

from indexlib.records import Hit
from tests.cli.clikit import RunQry

PY_CALLER = ("retry_failed_charge", "python/billing/retry.py")


def _related(hit: Hit) -> set[tuple[str, str]]:
    return {(r.symbol, r.path) for r in hit.related}


def test_a_single_hit_lists_all_its_callers(qry: RunQry) -> None:
    run = qry("search", "charge", "--lang", "python", "--jsonl", "-k", "1")
    (first,) = [msgspec.json.decode(line, type=Hit) for line in run.out.splitlines()]
    assert (first.symbol, first.language) == ("Gateway.charge", "python")
    assert PY_CALLER in _related(first)
    assert all(path.startswith("python/") for _sym, path in _related(first))


def test_related_nodes_are_listed_once_per_answer(qry: RunQry) -> None:
    run = qry("search", "charge", "--jsonl", "-k", "5")
    hits = [msgspec.json.decode(line, type=Hit) for line in run.out.splitlines()]
    uids = [r.uid for h in hits for r in h.related]
    assert len(uids) == len(set(uids))


def test_shared_caller_is_listed_under_the_best_ranked_hit(qry: RunQry) -> None:
    run = qry("search", "charge", "--lang", "python", "--jsonl", "-k", "2")
    first, second = [msgspec.json.decode(line, type=Hit) for line in run.out.splitlines()]
    assert (first.symbol, second.symbol) == ("Gateway.charge", "StripeGateway.charge")
    assert PY_CALLER in _related(first)
    assert PY_CALLER not in _related(second)
