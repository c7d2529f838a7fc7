"""Unit tests of indexlib/engines/embed.py that load no model: the hash embedder, embedding_text, resolve_model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from indexlib.embedding import Embedder, HashEmbedder
from indexlib.engines.embed import (
    DEFAULT_MODEL_ID,
    DEFAULT_MODEL_SHA256,
    ModelSpec,
    resolve_model,
    verify_model,
)
from indexlib.errors import ModelError
from indexlib.index.embedtext import embedding_text


def test_hash_embedder_is_deterministic_normalised_and_shaped() -> None:
    emb = HashEmbedder()
    texts = ["retry a failed charge", "parse an XML document", "", "retryFailedCharge"]
    first = emb.embed(texts)
    second = HashEmbedder().embed(texts)
    assert first.dtype == np.float32
    assert first.shape == (4, 64)
    np.testing.assert_array_equal(first, second)
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, rtol=1e-6)
    assert emb.model_id == "hash-64"
    assert isinstance(emb, Embedder)


def test_hash_embedder_texts_sharing_words_are_closer() -> None:
    emb = HashEmbedder(dim=256)
    q = emb.embed_query("retry failed charge")
    near = emb.embed_query("def retryFailedCharge(): retry the charge")
    far = emb.embed_query("parse xml document tree")
    assert q.shape == (256,)
    assert float(q @ near) > float(q @ far)


def test_hash_embedder_preserves_order() -> None:
    emb = HashEmbedder()
    texts = ["alpha", "beta gamma", "delta"]
    batch = emb.embed(texts)
    for i, text in enumerate(texts):
        np.testing.assert_array_equal(batch[i], emb.embed_query(text))


def test_embedding_text_is_name_words_doc_then_body_words_and_cuts() -> None:
    body = (
        "def retry_failed_charge(charge_id):\n"
        '    """Retry a charge that failed."""\n'
        "    return gateway.charge(charge_id)\n" + "x = 1\n" * 1000
    )
    out = embedding_text(
        "retry_failed_charge",
        "billing.PaymentService.retry_failed_charge",
        "def retry_failed_charge(charge_id)",
        "Retry a charge that failed.",
        body,
        max_chars=300,
    )
    lines = out.splitlines()
    # The qualified name holds the name: its words come once, first.
    assert lines[0] == "billing payment service retry failed charge"
    assert lines[1] == "Retry a charge that failed."
    # The body as words: no punctuation, no bare keywords (def, return), the doc not repeated.
    assert lines[2].startswith("retry failed charge charge id gateway charge charge id x 1 x 1")
    assert out.count("Retry a charge") == 1
    assert len(out) == 300


def test_embedding_text_keeps_signature_missing_from_body_and_skips_empty_parts() -> None:
    out = embedding_text("parseXML", "parseXML", "parseXML(doc: str) -> Tree", "", "  body  ")
    assert out == "parse xml\nparse xml doc str tree body"
    assert embedding_text("", "", "", "", "") == ""
    assert embedding_text("run", "", "", "", "fn run() {}") == "run\nrun"


def test_resolve_model_default_uses_pinned_checksum() -> None:
    spec = resolve_model()
    assert spec.checksum == DEFAULT_MODEL_SHA256
    assert spec.model_id == DEFAULT_MODEL_ID == "minilm-l6-int8-8199be6f"
    assert Path(spec.onnx_path).name == "model.onnx"
    assert Path(spec.tokenizer_path).is_file()


def test_resolve_model_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as info:
        resolve_model(tmp_path / "nope")
    assert "does not exist" in info.value.message
    assert "model.onnx" in info.value.hint


def test_resolve_model_folder_lacking_files(tmp_path: Path) -> None:
    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(ModelError) as info:
        resolve_model(tmp_path)
    assert "lacks model.onnx" in info.value.message
    assert "tokenizer.json" in info.value.hint
    assert info.value.code == "model"


def test_resolve_model_folder_checksum_is_cached_and_verified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "My Model"
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"not really onnx")
    (folder / "tokenizer.json").write_text("{}")
    spec = resolve_model(folder)
    assert spec.checksum == hashlib.sha256(b"not really onnx").hexdigest()
    assert spec.model_id == f"my-model-{spec.checksum[:8]}"
    assert (tmp_path / "cache" / "qry" / "model-checksums.json").is_file()
    assert resolve_model(folder) == spec
    # The second resolve read the cache file, keyed by (path, size, mtime_ns): prove it by planting a value.
    cache_file = tmp_path / "cache" / "qry" / "model-checksums.json"
    table = json.loads(cache_file.read_text())
    assert len(table) == 1
    cache_file.write_text(json.dumps(dict.fromkeys(table, "f" * 64)))
    assert resolve_model(folder).checksum == "f" * 64
    # A changed file (new size and mtime) is hashed again.
    (folder / "model.onnx").write_bytes(b"other bytes!")
    assert resolve_model(folder).checksum == hashlib.sha256(b"other bytes!").hexdigest()
    assert len(json.loads(cache_file.read_text())) == 1
    (folder / "model.onnx").write_bytes(b"not really onnx")
    spec = resolve_model(folder)
    verify_model(spec)
    altered = ModelSpec(**{**{f: getattr(spec, f) for f in spec.__struct_fields__}, "checksum": "0" * 64})
    with pytest.raises(ModelError) as info:
        verify_model(altered)
    assert "expected 000000000000" in info.value.message


def test_onnx_embedder_rejects_bad_model_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from indexlib.engines.embed import OnnxEmbedder

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "model.onnx").write_bytes(b"garbage")
    tokenizer = Path(resolve_model().tokenizer_path)
    (tmp_path / "tokenizer.json").write_bytes(tokenizer.read_bytes())
    with pytest.raises(ModelError) as info:
        OnnxEmbedder(resolve_model(tmp_path))
    assert "cannot load embedding model" in info.value.message
