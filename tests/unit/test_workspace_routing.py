"""`require_an_answer`: the error a workspace search gives when every index failed."""

from __future__ import annotations

import pytest

from indexlib.errors import QryError
from indexlib.workspace.federate import IndexAnswer, WorkspaceMeta, WorkspaceResult
from indexlib.workspace.routing import require_an_answer


def _failed(*answers: tuple[str, str, str]) -> WorkspaceResult:
    indexes = [
        IndexAnswer(repo=repo, index_dir=f"/{repo}/.qry", ok=False, error=error, error_code=code)
        for repo, error, code in answers
    ]
    return WorkspaceResult(
        query="q",
        results=[],
        meta=WorkspaceMeta(workspace="w", elapsed_ms=0, merge="stream", indexes=indexes),
    )


def test_a_request_every_index_refuses_names_the_reason_once_and_not_the_indexes() -> None:
    """The trial: `qry search json -w w3 -m semantic` over three indexes without vectors said
    `cobra: this index has no vectors (and 2 more index(es); each one's reason is in meta.indexes)`,
    a meta an error never prints, with the hint `check them: qry workspace list w3`, which lists
    them all ok: the request is what they refused."""
    no_vectors = "this index has no vectors (index with embeddings: qry index PATH --embed onnx)"
    with pytest.raises(QryError) as err:
        require_an_answer(_failed(*((r, no_vectors, "usage") for r in ("cobra", "express", "moshi"))))
    assert err.value.message == f"no index of workspace 'w' answered: cobra, express, moshi: {no_vectors}"
    assert "meta.indexes" not in err.value.message and "workspace list" not in err.value.hint
    assert err.value.code == "no_index_answered"


def test_indexes_that_cannot_be_read_are_each_named_with_the_hint_to_list_them() -> None:
    with pytest.raises(QryError) as err:
        require_an_answer(
            _failed(
                ("a", "no qry index at /a/.qry", "index_not_found"),
                ("b", "this index has no vectors", "usage"),
            )
        )
    assert err.value.message == (
        "no index of workspace 'w' answered: a: no qry index at /a/.qry; b: this index has no vectors"
    )
    assert err.value.hint == "check them: qry workspace list w"


def test_an_answer_from_one_index_is_returned_as_it_is() -> None:
    result = _failed(("a", "no qry index at /a/.qry", "index_not_found"))
    result.meta.indexes.append(IndexAnswer(repo="b", index_dir="/b/.qry", ok=True))
    assert require_an_answer(result) is result
