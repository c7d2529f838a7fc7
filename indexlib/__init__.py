"""qry's library: index a repository into content-addressed segments and search it.

The public API is `__all__`; the CLI and the MCP server use nothing else. Names load lazily (PEP 562),
so `import indexlib` costs nothing until a name is used, and a lexical query never imports the modules
of the write path, the model or the graph.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from indexlib.version import __version__

_EXPORTS: dict[str, str] = {
    # errors
    "QryError": "indexlib.errors",
    "UsageError": "indexlib.errors",
    "IndexNotFound": "indexlib.errors",
    "IndexCorrupt": "indexlib.errors",
    "LockBusy": "indexlib.errors",
    "ModelError": "indexlib.errors",
    "GraphQueryError": "indexlib.errors",
    "FormatVersionError": "indexlib.errors",
    "DiskFull": "indexlib.errors",
    "IndexNotWritable": "indexlib.errors",
    "PermissionDenied": "indexlib.errors",
    "QueryTimeout": "indexlib.errors",
    "disk_full": "indexlib.errors",
    "permission_denied": "indexlib.errors",
    # records
    "Hit": "indexlib.records",
    "SearchResult": "indexlib.records",
    "SearchMeta": "indexlib.records",
    "Related": "indexlib.records",
    "NodeKind": "indexlib.records",
    # building
    "BuildOptions": "indexlib.index.build",
    "BuildReport": "indexlib.index.build",
    "build_index": "indexlib.index.build",
    "check_source_root": "indexlib.index.build",
    # searching
    "Engine": "indexlib.retrieval.search",
    "SearchRequest": "indexlib.retrieval.request",
    "SearchOptions": "indexlib.retrieval.request",
    "bound_error": "indexlib.retrieval.request",
    "served_check": "indexlib.retrieval.request",
    "SEARCH_MODES": "indexlib.retrieval.bounds",
    "SEARCH_BOUNDS": "indexlib.retrieval.bounds",
    "SERVED_BOUNDS": "indexlib.retrieval.bounds",
    "Bound": "indexlib.retrieval.bounds",
    "open_engine": "indexlib.api",
    "search": "indexlib.api",
    "resolve_symbol": "indexlib.api",
    "related": "indexlib.api",
    "graph_query": "indexlib.api",
    "query_notes": "indexlib.api",
    "with_query_notes": "indexlib.api",
    "parse_when": "indexlib.timeparse",
    "printed_lines": "indexlib.retrieval.hitline",
    "shown_line": "indexlib.retrieval.hitline",
    "as_written": "indexlib.retrieval.elision",
    "text_lines": "indexlib.retrieval.hitline",
    "BRACED_BODY": "indexlib.records",
    "EXPRESSION_BODY": "indexlib.records",
    "OTHER_BODY": "indexlib.records",
    # exhaustive search
    "GrepRequest": "indexlib.grep.api",
    "run_grep": "indexlib.grep.api",
    "grep_members": "indexlib.workspace.grep",
    "bounded_grep": "indexlib.grep.api",
    "context_groups": "indexlib.grep.lines",
    "match_spans": "indexlib.grep.lines",
    "GrepLine": "indexlib.grep.records",
    "GrepError": "indexlib.grep.records",
    "GrepResult": "indexlib.grep.records",
    "GrepSummary": "indexlib.grep.records",
    # the index itself
    "index_status": "indexlib.status",
    "Status": "indexlib.status",
    "verify_caches": "indexlib.status",
    "resolve_index_dir": "indexlib.store.locate",
    "default_index_dir": "indexlib.store.locate",
    "Store": "indexlib.store.store",
    # several indexes as one
    "Member": "indexlib.workspace.config",
    "Workspace": "indexlib.workspace.config",
    "resolve_workspace": "indexlib.workspace.config",
    "load_workspaces": "indexlib.workspace.config",
    "workspace_add": "indexlib.workspace.config",
    "workspace_remove": "indexlib.workspace.config",
    "workspace_config_file": "indexlib.workspace.config",
    "members_of_dirs": "indexlib.workspace.config",
    "Federation": "indexlib.workspace.federate",
    "WorkspaceResult": "indexlib.workspace.federate",
    "RepoHit": "indexlib.workspace.federate",
    "is_told_note": "indexlib.workspace.federate",
    "route_workspace": "indexlib.workspace.routing",
    "is_routing_info": "indexlib.workspace.routing",
    "routed_search": "indexlib.workspace.routing",
    "search_workspace": "indexlib.workspace.routing",
    "require_an_answer": "indexlib.workspace.routing",
    "build_members": "indexlib.workspace.build",
    "member_state": "indexlib.workspace.members",
    "verify_member": "indexlib.workspace.members",
    "verify_index": "indexlib.status",
    "related_across": "indexlib.workspace.lookup",
    "resolve_across": "indexlib.workspace.lookup",
    "WorkspaceRelated": "indexlib.workspace.lookup",
    "RouteResult": "indexlib.route.score",
    "ROUTE_DEFAULT_LIMIT": "indexlib.route.score",
    "KEEP_RUNS": "indexlib.keep",
    "AUTO_KEEP_RUNS": "indexlib.keep",
    "ROUTE_LIMIT_MAX": "indexlib.route.score",
    "ROUTE_SERVED_LIMIT_MAX": "indexlib.route.score",
    # on a Ray cluster (the [cluster] extra; Ray is imported only when these run)
    "cluster_build": "indexlib.cluster.raybuild",
    "ClusterWorkspace": "indexlib.cluster.serve",
    "make_server": "indexlib.cluster.http",
    "remote_search": "indexlib.cluster.http",
    "check_listen": "indexlib.cluster.http",
    "check_server_url": "indexlib.cluster.http",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'indexlib' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # for type checkers and readers: the same names, eagerly
    from indexlib.api import (
        graph_query,
        open_engine,
        query_notes,
        related,
        resolve_symbol,
        search,
        with_query_notes,
    )
    from indexlib.cluster.http import check_listen, check_server_url, make_server, remote_search
    from indexlib.cluster.raybuild import cluster_build
    from indexlib.cluster.serve import ClusterWorkspace
    from indexlib.errors import (
        DiskFull,
        FormatVersionError,
        GraphQueryError,
        IndexCorrupt,
        IndexNotFound,
        IndexNotWritable,
        LockBusy,
        ModelError,
        PermissionDenied,
        QryError,
        QueryTimeout,
        UsageError,
        disk_full,
        permission_denied,
    )
    from indexlib.grep.api import GrepRequest, bounded_grep, run_grep
    from indexlib.grep.lines import context_groups, match_spans
    from indexlib.grep.records import GrepError, GrepLine, GrepResult, GrepSummary
    from indexlib.index.build import BuildOptions, BuildReport, build_index, check_source_root
    from indexlib.keep import AUTO_KEEP_RUNS, KEEP_RUNS
    from indexlib.records import (
        BRACED_BODY,
        EXPRESSION_BODY,
        OTHER_BODY,
        Hit,
        NodeKind,
        Related,
        SearchMeta,
        SearchResult,
    )
    from indexlib.retrieval.bounds import SEARCH_BOUNDS, SEARCH_MODES, SERVED_BOUNDS, Bound
    from indexlib.retrieval.elision import as_written
    from indexlib.retrieval.hitline import printed_lines, shown_line, text_lines
    from indexlib.retrieval.request import SearchOptions, SearchRequest, bound_error, served_check
    from indexlib.retrieval.search import Engine
    from indexlib.route.score import ROUTE_DEFAULT_LIMIT, ROUTE_LIMIT_MAX, ROUTE_SERVED_LIMIT_MAX, RouteResult
    from indexlib.status import Status, index_status, verify_caches, verify_index
    from indexlib.store.locate import default_index_dir, resolve_index_dir
    from indexlib.store.store import Store
    from indexlib.timeparse import parse_when
    from indexlib.workspace.build import build_members
    from indexlib.workspace.config import (
        Member,
        Workspace,
        load_workspaces,
        members_of_dirs,
        resolve_workspace,
        workspace_add,
        workspace_config_file,
        workspace_remove,
    )
    from indexlib.workspace.federate import Federation, RepoHit, WorkspaceResult, is_told_note
    from indexlib.workspace.grep import grep_members
    from indexlib.workspace.lookup import WorkspaceRelated, related_across, resolve_across
    from indexlib.workspace.members import member_state, verify_member
    from indexlib.workspace.routing import (
        is_routing_info,
        require_an_answer,
        route_workspace,
        routed_search,
        search_workspace,
    )
