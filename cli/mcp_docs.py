"""What `qry mcp` tells the calling model: the server's instructions and each tool's description.

Kept apart from the tool bodies (`cli.mcp_tools`) and their registration (`cli.mcp_server`) because
this is prose a model reads to choose a tool and its arguments; the bounds it quotes come from the
same constants the server enforces, so a changed bound is described as enforced.
"""

from __future__ import annotations

from cli.mcp_tools import _DEPTH, _SNIPPET, _TOP_K, NODE_KINDS

INSTRUCTIONS = f"""\
qry searches one indexed code repository (BM25 over code-aware terms, symbol names, optional dense
vectors, and the call graph). Start with `search` (identifiers, signatures or plain questions), use
`resolve_symbol` to jump to a definition by name, `get_related` for callers/callees of one symbol,
and `query_graph` for structural questions. Results are JSON; paths are relative to the indexed root.
Started over a workspace (--workspace or --server), `search` spans its repositories (each hit names
its `repo`; `route` says which repositories a question is about), and so do `grep` and
`resolve_symbol` with --workspace; `get_related` asks the repository defining the name (or holding
the uid); pass a hit's `repo` to `get_related`, `query_graph`, `index_status` and `reindex` (for the
last three the default is the first repository).
Every call is bounded (top_k <= {_TOP_K.hi}, snippet_chars {_SNIPPET.lo}..{_SNIPPET.hi}, depth <= {_DEPTH.hi}, a time limit per call);
a broken bound or any failure returns isError with `error`, `hint` and `code`: read the hint and retry.
If hits are marked `stale` or `index_status` shows changed files, call `reindex`."""

SEARCH_DOC = """\
Search the indexed repository for code and docs; the same ranking as `qry search --json`.
Good queries: an identifier (`retry_failed_charge`, `ParseConfig`), a signature, or a question
("where are failed charges retried?"). Inline syntax also works in `query`: "exact phrase", prefix*,
lang:go, path:'src/**', kind:function, -path:tests/**.
Over a workspace (the server started with --workspace or --server): every hit also has `repo`,
`repo` (or repo:REGEX / -repo:REGEX in `query`) narrows the repositories searched, `route` true
searches only those the route tool would pick, and meta says which indexes answered.
Returns {query, results: [{uid, path, line (the line to open: the declaration or the line holding
the query's words, as `qry search` prints path:line), start_line, end_line, kind, symbol, language,
score, signature, snippet: {text, start_line, end_line, truncated, elided (lines the text leaves out: a nested
body, elided; text line i is the i-th line from start_line not in elided), cut (lines longer than the snippet, shown only in part)}, related: [callers/callees of the hit], stale,
generated (the file is generated code: change its generator)}],
meta: {root, mode, route, notes, truncated_by_budget, ...}}. Use budget_tokens to fit the answer
into your context: whole results are packed in rank order and meta.truncated_by_budget counts the
ones left out."""

GREP_DOC = """\
Every line matching a regular expression (Python `re` syntax), exactly as ripgrep would find it, in
path order: all call sites before a rename, every use of a config key. Uses the index's trigrams and
reads files changed since the index directly, so the answer is the tree as it is now. Returns
{pattern, lines: [{path, line, text, submatches: [[start, end]], match}], summary: {files_searched,
files_read, files_matched, lines_matched, index_used, truncated}}. Bounded: max_lines (default 200,
at most 2000), max_bytes of line text (default 100000), and 10 s; past any bound `truncated` is true,
the lines are a prefix of the full answer and lines_matched/files_matched count that prefix: narrow
with path, lang or glob, or a more specific pattern. For ranked, fuzzy or natural-language questions use search instead.
Over a workspace (the server started with --workspace): every repository in workspace order, each
line with its `repo`; `repo` (regular expressions over repository names) narrows them."""

RESOLVE_DOC = """\
Find the definitions a name refers to: exact names (case-insensitive), qualified suffixes
(`Server.handle`), then close spellings. Returns {query, definitions: [{uid, symbol, name, kind, path,
start_line, end_line, language, signature, doc, match, score}]}; `match` is exact, qualified, joined
(retry_failed_charge ~ retryFailedCharge) or fuzzy. Use a returned uid with get_related. Over a
workspace each definition has its `repo`, and `errors` names repositories whose index could not be read."""

RELATED_DOC = """\
Who calls a symbol, what it calls, and its parent container, walking the call graph up to `depth`
steps; for a class, struct, interface, enum or trait also its members (edge contains, direction
out). `symbol` is a name, a qualified name (`BillingService.retryFailedCharge`) or a 16-hex uid from
search/resolve_symbol. Returns {query, node, related: [{edge, direction ("in" = caller, "out" =
callee), symbol, kind, path, start_line, end_line, line (the call site, import or base list; 0 for
contains), decl_line (the line it declares itself on), depth, ambiguous}], candidates, ambiguous}.
When several definitions match equally, nothing is guessed: `ambiguous` is true and `candidates`
lists them; call again with one candidate's uid."""

# The labels are the node kinds, listed from NodeKind so a new kind is named here too.
GRAPH_DOC = f"""\
Run a read-only, bounded openCypher-style query over the code graph.
Shape: MATCH / OPTIONAL MATCH <pattern> [WHERE ...] RETURN ... [ORDER BY ...] [SKIP n] [LIMIT n].
Node labels: {", ".join(NODE_KINDS)}, node (any).
Relationship types: calls, imports, contains, inherits, implements. Node properties: uid, name, qualified_name, kind, path, language, start_line, end_line, signature; relationship properties: kind,
line, ambiguous. Variable length needs a bound of at most 4 (*1..3). LIMIT defaults to 100, at most
1000; 2 s budget. Pass values as $parameters in `params`, never spliced into the text.
Example: MATCH (f:function {{name: $name}})<-[:calls*1..2]-(g) RETURN g.qualified_name, g.path LIMIT 20
with params {{"name": "parse_config"}}. Returns {{columns, rows, truncated, elapsed_ms}}. Writes
(CREATE, MERGE, SET, DELETE, ...), unknown labels and unbounded * are rejected with the rule's name."""

STATUS_DOC = """\
Describe the index: the root (snapshot) answering queries, when it was published and from which git
commit, counts of files and nodes by language and kind, skipped files, vectors and model, and files
changed on disk since (modified/added/deleted, each list capped at 50 names with a total count).
If files changed, call reindex."""

REINDEX_DOC = """\
Bring the index up to date with the files on disk: re-parse only files that changed, embed as the
index was built (vectors only if it has them), and publish a new root. Later calls answer from the new
root at once. Returns the build report: files, added, changed, removed, nodes_written, segments,
skipped, timings, published (false when nothing changed). Takes seconds to minutes on a large repo."""


ROUTE_DOC = """\
Which repositories a question is about, before searching: scores each repository of the server's
workspace (`qry mcp --workspace W`; else the one index) by idf-weighted coverage of the question's terms
over its slug, branch, README head and module-level names and paths, combined with which repositories
hold the best hits of one search over all of them (in `mode`). repo:REGEX / -repo:REGEX in the
question narrow the repositories scored. Returns {query, terms, routes: [{repo,
confidence (0..1), rationale, matched, label_matched, profile_confidence, content_share}], considered,
notes}; repositories with neither evidence are left out, so an empty `routes` means none matched."""
