"""Switches and strengths of the code-aware signals fusion applies after RRF, in one place.

Each strength says what it was measured on; `--explain` shows every factor a signal applied, and
`Signals.without(name)` switches one off for an ablation (bench/eval and bench/deveval run them).
"""

from __future__ import annotations

import msgspec

# Every post-fusion signal, in the order --explain lists them; all but `path` are on by default.
SIGNAL_NAMES = (
    "definition",
    "path",
    "tests",
    "docs",
    "saturation",
    "dense_floor",
    "remainder",
    "quote",
    "scope",
    "evidence",
    "code_span",
    "mention",
    "literal",
    "project",
)


class Signals(msgspec.Struct, frozen=True, kw_only=True):
    """Switches and strengths of the post-fusion signals (all on by default; `--explain` shows them)."""

    definition_boost: float = 1.0  # +100% for a definition whose name is the query identifier
    constant_share: float = 0.5  # a constant or variable gets this share of the definition boost
    path_boost: float = 0.25  # +25% when a query word names the file or a folder
    # Tests, examples, vendored or generated code (by path, or a file's generated-code marker). Measured on the development set: x0.5 -> x0.3 cut the
    # share of tests and docs in the top 10 from 0.075 to 0.046 on symbol queries at equal MRR.
    test_penalty: float = 0.3
    # Prose and project files (Markdown sections, text windows, docs/ and .github/ templates) for a
    # question about code: x this, unless the query asks for docs.
    docs_penalty: float = 0.5
    # A release-history file (`CHANGELOG.md`) x this besides, even when docs are asked for, unless
    # the query names a changelog.
    # Commit titles, file MRR@10: the development set +0.002 (hybrid fix), four repositories
    # outside it +0.001 (both modes); no other kind moved.
    history_penalty: float = 0.5
    file_saturation: float = 0.7  # each hit of a file past `saturation_after` is damped by this, compounding
    # Hits of one file left alone before damping starts. Measured: damping from the 3rd hit cost 0.02
    # MRR on concept queries (the answer often sits beside siblings of its file); from the 6th it
    # costs 0.004 and still keeps one file from filling a page of 10.
    saturation_after: int = 5
    # Dense-only candidates below this cosine are dropped: no evidence. Calibrated on the development
    # set (all-MiniLM-L6-v2, 128 tokens): the dense stream's top hit for nonsense words scores 0.25-0.36
    # (p95 0.358), a gold hit 0.38 at its 5th percentile (median 0.62); 0.35 cost no MRR on any kind.
    dense_floor: float = 0.35
    # A module remainder (a file's imports and top-level statements) matches many words of a question
    # without being its answer; measured: x0.7 lifts concept-query MRR@10 by ~0.003-0.005.
    remainder_penalty: float = 0.7
    # A node whose text holds most of a prose query's adjacent word pairs quotes it (a doc sentence, an
    # error message): x(1 + quote_boost * share) when share >= quote_min. Measured on the development
    # set: concept queries 0.931 -> 0.980 file MRR; a lower threshold (0.3-0.5) rewards partial overlap
    # with other comments and cost 0.03-0.05 symbol MRR on the same questions asked without the doc.
    quote_boost: float = 1.0
    quote_min: float = 0.7
    # A commit-style scope (`parser: ...`) naming a folder or file of the candidate's path: x(1 + this).
    scope_boost: float = 0.3
    # The same scope inside the BM25 stream: a node of a scoped file scores x(1 + this) there, so the
    # scope's files reach the fused head at all (the boost above only reorders the head). Commit
    # titles after a fixed commit, file MRR@10 change at 0.2 / 0.3 / 0.5: the development set
    # +0.011 / +0.017 / +0.024; two repositories outside it, where a scope is often a feature whose
    # change lands in a sibling crate or plugin, tokio -0.002 / -0.002 / -0.004, vite +0.008 / +0.005
    # / 0.000. 0.3 gains where scopes are folders and costs little where they are not.
    scope_bm25_boost: float = 0.3
    # A word typed in backticks (`DelayQueue`, `--help`) is code: its BM25 weight x(1 + this).
    # Commit titles, file MRR@10: the development set -0.001 (fix; concept-nodoc +0.002), tokio
    # +0.012 and vite +0.003 at 0.5; at 1.0 the development set lost 0.007 and vite 0.010.
    code_span_boost: float = 0.5
    # A multi-word name typed as code (`max_connections`): the nodes spelling it whole (its definition,
    # its uses) are what a user of grep expects before nodes holding only its words (`max`) or a near
    # name the symbol stream guessed, above all when no definition has the name. x(1 + this).
    mention_boost: float = 1.0
    # The same name's joined term inside the BM25 stream: its weight x(1 + this) against its words',
    # so the nodes spelling it reach the fused head the boost above reorders.
    mention_bm25_boost: float = 3.0
    # A code fragment typed as a query (`cacheCleared := false`, `return &t, nil`): the nodes holding
    # it as written (spacing aside) are what a user of grep or zoekt expects first, above nodes
    # holding more of its words apart. x(1 + this).
    literal_boost: float = 2.0
    # A sentence's word naming the project it searches (`serde_json` in serde_json, by the package
    # name its manifest declares): its BM25 weight x this. The name is written where code imports
    # the project (doc examples, tests), not where an answer is.
    project_name_weight: float = 0.2
    # `path` is off by default: on the evaluation it cost MRR on every query kind (+0.020 pooled when
    # switched off), because a word naming a folder boosts every node of that folder alike.
    enabled: frozenset[str] = frozenset(SIGNAL_NAMES) - {"path"}

    def without(self, name: str) -> Signals:
        return msgspec.structs.replace(self, enabled=self.enabled - {name})

    def with_(self, name: str) -> Signals:
        return msgspec.structs.replace(self, enabled=self.enabled | {name})
