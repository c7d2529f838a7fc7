"""What a build is asked to do and what it did: `BuildOptions`, `BuildReport`, and their one encoding.

Owns: the two records and how they are serialised: `BuildOptions.to_json`/`from_json` (the background
worker receives its options this way) and `BuildReport.to_builtins` (`qry index --json` and the MCP
server's reindex print this). Both are msgspec Structs, so a field added to one shows up everywhere at once.
Does not own: running a build (`indexlib/index/build/run.py`) or printing a report (`cli/`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec

__all__ = ["BuildOptions", "BuildReport", "EmbedderFactory", "ParseMap", "Progress"]

Progress = Callable[[str, int, int], None]  # (stage, done, total)
# Where parsing runs instead of this machine's fork pool: a map over (job -> msgpack bytes) that yields
# the results in job order (indexlib/cluster/raybuild.py passes one backed by Ray tasks). A keyword of
# build_index, not an option: options are plain data a worker process receives as JSON.
ParseMap = Callable[[Callable[[Any], bytes], list[Any]], Iterator[bytes]]
# Where the vector stage's model runs instead of this machine's worker processes: given the build's
# options, an embedder with the attributes and `embed`/`close` of `engines.embedders.LazyOnnxEmbedder`
# (indexlib/cluster/rayembed.py passes one backed by Ray actors). A keyword of build_index, as ParseMap.
EmbedderFactory = Callable[["BuildOptions"], Any]


DEFAULT_EMBED = "onnx"


class BuildOptions(msgspec.Struct):
    """What `qry index` was asked to do."""

    index_dir: Path | None = None  # default: <root>/.qry
    # "onnx" | "none" | "hash" (hash: the deterministic test embedder); None: as the index was last
    # built (`resolve_embed`), DEFAULT_EMBED for a new one.
    embed: str | None = None
    model_dir: str | None = None
    max_file_bytes: int = 1 << 20
    include_vendored: bool = False
    redact: bool = True
    git_times: bool = True
    rebuild: bool = False
    wait: float = 0.0
    max_nodes_per_file: int = 5000
    threads: int = 0  # cores running the embedding model, a one-thread worker process each; 0: all
    shared_cache: bool = (
        True  # also use the user-level caches: vectors (embedcache) and history (gittimes.cache)
    )
    background: bool = False  # return after the lexical root; a detached worker computes the vectors

    @property
    def embedder_name(self) -> str:
        """The embedder to build: `embed` once decided (`resolve_embed`), else the default."""
        return self.embed or DEFAULT_EMBED

    def check(self) -> None:
        """Refuse numbers and an embedder name no build can use (UsageError naming the option),
        before anything is read or published."""
        from indexlib.errors import UsageError

        for name, value, least, hint in (
            ("--threads", self.threads, 0, "0 (the default) runs the model on every available core"),
            ("--max-file-bytes", self.max_file_bytes, 1, "e.g. --max-file-bytes 4000000 (default 1048576)"),
            ("--wait", self.wait, 0, "seconds to wait for another qry index, e.g. --wait 30"),
            ("max_nodes_per_file", self.max_nodes_per_file, 1, "e.g. 5000 (the default)"),
        ):
            if value < least:
                raise UsageError(f"{name} must be at least {least}, not {value:g}", hint=hint)
        if self.embed is not None:
            from indexlib.engines.embedders import check_build_name

            check_build_name(self.embed)

    def check_embeds_here(self) -> None:
        """A build whose model runs elsewhere (a cluster's actors) embeds from this process: refuse
        `--background`, whose detached worker would embed on this machine alone."""
        from indexlib.errors import UsageError

        if self.background:
            raise UsageError(
                "--background cannot go with --cluster: a cluster build embeds on the cluster, from this process",
                hint="leave out --background (or --cluster, to embed on this machine in the background)",
            )

    def to_json(self) -> str:
        """These options as one line of JSON (paths as strings): what a worker process is started with."""
        return _OPTIONS_ENCODER.encode(self).decode()

    @staticmethod
    def from_json(text: str) -> BuildOptions:
        """The options `to_json` wrote."""
        return _OPTIONS_DECODER.decode(text.encode())

    @staticmethod
    def embed_for(model_id: str | None) -> str:
        """The `embed` value that rebuilds an index whose vectors are `model_id`'s (None: it has none)."""
        if model_id is None:
            return "none"
        from indexlib.engines.embedders import build_name

        return build_name(model_id)


class BuildReport(msgspec.Struct):
    """What a build did, with counts a one-line summary and a closing note can quote."""

    root_id: str = ""
    published: bool = False
    files: int = 0
    changed: int = 0
    added: int = 0
    removed: int = 0
    unchanged: int = 0
    touched: int = 0  # files with a new size or mtime and the same content (recorded, not parsed)
    nodes_written: int = 0
    nodes_total: int = 0
    segments: int = 0
    compacted: bool = False
    skipped: dict[str, int] = msgspec.field(default_factory=dict)
    redacted: int = 0
    embedded: int = 0
    embed_cached: int = 0
    embed_skipped: int = 0  # trivial nodes given no vector (`indexlib.index.embedtext.worth_embedding`)
    vectors_root: str = ""
    git_commit: str | None = None
    timings: dict[str, float] = msgspec.field(default_factory=dict)
    index_dir: str = ""
    rebuilt_from_version: int | None = None  # the older on-disk format an index was rebuilt from
    reparsed: bool = False  # every file parsed again: the previous root's parser version was another
    background_pid: int = 0  # the detached worker computing vectors (`BuildOptions.background`)
    repaired: list[str] = msgspec.field(default_factory=list)  # damaged index files rebuilt from the source
    trimmed_roots: int = 0  # roots of runs past keep.AUTO_KEEP_RUNS this build removed
    notes: list[str] = msgspec.field(default_factory=list)

    @property
    def elapsed(self) -> float:
        return sum(self.timings.values())

    def to_builtins(self) -> dict[str, Any]:
        """The report as plain data (what `--json` and the MCP server print): fields in order, then
        the derived `elapsed`."""
        out: dict[str, Any] = msgspec.to_builtins(self)
        out["elapsed"] = self.elapsed
        return out


def _enc_hook(obj: Any) -> Any:
    if isinstance(obj, Path):
        return str(obj)
    raise NotImplementedError(f"cannot encode {type(obj).__name__}")


def _dec_hook(kind: type, obj: Any) -> Any:
    if kind is Path:
        return Path(obj)
    raise NotImplementedError(f"cannot decode {kind.__name__}")


_OPTIONS_ENCODER = msgspec.json.Encoder(enc_hook=_enc_hook)
_OPTIONS_DECODER = msgspec.json.Decoder(BuildOptions, dec_hook=_dec_hook)
