"""The real default embedding model, offline: loads, 384 wide, normalised, meaningful, order-preserving."""

from __future__ import annotations

import numpy as np
import pytest

from indexlib.engines.embed import DEFAULT_MODEL_ID, OnnxEmbedder, resolve_model, verify_model
from indexlib.index.embedtext import embedding_text

pytestmark = pytest.mark.model

CHARGE = embedding_text(
    "retry_failed_charge",
    "billing.retry_failed_charge",
    "def retry_failed_charge(charge_id: str, attempts: int = 3) -> bool",
    "Retry a card charge that the payment provider declined, with exponential backoff.",
    "def retry_failed_charge(charge_id: str, attempts: int = 3) -> bool:\n"
    "    for attempt in range(attempts):\n"
    "        if gateway.charge(charge_id):\n"
    "            return True\n"
    "        time.sleep(2 ** attempt)\n"
    "    return False\n",
)
XML = embedding_text(
    "parse_document",
    "xmlutil.parse_document",
    "def parse_document(source: str) -> Element",
    "Parse an XML document into an element tree.",
    "def parse_document(source):\n    return ElementTree.fromstring(source)\n",
)


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    spec = resolve_model()
    verify_model(spec)  # the installed file really is the pinned model
    return OnnxEmbedder(spec, for_query=True)


def test_loads_offline_with_the_expected_shape(embedder: OnnxEmbedder) -> None:
    assert embedder.model_id == DEFAULT_MODEL_ID
    assert embedder.dim == 384
    vecs = embedder.embed(["hello world", "", "x" * 10_000])
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)


def test_related_texts_are_closer(embedder: OnnxEmbedder) -> None:
    q = embedder.embed_query("retry a failed payment")
    charge, xml = embedder.embed([CHARGE, XML])
    assert float(q @ charge) > float(q @ xml) + 0.2
    q2 = embedder.embed_query("parse an XML document")
    assert float(q2 @ xml) > float(q2 @ charge) + 0.2


def test_batch_order_and_padding_do_not_change_vectors(embedder: OnnxEmbedder) -> None:
    # Lengths differ a lot, so sorting by length reorders them and short texts are padded in a batch.
    texts = [CHARGE, "retry", XML * 2, "a b c", CHARGE[:80], "parse xml", "def f(): pass", XML, "z" * 50]
    batch = embedder.embed(texts)
    for i, text in enumerate(texts):
        np.testing.assert_allclose(batch[i], embedder.embed_query(text), atol=1e-4)


def test_max_length_is_honoured() -> None:
    spec = resolve_model()
    short = OnnxEmbedder(spec, max_length=16, for_query=True)
    assert short.cache_id == f"{DEFAULT_MODEL_ID}-{spec.checksum[:16]}-t16"
    assert OnnxEmbedder(spec, for_query=True).cache_id.endswith("-t128")
    head = "retry a failed payment with backoff " * 2
    a, b = short.embed([head + "then parse xml documents " * 40, head + "completely different words " * 40])
    # Both are cut to their first 16 tokens, which are the same.
    np.testing.assert_allclose(a, b, atol=1e-5)
    full = OnnxEmbedder(spec, for_query=True)
    c, d = full.embed([head + "then parse xml documents " * 40, head + "completely different words " * 40])
    assert float(c @ d) < 0.99
    tokens = short._tokenizer.encode("word " * 100)
    assert len(tokens.ids) == 16


def test_optimised_and_unoptimised_sessions_agree(embedder: OnnxEmbedder) -> None:
    optimised = OnnxEmbedder(resolve_model(), for_query=False, threads=2)
    texts = [CHARGE, XML, "retry a failed payment"]
    np.testing.assert_allclose(optimised.embed(texts), embedder.embed(texts), atol=2e-3)


def test_build_embedder_on_two_workers_equals_one_process() -> None:
    """The build's model run in two worker processes gives each text its own vector, in order; a few
    texts before the workers exist are embedded in this process, without starting them."""
    from indexlib.engines.embedders import POOL_MIN_TEXTS, LazyOnnxEmbedder

    spec = resolve_model()
    base = [CHARGE, "retry", XML * 2, "a b c", CHARGE[:80], "parse xml", "def f(): pass", XML, "z" * 50]
    texts = [f"{t} {i}" for i in range(4) for t in base]
    assert len(texts) >= POOL_MIN_TEXTS
    alone = LazyOnnxEmbedder(spec, workers=1)
    pooled = LazyOnnxEmbedder(spec, workers=2)
    few = LazyOnnxEmbedder(spec, workers=2)
    try:
        expected = alone.embed(texts)
        np.testing.assert_allclose(pooled.embed(texts), expected, atol=2e-3)
        assert pooled._pool is not None and pooled._loaded is None  # the fork copied no ORT session
        np.testing.assert_allclose(pooled.embed(texts[:1]), expected[:1], atol=2e-3)  # the workers, now
        assert pooled.dim == alone.dim == 384
        np.testing.assert_allclose(few.embed(texts[:3]), expected[:3], atol=2e-3)
        assert few._pool is None and few._loaded is not None
    finally:
        pooled.close()
        alone.close()
        few.close()
    assert pooled._pool is None
