"""Workspaces: config round trips, federated search over several real indexes, routing, partial answers."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import msgspec
import pytest

from indexlib import (
    BuildOptions,
    Federation,
    Member,
    QryError,
    SearchRequest,
    UsageError,
    build_index,
    open_engine,
)
from indexlib.workspace import config
from indexlib.workspace.federate import merge_hits
from indexlib.workspace.routing import probe_request, route_members, routed_search
from tests.cli.clikit import run_qry_process

REPOS = {
    "billing": {
        "README.md": "# billing\n\nCharges cards and retries failed charges.\n",
        "billing/retry.py": "def retry_failed_charge(card, attempts):\n    '''Retry a failed charge with backoff.'''\n    return charge_card(card) or attempts - 1\n\n\ndef charge_card(card):\n    return card.amount > 0\n",
        "billing/invoice.py": "class InvoiceRenderer:\n    def render_invoice(self, lines):\n        return '\\n'.join(lines)\n",
    },
    "auth": {
        "README.md": "# auth\n\nLogin sessions and token refresh.\n",
        "auth/session.go": "package auth\n\n// RefreshToken renews a session token before it expires.\nfunc RefreshToken(s *Session) error {\n\treturn s.renew()\n}\n\ntype Session struct{ token string }\n\nfunc (s *Session) renew() error { return nil }\n",
    },
    "web": {
        "README.md": "# web\n\nRenders pages.\n",
        "web/render.py": "def render_page(template, context):\n    '''Render one page from a template.'''\n    return template.format(**context)\n\n\ndef retry_render(template):\n    return render_page(template, {})\n",
    },
}


def _make(root: Path, name: str) -> Path:
    repo = root / name
    for rel, text in REPOS[name].items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    build_index(repo, BuildOptions(embed="none", git_times=False))
    return repo


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("ws")
    return {name: _make(root, name) for name in REPOS}


@pytest.fixture()
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    return tmp_path / "cfg"


def _fed(repos: dict[str, Path], names: list[str] | None = None) -> Federation:
    return Federation("t", [Member(n, repos[n] / ".qry") for n in names or list(repos)])


def test_one_index_workspace_answers_exactly_as_the_index(repos: dict[str, Path]) -> None:
    opts = SearchRequest(top_k=10)
    for q in ("retry failed charge", "render_invoice", "charge card"):
        alone = open_engine(repos["billing"] / ".qry").search(q, opts)
        ws = _fed(repos, ["billing"]).search(q, opts)
        assert [(h.uid, h.path) for h in ws.results] == [(h.uid, h.path) for h in alone.results]
        assert {h.repo for h in ws.results} == {"billing"}


def test_every_hit_names_its_repository_and_the_owner_of_a_symbol_leads(repos: dict[str, Path]) -> None:
    res = _fed(repos).search("RefreshToken", SearchRequest(top_k=5))
    assert res.results[0].repo == "auth" and res.results[0].symbol == "RefreshToken"
    assert all(h.repo in REPOS for h in res.results)
    assert [a.repo for a in res.meta.indexes] == list(REPOS) and all(a.ok for a in res.meta.indexes)
    assert not res.meta.partial


def test_budget_and_top_k_apply_to_the_merged_list(repos: dict[str, Path]) -> None:
    res = _fed(repos).search("render retry", SearchRequest(top_k=2))
    assert len(res.results) == 2
    packed = _fed(repos).search("render retry", SearchRequest(top_k=10, budget_tokens=60))
    assert 1 <= len(packed.results) < len(_fed(repos).search("render retry", SearchRequest(top_k=10)).results)


def test_a_broken_index_is_reported_and_the_others_still_answer(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(repos["web"], broken)
    (broken / ".qry" / "HEAD").write_text("0" * 64 + "\n")
    fed = Federation("t", [Member("billing", repos["billing"] / ".qry"), Member("web", broken / ".qry")])
    res = fed.search("render", SearchRequest())
    assert res.meta.partial
    bad = next(a for a in res.meta.indexes if a.repo == "web")
    assert not bad.ok and bad.error
    assert res.results and {h.repo for h in res.results} == {"billing"}
    assert any("web: index failed" in n for n in res.meta.notes)


def test_a_stale_index_is_flagged(tmp_path: Path) -> None:
    repo = tmp_path / "stale"
    (repo / "a").mkdir(parents=True)
    (repo / "a" / "m.py").write_text("def stale_thing():\n    return 1\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    build_index(repo, BuildOptions(embed="none", git_times=False))
    fed = Federation("t", [Member("stale", repo / ".qry")])
    assert not fed.search("stale_thing").meta.indexes[0].stale
    (repo / "a" / "n.py").write_text("x = 1\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "two"], check=True)
    res = fed.search("stale_thing")
    assert res.meta.indexes[0].stale and res.results
    assert any("stale" in n for n in res.meta.notes)
    from indexlib import member_state

    state = member_state(Member("stale", repo / ".qry"))  # what `qry workspace list` shows
    assert state.stale and state.files == 1 and state.root == res.meta.indexes[0].root
    gone = member_state(Member("gone", tmp_path / "nowhere" / ".qry"))
    assert not gone.present and gone.root is None and not gone.stale


def test_workspace_list_says_broken_for_an_index_every_search_refuses(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """The trial: a segment's tables.msgpack cut to 100 bytes made every search of the index exit 2
    (`index file ... tables.msgpack is damaged`, hint `check them: qry workspace list W`) while that
    list said `ok`: it read the root's manifest only, not the sizes the search's open checks."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    copy = tmp_path / "web"
    shutil.copytree(repos["web"], copy)
    assert run_qry_process("workspace", "add", "W", str(copy), cwd=tmp_path, env=env).code == 0
    (tables,) = (copy / ".qry" / "segments").glob("*/tables.msgpack")
    with tables.open("r+b") as f:
        f.truncate(100)
    search = run_qry_process("search", "-w", "W", "render", cwd=tmp_path, env=env)
    assert search.code == 2 and "tables.msgpack is damaged" in search.err, search.describe()
    listed = run_qry_process("workspace", "list", "W", cwd=tmp_path, env=env)
    row = listed.out.splitlines()[1].split("\t")
    assert row[3].startswith("BROKEN: index file segments/"), listed.describe()
    assert "tables.msgpack is damaged: 100 bytes" in row[3], listed.describe()
    assert row[4] and row[5] == "2", row  # the root it could read is still dated and counted
    as_json = run_qry_process("workspace", "list", "W", "--json", cwd=tmp_path, env=env)
    (state,) = json.loads(as_json.out)[0]["repos"]
    assert "tables.msgpack is damaged" in state["error"] and state["root"]


def test_merge_ranks_each_stream_across_indexes(repos: dict[str, Path]) -> None:
    """A rank-1 hit that matched weakly falls behind another index's strong hits in the same stream."""
    opts = SearchRequest(top_k=10)
    q = "retry failed charge backoff"
    lists = [(n, list(open_engine(repos[n] / ".qry").search(q, opts).results)) for n in ("billing", "web")]
    merged = merge_hits(lists, k=60)
    assert merged[0].repo == "billing" and merged[0].symbol == "retry_failed_charge"
    web_top = lists[1][1][0]
    web_pos = next(i for i, h in enumerate(merged) if h.uid == web_top.uid)
    assert web_pos >= 1 and merged[web_pos].score < web_top.score


def test_each_index_reports_its_mean_node_length_and_the_merge_compares_bm25_at_the_workspace_mean(
    repos: dict[str, Path],
) -> None:
    """The build counts each segment's analysed `content` terms; an answer reports the index's mean,
    and the merge scales BM25 by it where it compares scores across indexes."""
    from indexlib.engines.lexterms import node_terms
    from indexlib.workspace.collection import length_scales

    fed = _fed(repos, ["billing", "web"])
    res = fed.search("retry render", SearchRequest(top_k=10))
    for ans in res.meta.indexes:
        snap = fed.engine(ans.repo).snapshot()
        nodes = [stored.node for _seg, stored in snap.iter_live_nodes()]
        counted = sum(len(node_terms(n).content.split()) for n in nodes)
        assert sum(s.entry.content_terms for s in snap.segments) == counted
        assert ans.content_length == pytest.approx(counted / len(nodes))
    lengths = {a.repo: (a.docs, a.content_length) for a in res.meta.indexes}
    assert lengths["billing"][1] != lengths["web"][1]
    scales = length_scales(lengths)
    assert (scales["billing"] - 1.0) * (scales["web"] - 1.0) < 0  # one index up, the other down

    # The scale decides where one index's BM25-only hit lands among the other's.
    q = "retry failed charge render page template"
    opts = SearchRequest(top_k=10, mode="lexical")
    lists = [(n, list(open_engine(repos[n] / ".qry").search(q, opts).results)) for n in ("billing", "web")]
    web_first = lists[1][1][0].uid

    def position(scale: dict[str, float]) -> int:
        merged = merge_hits(lists, k=60, bm25_scale=scale)
        return next(i for i, h in enumerate(merged) if h.uid == web_first)

    assert position({"web": 10.0}) < position({"web": 0.1})
    assert position({}) == position({"web": 1.0, "billing": 1.0})


def test_an_index_reports_each_streams_ranked_scores_and_the_merge_counts_them(
    repos: dict[str, Path],
) -> None:
    """Asked for them, an index returns every stream's candidate scores in rank order; the merge counts
    how many of another index's candidates beat a hit from those, not from the few hits it returned,
    and a workspace answer does not carry them."""
    q = "retry failed charge render page template"
    eng = open_engine(repos["billing"] / ".qry")
    got = eng.search(q, SearchRequest(top_k=3, stream_scores=True))
    assert set(got.meta.stream_scores) == set(got.meta.streams)
    for h in got.results:
        p = h.provenance
        if p.bm25_rank is not None:
            assert got.meta.stream_scores["bm25"][p.bm25_rank - 1] == p.bm25_score
    plain = eng.search(q, SearchRequest(top_k=3))
    assert plain.meta.stream_scores is msgspec.UNSET
    assert b"stream_scores" not in msgspec.json.encode(plain)  # a plain answer's JSON is unchanged

    opts = SearchRequest(top_k=10, mode="lexical")
    lists = [(n, list(open_engine(repos[n] / ".qry").search(q, opts).results)) for n in ("billing", "web")]
    web_first = lists[1][1][0]
    assert web_first.provenance.bm25_score is not None

    def position(scores: dict[str, dict[str, list[float]]] | None) -> int:
        merged = merge_hits(lists, k=60, stream_scores=scores)
        return next(i for i, h in enumerate(merged) if h.uid == web_first.uid)

    # billing's returned hits alone say little; fifty candidates above web's best say it is far down
    crowd = {"billing": {"bm25": [web_first.provenance.bm25_score + 1.0] * 50}}
    assert position(crowd) > position(None)
    assert position({"billing": {"bm25": []}}) <= position(None)  # none above: no index is ahead

    # The rescaling weighs each stream as the index fused it: with the symbol stream's weight 0, a
    # hit's factor is its BM25 term's alone, computed from the counted rank.
    p = web_first.provenance
    assert p.bm25_rank is not None
    only_bm25 = {"web": {"bm25": 1.0, "symbol": 0.0, "vector": 0.0}}
    merged = merge_hits(lists, k=60, stream_scores=crowd, stream_weights=only_bm25)
    got_score = next(h.score for h in merged if h.uid == web_first.uid)
    want = web_first.score * (1 / (60 + p.bm25_rank + 50)) / (1 / (60 + p.bm25_rank))
    assert got_score == pytest.approx(want, abs=1e-6)

    res = _fed(repos, ["billing", "web"]).search(q, SearchRequest(top_k=10))
    assert all(a.stream_scores is msgspec.UNSET for a in res.meta.indexes)
    assert b"stream_scores" not in msgspec.json.encode(res)


def test_an_index_without_vectors_beside_one_with_them_is_imputed_and_named(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """A workspace mixing `--embed none` with vectors: the lexical index reports what it could not run."""
    web = tmp_path / "web"
    shutil.copytree(repos["web"], web, ignore=shutil.ignore_patterns(".qry"))
    build_index(web, BuildOptions(embed="hash", git_times=False))
    fed = Federation("t", [Member("billing", repos["billing"] / ".qry"), Member("web", web / ".qry")])
    result = fed.search("how is a failed charge handled with backoff", SearchRequest(top_k=10, graph=False))
    got = {a.repo: (a.unavailable, sorted(a.weights)) for a in result.meta.indexes}
    assert got == {
        "billing": (["vector"], ["bm25", "symbol", "vector"]),
        "web": ([], ["bm25", "symbol", "vector"]),
    }
    assert any(n.startswith("billing: no vectors") for n in result.meta.notes), result.meta.notes
    assert result.results[0].repo == "billing" and result.results[0].symbol == "retry_failed_charge"
    lexical = fed.search(
        "how is a failed charge handled with backoff", SearchRequest(top_k=10, graph=False, mode="lexical")
    )
    assert all(a.unavailable == [] for a in lexical.meta.indexes) and not lexical.meta.notes


def test_config_add_list_remove_and_folder_file(repos: dict[str, Path], xdg: Path, tmp_path: Path) -> None:
    config.add("team", [repos["billing"], repos["auth"] / ".qry"])
    config.add("team", [repos["web"]], name="frontend")
    ws = config.resolve("team")
    assert [m.name for m in ws.members] == ["billing", "auth", "frontend"]
    assert (xdg / "qry" / "workspaces.toml").is_file()
    config.remove("team", ["auth"])
    assert [m.name for m in config.resolve("team").members] == ["billing", "frontend"]
    config.remove("team", [])
    assert config.load_user() == {}
    folder = tmp_path / "org"
    folder.mkdir()
    (folder / "qry.toml").write_text(
        f'[workspace]\nname = "org"\n[[workspace.repos]]\nname = "b"\npath = "{repos["billing"]}"\n'
        f'[[workspace.repos]]\npath = "{repos["auth"]}/.qry"\n'
    )
    ws = config.resolve(str(folder))
    assert ws.name == "org" and [m.name for m in ws.members] == ["b", "auth"]


def test_config_rejects_bad_input(repos: dict[str, Path], xdg: Path, tmp_path: Path) -> None:
    from indexlib import UsageError

    with pytest.raises(UsageError, match="no qry index"):
        config.add("team", [tmp_path])
    with pytest.raises(UsageError, match="does not exist"):
        config.add("team", [tmp_path / "nothing"])
    with pytest.raises(UsageError, match="not allowed"):
        config.add("bad name!", [repos["billing"]])
    with pytest.raises(UsageError, match="no workspace"):
        config.resolve("unknown")
    (xdg / "qry").mkdir(parents=True)
    (xdg / "qry" / "workspaces.toml").write_text("[workspaces\n")
    with pytest.raises(UsageError, match="not valid TOML"):
        config.resolve("team")


def test_config_keeps_labels_printable_and_each_index_once(
    repos: dict[str, Path], xdg: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from indexlib import UsageError

    folder = tmp_path / "org"
    folder.mkdir()
    toml = folder / "qry.toml"
    for body, said in (
        (f'name = "a:b"\npath = "{repos["web"]}"', "repository name 'a:b' is not allowed"),
        (f'path = "{repos["web"]}"\n[[workspace.repos]]\npath = "{repos["web"]}/.qry"', "twice"),
        (
            f'name = "x"\npath = "{repos["web"]}"\n[[workspace.repos]]\nname = "x"\npath = "{repos["auth"]}"',
            "'x' twice",
        ),
    ):
        toml.write_text(f'[workspace]\nname = "org"\n[[workspace.repos]]\n{body}\n')
        with pytest.raises(UsageError, match=said):
            config.resolve(str(folder))
    with pytest.raises(UsageError, match="twice"):
        config.members_of_dirs([str(repos["web"]), str(repos["web"] / ".qry")])
    # re-adding keeps the entry's place; a relative path removes as `add` takes it
    config.add("team", [repos["billing"], repos["auth"], repos["web"]])
    config.add("team", [repos["billing"]], name="bill")
    assert [m.name for m in config.resolve("team").members] == ["bill", "auth", "web"]
    monkeypatch.chdir(repos["auth"].parent)
    assert [m.name for m in config.remove("team", ["./auth"]).members] == ["bill", "web"]  # type: ignore[union-attr]
    # a qry.toml named outright is read even when the user's file is broken
    toml.write_text(f'[workspace]\nname = "org"\n[[workspace.repos]]\npath = "{repos["web"]}"\n')
    (xdg / "qry" / "workspaces.toml").write_text("[workspaces\n")
    assert [m.name for m in config.resolve(str(toml)).members] == ["web"]
    with pytest.raises(UsageError, match="the workspace name is empty"):
        config.resolve("")


def test_a_copied_repository_is_grepped_and_indexed_from_its_own_folder(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    original = _make(tmp_path, "web")
    copy = tmp_path / "copy" / "web"
    shutil.copytree(original, copy)  # its index still records the original's folder
    (copy / "web" / "render.py").write_text("def only_in_the_copy():\n    return 1\n")
    assert run_qry_process("workspace", "add", "c", str(copy), cwd=tmp_path, env=env).code == 0
    grep = run_qry_process("grep", "only_in_the_copy", "--workspace", "c", cwd=tmp_path, env=env)
    assert grep.out.startswith("web:web/render.py:1:"), grep.describe()
    built = run_qry_process("index", "-w", "c", "--embed", "none", "--json", cwd=tmp_path, env=env)
    assert json.loads(built.out)[0]["source_root"] == str(copy), built.describe()
    found = run_qry_process("search", "only_in_the_copy", "-w", "c", "--json", cwd=tmp_path, env=env)
    assert json.loads(found.out)["results"][0]["symbol"] == "only_in_the_copy", found.describe()
    # a broken index is rebuilt through the workspace (its folder is the one holding the .qry)
    (copy / ".qry" / "HEAD").write_text("garbage\n")
    broken = run_qry_process("grep", "x", "--workspace", "c", cwd=tmp_path, env=env)
    assert broken.code == 2 and f"qry index --rebuild {copy}" in broken.err, broken.describe()
    fixed = run_qry_process("index", "-w", "c", "--embed", "none", "--rebuild", cwd=tmp_path, env=env)
    assert fixed.code == 0, fixed.describe()
    bad = run_qry_process("grep", "x", "--workspace", "c", "--repo", "(", "--json", cwd=tmp_path, env=env)
    assert bad.code == 2 and "not a valid regular expression" in bad.err and "Traceback" not in bad.err
    assert json.loads(bad.out)["isError"], bad.describe()


def test_a_file_or_a_missing_path_gets_a_hint_that_works(
    repos: dict[str, Path], xdg: Path, tmp_path: Path
) -> None:
    """`qry workspace add w FILE` hinted `qry index FILE`, which fails too: the hint must name a
    folder that can be added (the file's repository) or indexed (the file's folder)."""
    from indexlib import UsageError

    with pytest.raises(UsageError) as inside:
        config.add("team", [repos["billing"] / "README.md"])
    assert "is a file" in inside.value.message and "README.md" not in inside.value.hint
    hinted = Path(inside.value.hint.rsplit(": ", 1)[1])
    assert config.add("team", [hinted]).members[0].index == (repos["billing"] / ".qry").resolve()

    loose = tmp_path / "loose" / "notes.txt"
    loose.parent.mkdir()
    loose.write_text("a note\n")
    with pytest.raises(UsageError) as outside:
        config.add("team", [loose])
    assert outside.value.hint.endswith(f"qry index {loose.parent.resolve()}"), outside.value.hint
    build_index(loose.parent, BuildOptions(embed="none", git_times=False))  # the hinted command works
    assert config.add("team", [loose.parent]).members[-1].name == "loose"

    with pytest.raises(UsageError) as missing:
        config.add("team", [tmp_path / "nowhere"])
    assert "does not exist" in missing.value.message and "nowhere" not in missing.value.hint


def test_cli_counts_indexes_in_the_singular_too(repos: dict[str, Path], tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    one = run_qry_process("workspace", "add", "solo", str(repos["auth"]), cwd=tmp_path, env=env)
    assert one.code == 0 and one.out.startswith("workspace solo: 1 index ("), one.describe()
    two = run_qry_process("workspace", "add", "solo", str(repos["web"]), cwd=tmp_path, env=env)
    assert two.out.startswith("workspace solo: 2 indexes ("), two.describe()
    left = run_qry_process("workspace", "remove", "solo", "web", cwd=tmp_path, env=env)
    assert left.code == 0 and left.out == "workspace solo: 1 index left\n", left.describe()


def test_route_picks_the_repository_and_routed_search_searches_only_it(repos: dict[str, Path]) -> None:
    fed = _fed(repos)
    r = route_members(fed, "refresh the session token")
    assert r.routes[0].repo == "auth" and 0 < r.routes[0].confidence <= 1
    res = routed_search(fed, "refresh the session token", SearchRequest())
    assert res.meta.routed == ["auth"] and {h.repo for h in res.results} == {"auth"}
    assert [a.repo for a in res.meta.indexes] == ["auth"]
    nothing = routed_search(fed, "the", SearchRequest())
    assert nothing.meta.routed is None and any("whole workspace" in n for n in nothing.meta.notes)


def test_a_routes_rationale_names_the_line_search_prints(repos: dict[str, Path]) -> None:
    """`first: PATH:LINE` was the node's first line (the doc comment above `func RefreshToken`), not
    the line `qry search` shows the hit by (JSON `line`)."""
    fed = _fed(repos)
    question = "refresh token"
    first = fed.search(question, probe_request(None)).results[0]
    assert first.repo == "auth" and first.line != first.start_line  # a hit its comment opens
    route = route_members(fed, question).routes[0]
    assert route.repo == "auth" and f"(first: {first.path}:{first.line})" in route.rationale, route.rationale


def test_repo_filters_choose_which_indexes_are_asked(repos: dict[str, Path]) -> None:
    fed = _fed(repos)
    only = fed.search("retry repo:^bill", SearchRequest())
    assert [a.repo for a in only.meta.indexes] == ["billing"] and {h.repo for h in only.results} == {
        "billing"
    }
    # -repo: drops what it matches; --repo (SearchRequest.repos) adds includes; includes are "any of"
    rest = fed.search("retry -repo:billing", SearchRequest())
    assert [a.repo for a in rest.meta.indexes] == ["auth", "web"] and rest.results[0].repo == "web"
    either = fed.search("retry", SearchRequest(repos=["^WEB$", "auth"]))  # searched in the name, any case
    assert [a.repo for a in either.meta.indexes] == ["auth", "web"]
    with pytest.raises(UsageError, match="no repository of workspace 't' matches repo:nothing") as err:
        fed.search("retry repo:nothing", SearchRequest())
    assert "billing, auth, web" in err.value.hint
    with pytest.raises(UsageError, match="not a valid regular expression"):
        fed.search("retry repo:(", SearchRequest())
    with pytest.raises(UsageError) as given_as_option:  # --repo '(' was said as `repo:(`
        fed.search("retry", SearchRequest(repos=["("]))
    assert given_as_option.value.message.startswith("'(' is not a valid regular expression")
    assert "--repo" in (given_as_option.value.hint or "")
    # One index has no repository name to match: an error, not a filter that silently keeps all.
    with pytest.raises(UsageError, match="choose among a workspace's repositories"):
        open_engine(repos["web"] / ".qry").search("retry repo:web", SearchRequest())


def test_an_index_that_refuses_the_request_is_reported_and_the_others_answer(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    hashed = tmp_path / "vec"
    for rel, text in REPOS["auth"].items():
        (hashed / rel).parent.mkdir(parents=True, exist_ok=True)
        (hashed / rel).write_text(text)
    build_index(hashed, BuildOptions(embed="hash", git_times=False))
    fed = Federation("t", [Member("web", repos["web"] / ".qry"), Member("vec", hashed / ".qry")])
    # -m semantic needs vectors: the lexical index cannot answer, the one with vectors does
    res = fed.search("refresh the session token", SearchRequest(mode="semantic"))
    assert res.meta.partial and {h.repo for h in res.results} == {"vec"}
    assert any(n.startswith("web: index failed:") and "vectors" in n for n in res.meta.notes)
    # what every index shares is still the caller's error, raised before any index is asked
    with pytest.raises(UsageError, match="unknown language"):
        fed.search("token lang:cobol", SearchRequest())
    with pytest.raises(UsageError, match="--root names a publish root of one index"):
        fed.search("token", SearchRequest(root="abc"))


def test_the_http_face_refuses_bad_requests_with_the_error_json(repos: dict[str, Path]) -> None:
    """The `qry serve` HTTP server over a local Federation (the same handler the Ray server uses)."""
    import urllib.error
    import urllib.request

    from indexlib.cluster.http import check_listen, make_server, remote_search, serve_in_thread

    server = make_server(_fed(repos), "127.0.0.1", 0)
    serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_address[1]}"

    def post(body: bytes, path: str = "/search", method: str = "POST") -> tuple[int, dict]:
        req = urllib.request.Request(
            url + path, data=body, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    try:
        for body, said in (
            (b'{"query": ""}', "query is empty"),
            (json.dumps({"query": "x " * 1500}).encode(), "query length must be between"),
            (b'{"query": "x", "route": "false"}', "'route' must be true or false"),
            (b'{"query": "x", "options": "a"}', "'options' must be an object"),
            (b'{"query": "x", "options": {"top_k": 0}}', "top_k must be between 1"),  # the field, not a flag
            (b"[" * 100000, "not JSON"),
        ):
            status, err = post(body)
            assert status == 400 and said in err["error"] and err["isError"], (body[:40], err)
            assert "--" not in err["error"] + err.get("hint", ""), err
        assert post(b"", "/search", "PUT")[0] == 405 and post(b"{}", "/health")[0] == 405
        assert post(b"{}", "/nowhere")[0] == 404
        status, ok = post(json.dumps({"query": "retry \ud800 charge"}).encode())  # a lone surrogate
        assert status == 200 and ok["results"], ok
        status, routed = post(b'{"query": "zzqqxx", "route": true}')
        assert status == 200 and any("searched the whole workspace" in n for n in routed["meta"]["notes"])
        # the client: a base URL (a trailing /search is dropped), never a traceback
        assert remote_search(url + "/search", "RefreshToken", SearchRequest()).results[0].repo == "auth"
        with pytest.raises(UsageError, match="http\\(s\\) URL"):
            remote_search("notaurl", "x", SearchRequest())
        with pytest.raises(UsageError, match="--root"):
            remote_search(url, "x", SearchRequest(root="abc"))
        with pytest.raises(UsageError, match="cannot listen"):  # the port is taken: said before Ray starts
            check_listen("127.0.0.1", server.server_address[1])
        with pytest.raises(UsageError, match="--port must be between 0 and 65535"):
            check_listen("127.0.0.1", 99999)
    finally:
        server.shutdown()
        server.server_close()


def test_routing_reads_the_words_not_the_filters_and_routes_within_them(repos: dict[str, Path]) -> None:
    fed = _fed(repos)
    # "auth" as a filter value is not a word of the question: the route's terms leave it out.
    r = route_members(fed, "render a page -repo:auth", content=False)
    assert "auth" not in r.terms and "repo" not in r.terms and r.query == "render a page -repo:auth"
    assert [x.repo for x in r.routes] == ["web"]
    # The pool is what the filters keep: the owner of the question is not among them, so the route is
    # among the others, and the routed search asks only those.
    kept = route_members(fed, "refresh the session token -repo:auth")
    assert "auth" not in {x.repo for x in kept.routes} and kept.considered == 2
    res = routed_search(fed, "refresh the session token repo:auth", SearchRequest())
    assert res.meta.routed == ["auth"] and [a.repo for a in res.meta.indexes] == ["auth"]


def test_a_word_only_a_docstring_has_routes_by_content_not_by_profile(repos: dict[str, Path]) -> None:
    # "backoff" is in no README, slug or module-level name: only in retry_failed_charge's docstring.
    fed = _fed(repos)
    assert route_members(fed, "with backoff", content=False).routes == []
    r = route_members(fed, "with backoff")
    assert [x.repo for x in r.routes] == ["billing"] and r.routes[0].content_share == 1.0
    assert "billing/retry.py:2" in r.routes[0].rationale  # the docstring's line, which search prints
    assert routed_search(fed, "with backoff", SearchRequest()).meta.routed == ["billing"]


def test_a_camel_case_name_routes_by_its_words(repos: dict[str, Path]) -> None:
    from indexlib.route.profile import build_profile

    names = build_profile(open_engine(repos["billing"] / ".qry"), "billing").names.splitlines()
    assert "invoicerenderer invoice_renderer" in names
    r = route_members(_fed(repos), "InvoiceRenderer", content=False)  # as written: the joined name
    assert [x.repo for x in r.routes] == ["billing"]


def test_routing_asks_the_indexes_in_the_mode_of_the_search_it_routes(repos: dict[str, Path]) -> None:
    fed = _fed(repos)
    lexical = route_members(fed, "with backoff", opts=SearchRequest(mode="lexical"))
    assert lexical.content_mode == "lexical" and [r.repo for r in lexical.routes] == ["billing"]
    # No definition is named like the question and no profile holds "backoff": a symbol search finds
    # nothing to vote with, so nothing routes, and the routed search says it searched everything.
    names = route_members(fed, "with backoff", opts=SearchRequest(mode="symbol"))
    assert names.content_mode == "symbol" and names.routes == []
    res = routed_search(fed, "with backoff", SearchRequest(mode="symbol"))
    assert res.meta.routed is None and any("whole workspace" in n for n in res.meta.notes)
    assert route_members(fed, "with backoff", content=False).content_mode is None


def _hashed_workspace(tmp_path: Path) -> Federation:
    """REPOS written under `tmp_path` and indexed with the test embedder's vectors, as one workspace."""
    for name in REPOS:
        repo = tmp_path / name
        for rel, text in REPOS[name].items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(text)
        build_index(repo, BuildOptions(embed="hash", git_times=False))
    fed = Federation("h", [Member(n, tmp_path / n / ".qry") for n in REPOS])
    return fed


def test_a_hybrid_route_over_indexes_with_vectors_shares_one_query_model(tmp_path: Path) -> None:
    fed = _hashed_workspace(tmp_path)
    r = route_members(fed, "refresh the session token", opts=SearchRequest(mode="hybrid"))
    assert r.content_mode == "hybrid" and r.routes[0].repo == "auth"
    res = routed_search(fed, "refresh the session token", SearchRequest(mode="hybrid"))
    assert res.meta.routed == ["auth"] and res.results[0].provenance.vector_rank is not None
    model_id = fed.engine("auth").snapshot().manifest.model.model_id  # type: ignore[union-attr]
    loaded = {id(fed.engine(n).embedder(None, model_id)) for n in REPOS}
    assert len(loaded) == 1  # every engine of the workspace asks the one model of the process


def test_a_question_no_repository_holds_a_word_of_routes_nowhere(tmp_path: Path) -> None:
    """Vectors always have nearest neighbours, so gibberish got a repository at 0.77 confidence from
    dense hits alone: with no hit holding a word of the question, nothing routes, and a routed
    search searches the whole workspace, saying so."""
    fed = _hashed_workspace(tmp_path)
    hybrid = SearchRequest(mode="hybrid")
    # The test embedder hashes words into buckets: a made-up word that lands where a node's words do
    # is what a real model does with any text, a neighbour found by its vector alone.
    letters = "abcdefghijklmnopqrstuvwxyz"
    gibberish = next(
        w for w in (f"zzq{a}{b}" for a in letters for b in letters) if fed.search(w, hybrid).results
    )
    probe = fed.search(gibberish, hybrid)
    assert all(h.provenance.bm25_rank is None and h.provenance.symbol_rank is None for h in probe.results)
    routed = route_members(fed, gibberish, opts=hybrid)
    assert routed.routes == [] and routed.notes, routed  # a note says why nothing routed
    res = routed_search(fed, gibberish, hybrid)
    assert res.meta.routed is None and any("whole workspace" in n for n in res.meta.notes)
    assert route_members(fed, "refresh the session token", opts=hybrid).routes[0].repo == "auth"


def test_cli_workspace_commands_search_and_route(repos: dict[str, Path], tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    add = run_qry_process("workspace", "add", "team", *map(str, repos.values()), cwd=tmp_path, env=env)
    assert add.code == 0, add.describe()
    listed = run_qry_process("workspace", "list", "--json", cwd=tmp_path, env=env)
    assert [r["name"] for r in json.loads(listed.out)[0]["repos"]] == list(REPOS)
    assert all(
        r["present"] and r["files"] >= 2 and not r["stale"] for r in json.loads(listed.out)[0]["repos"]
    )
    table = run_qry_process("workspace", "list", "team", cwd=tmp_path, env=env)
    assert table.out.splitlines()[0].split("\t") == [
        "workspace",
        "repo",
        "index",
        "state",
        "published",
        "files",
    ]
    assert table.out.splitlines()[1].split("\t")[3] == "ok", table.describe()
    js = run_qry_process("search", "RefreshToken", "--workspace", "team", "--json", cwd=tmp_path, env=env)
    assert js.code == 0, js.describe()
    out = json.loads(js.out)
    assert out["results"][0]["repo"] == "auth" and all("repo" in h for h in out["results"])
    assert {a["repo"] for a in out["meta"]["indexes"]} == set(REPOS)
    plain = run_qry_process("search", "RefreshToken", "-w", "team", cwd=tmp_path, env=env)
    assert plain.out.startswith("auth:auth/session.go:"), plain.describe()
    dirs = run_qry_process(
        "search",
        "render_page",
        "--index-dir",
        str(repos["web"] / ".qry"),
        "--index-dir",
        str(repos["auth"] / ".qry"),
        "--jsonl",
        cwd=tmp_path,
        env=env,
    )
    assert dirs.code == 0 and json.loads(dirs.out.splitlines()[0])["repo"] == "web", dirs.describe()
    routed = run_qry_process(
        "route", "refresh", "session", "token", "-w", "team", "--json", cwd=tmp_path, env=env
    )
    assert json.loads(routed.out)["routes"][0]["repo"] == "auth", routed.describe()
    # The search `qry search --route` would run is hybrid, but no index of `team` has vectors: the
    # hits that voted are lexical ones, and the routed search keeps repositories as a lexical one does.
    assert json.loads(routed.out)["content_mode"] == "lexical"
    lexical = run_qry_process(
        "route", "refresh session token", "-w", "team", "-m", "lexical", "--json", cwd=tmp_path, env=env
    )
    assert json.loads(lexical.out)["content_mode"] == "lexical", lexical.describe()
    bad = run_qry_process("route", "refresh", "-w", "team", "--mode", "fuzzy", cwd=tmp_path, env=env)
    assert bad.code == 2 and "unknown mode 'fuzzy'" in bad.err, bad.describe()
    text = run_qry_process("route", "refresh session token", "-w", "team", cwd=tmp_path, env=env)
    assert text.out.split("\t")[0] == "auth"
    rs = run_qry_process(
        "search", "refresh session token", "-w", "team", "--route", "--json", cwd=tmp_path, env=env
    )
    assert json.loads(rs.out)["meta"]["routed"] == ["auth"], rs.describe()
    one = run_qry_process(
        "search", "retry", "-w", "team", "--repo", "^web$", "--jsonl", cwd=tmp_path, env=env
    )
    assert one.code == 0 and {json.loads(x)["repo"] for x in one.out.splitlines()} == {"web"}, one.describe()


def test_cli_workspace_errors(tmp_path: Path, repos: dict[str, Path]) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    for args in (
        ("search", "x", "--workspace", "nope"),
        ("search", "x", "--route", "--index-dir", str(repos["web"] / ".qry")),
        ("route", "x"),
        ("route", "x", "-w", "nope"),
        (
            "search",
            "retry repo:nothing",
            "--index-dir",
            str(repos["web"] / ".qry"),
            "--index-dir",
            str(repos["auth"] / ".qry"),
        ),
        ("search", "retry repo:web", "--index-dir", str(repos["web"] / ".qry")),
        ("search", "retry", "--repo", "[", "--index-dir", str(repos["web"] / ".qry")),
        ("workspace", "add", "team", str(tmp_path)),
        ("workspace", "remove", "nope"),
    ):
        r = run_qry_process(*args, cwd=tmp_path, env=env)
        assert r.code == 2 and r.err.startswith("qry: error: ") and "Traceback" not in r.err, r.describe()


def test_a_config_file_that_is_not_utf8_is_an_error_not_a_traceback(
    tmp_path: Path, repos: dict[str, Path]
) -> None:
    """The trial: a qry.toml or workspaces.toml of bytes that are not UTF-8 ended in a
    UnicodeDecodeError traceback and exit 1 (`_read_toml` caught only OSError and TOMLDecodeError)."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    folder = tmp_path / "bt"
    folder.mkdir()
    (folder / "qry.toml").write_bytes(b"\xff\xfe")
    (tmp_path / "cfg" / "qry").mkdir(parents=True)
    user = tmp_path / "cfg" / "qry" / "workspaces.toml"
    user.write_bytes(b"\xff")
    for args, file in (
        (("search", "-w", str(folder), "retry"), folder / "qry.toml"),
        (("grep", "retry", "--workspace", str(folder / "qry.toml")), folder / "qry.toml"),
        (("workspace", "list"), user),
        (("workspace", "add", "w", str(repos["web"])), user),
        (("search", "-w", "team", "retry"), user),
    ):
        r = run_qry_process(*args, cwd=tmp_path, env=env)
        assert r.code == 2 and "Traceback" not in r.err, r.describe()
        assert r.err.startswith(f"qry: error: {file} is not valid UTF-8 (byte 0xff at offset 0)"), (
            r.describe()
        )
        assert "hint: TOML files are UTF-8" in r.err, r.describe()
    assert user.read_bytes() == b"\xff"  # `add` did not write over what it could not read


def test_paths_the_system_refuses_to_look_up_are_usage_errors(
    tmp_path: Path, xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A path too long to look up raised OSError from `is_file` (Python 3.11) out of `resolve` and
    `add`; a git HEAD or commondir that is not UTF-8 or not a file raised out of `git_head`."""
    from indexlib.workspace.federate import git_head

    monkeypatch.chdir(tmp_path)
    long = "a/" * 3000
    with pytest.raises(UsageError, match="no workspace"):
        config.resolve(long + "x.toml")
    with pytest.raises(UsageError, match=r"cannot look at .*: File name too long"):
        config.add("w", [Path(long)])
    git = tmp_path / "repo" / ".git"
    git.mkdir(parents=True)
    (git / "HEAD").write_bytes(b"\xff\xfe")
    assert git_head(tmp_path / "repo") is None
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "commondir").mkdir()  # not a file: read as no common dir
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "refs" / "heads" / "main").write_text("abc123\n")
    assert git_head(tmp_path / "repo") == "abc123"
    (tmp_path / "wt").mkdir()
    (tmp_path / "wt" / ".git").write_bytes(b"gitdir: \xff")
    assert git_head(tmp_path / "wt") is None


def test_a_workspace_with_no_indexes_is_the_same_error_for_every_command_and_is_listed(
    tmp_path: Path, repos: dict[str, Path]
) -> None:
    """The trial: after removing w2's only repository, search, route and related said "has no
    indexes" (exit 2) but grep exited 1 (read as "no match"), verify 0 with nothing checked, status
    and index 0 with a header or nothing; and `qry workspace list` did not show w2 at all."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    assert run_qry_process("workspace", "add", "w2", str(repos["web"]), cwd=tmp_path, env=env).code == 0
    assert run_qry_process("workspace", "remove", "w2", "web", cwd=tmp_path, env=env).code == 0
    for args in (
        ("search", "-w", "w2", "x"),
        ("route", "-w", "w2", "x"),
        ("related", "x", "-w", "w2"),
        ("grep", "--workspace", "w2", "x"),
        ("verify", "-w", "w2"),
        ("status", "-w", "w2"),
        ("index", "--workspace", "w2"),
        ("gc", "-w", "w2"),
    ):
        r = run_qry_process(*args, cwd=tmp_path, env=env)
        assert r.code == 2 and r.out == "", r.describe()
        assert (
            r.err
            == "qry: error: workspace 'w2' has no indexes\n  hint: add one: qry workspace add w2 PATH...\n"
        ), r.describe()
    for args in (("workspace", "list"), ("workspace", "list", "w2")):
        listed = run_qry_process(*args, cwd=tmp_path, env=env)
        assert listed.code == 0 and listed.out.splitlines()[1:] == ["w2\t\t\t(no indexes)\t\t"], (
            listed.describe()
        )


def test_a_qry_toml_without_repos_says_to_add_them_to_that_file(tmp_path: Path, xdg: Path) -> None:
    """Its hint was `qry workspace add org PATH...`, which writes the user's file, not this one."""
    toml = tmp_path / "org" / "qry.toml"
    toml.parent.mkdir()
    toml.write_text('[workspace]\nname = "org"\n')
    with pytest.raises(UsageError, match="workspace 'org' has no indexes") as raised:
        config.resolve(str(toml.parent))
    assert (
        raised.value.hint
        == f'add the repositories to {toml}: [[workspace.repos]] with path = "FOLDER" for each'
    )
    assert config.resolve(str(toml), empty_ok=True).members == []  # `qry workspace list` shows it


def test_mcp_route_tool_over_a_workspace_and_over_one_index(repos: dict[str, Path], xdg: Path) -> None:
    from cli.mcp_tools import QryTools
    from indexlib import UsageError

    config.add("team", list(repos.values()))
    tools = QryTools(repos["billing"] / ".qry", workspace="team")
    out = tools.route("refresh the session token")
    assert out["routes"][0]["repo"] == "auth" and out["considered"] == 3
    alone = QryTools(repos["billing"] / ".qry").route("retry failed charge")
    # one repository: the one index, with the share of the question it covers (idf is 0 for all)
    assert [r["repo"] for r in alone["routes"]] == ["billing"] and alone["considered"] == 1
    assert 0 < alone["routes"][0]["confidence"] <= 1
    with pytest.raises(UsageError, match="limit"):
        tools.route("x", limit=0)
    from indexlib import IndexNotFound

    with pytest.raises(IndexNotFound):  # no index: the error every one-index tool gives, not a note
        QryTools(repos["billing"] / "nothing-here" / ".qry").route("retry failed charge")


def test_mcp_search_tool_over_a_workspace(repos: dict[str, Path], xdg: Path) -> None:
    from cli.mcp_tools import QryTools

    config.add("team", list(repos.values()))
    tools = QryTools(repos["billing"] / ".qry", workspace="team")
    out = tools.search("RefreshToken", top_k=5)
    # the workspace search, not the first index's: every hit names its repository, the owner leads
    assert out["results"][0]["repo"] == "auth" and {a["repo"] for a in out["meta"]["indexes"]} == set(REPOS)
    web = tools.search("retry", repo=["^web$"])
    assert {h["repo"] for h in web["results"]} == {"web"} and len(web["meta"]["indexes"]) == 1
    routed = tools.search("refresh the session token", route=True)
    assert routed["meta"]["routed"] == ["auth"]
    with pytest.raises(UsageError, match="no repository of workspace 'team'"):
        tools.search("retry", repo="nothing")
    alone = QryTools(repos["billing"] / ".qry")
    assert "repo" not in alone.search("retry_failed_charge")["results"][0]  # one index: plain hits
    with pytest.raises(UsageError, match="route chooses among a workspace's repositories"):
        alone.search("retry", route=True)
    with pytest.raises(UsageError, match="repo chooses among a workspace's repositories") as agent:
        alone.search("retry", repo="web")
    assert "qry mcp --workspace W" in agent.value.hint  # advice an agent's user can act on
    grep = tools.grep(r"def \w*render")
    assert [(x["repo"], x["path"], x["line"]) for x in grep["lines"]] == [
        ("billing", "billing/invoice.py", 2),
        ("web", "web/render.py", 1),
        ("web", "web/render.py", 6),
    ]
    one = tools.grep(r"def \w*render", repo="^web$", max_lines=1)  # bounded: a prefix of the answer
    assert [x["repo"] for x in one["lines"]] == ["web"] and one["summary"]["truncated"]
    assert one["summary"]["files_matched"] == 1 and one["summary"]["lines_matched"] == 1
    assert all("repo" not in x for x in alone.grep("retry")["lines"])
    with pytest.raises(UsageError, match="repo chooses among a workspace's repositories"):
        alone.grep("retry", repo="web")


def test_cli_grep_over_a_workspace(repos: dict[str, Path], tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    add = run_qry_process("workspace", "add", "team", *map(str, repos.values()), cwd=tmp_path, env=env)
    assert add.code == 0, add.describe()
    every = run_qry_process("grep", r"def \w*render", "--workspace", "team", cwd=tmp_path, env=env)
    # workspace order, then path order; each line names its repository before the path
    assert every.code == 0 and every.out.splitlines() == [
        "billing:billing/invoice.py:2:    def render_invoice(self, lines):",
        "web:web/render.py:1:def render_page(template, context):",
        "web:web/render.py:6:def retry_render(template):",
    ], every.describe()
    web = run_qry_process(
        "grep", "render", "--workspace", "team", "--repo", "^web", "-c", cwd=tmp_path, env=env
    )
    assert web.out == "web:web/render.py:3\n", web.describe()
    js = run_qry_process(
        "grep",
        "retry",
        "--workspace",
        "team",
        "--json",
        "--",
        "-repo:web",
        "lang:python",
        cwd=tmp_path,
        env=env,
    )
    out = json.loads(js.out)
    assert {(x["repo"], x["path"]) for x in out["lines"]} == {("billing", "billing/retry.py")}, js.describe()
    assert out["summary"]["lines_matched"] == len(out["lines"]) and out["summary"]["index_used"]
    plain = run_qry_process("grep", "retry", "--json", cwd=repos["web"], env=env)
    assert all("repo" not in x for x in json.loads(plain.out)["lines"])  # one tree: no repo field
    for bad, said in (
        (("grep", "x", "--workspace", "team", "web"), "takes no PATH"),
        (("grep", "x", "--workspace", "team", "--repo", "nothing"), "matches repo:nothing"),
        (("grep", "x", "--repo", "web"), "choose among a workspace's repositories"),
    ):
        r = run_qry_process(*bad, cwd=tmp_path, env=env)
        assert r.code == 2 and said in r.err and "Traceback" not in r.err, r.describe()


def test_a_workspace_grep_reports_a_repository_it_cannot_read_and_greps_the_others(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    gone = tmp_path / "gone"
    shutil.copytree(repos["auth"], gone)
    for name, path in (("auth", repos["auth"]), ("gone", gone)):
        run_qry_process("workspace", "add", "w", str(path), "--name", name, cwd=tmp_path, env=env)
    shutil.rmtree(gone / "auth")  # the indexed folder's files are gone, its index is not
    shutil.rmtree(gone / ".qry" / "roots")
    r = run_qry_process("grep", "RefreshToken", "--workspace", "w", cwd=tmp_path, env=env)
    assert r.out.startswith("auth:auth/session.go:3:"), r.describe()
    assert r.code == 2 and "qry: gone: " in r.err, r.describe()  # as rg: a path it could not search


def test_cli_index_updates_every_index_of_a_workspace(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    made = {name: _make(tmp_path, name) for name in ("web", "auth", "billing")}
    add = run_qry_process("workspace", "add", "w", *map(str, made.values()), cwd=tmp_path, env=env)
    assert add.code == 0, add.describe()
    (made["web"] / "web" / "render.py").write_text("def render_pdf(doc):\n    return doc\n")
    opts = ("--embed", "none", "--no-git-times")
    run = run_qry_process("index", "--workspace", "w", *opts, "--json", cwd=tmp_path, env=env)
    assert run.code == 0, run.describe()
    got = {d["repo"]: d for d in json.loads(run.out)}
    assert got["web"]["report"]["changed"] == 1 and got["web"]["report"]["published"]
    assert not got["auth"]["report"]["published"] and got["auth"]["error"] is None
    assert got["web"]["source_root"] == str(made["web"].resolve())
    found = run_qry_process("search", "render_pdf", "-w", "w", "--json", cwd=tmp_path, env=env)
    assert json.loads(found.out)["results"][0]["repo"] == "web", found.describe()
    # one repository's folder gone: it is reported, the others are still built, the status is 2
    shutil.rmtree(made["auth"] / "auth")
    (made["auth"] / "README.md").unlink()
    shutil.rmtree(made["billing"] / ".qry" / "roots")
    (made["web"] / "web" / "more.py").write_text("def render_svg(doc):\n    return doc\n")
    partial = run_qry_process("index", "--workspace", "w", *opts, cwd=tmp_path, env=env)
    assert partial.code == 2 and "qry: billing: " in partial.err, partial.describe()
    assert "web: indexed 3 files (1 new)" in partial.err and "auth: indexed 0 files" in partial.err
    only = run_qry_process("index", "-w", "w", "--repo", "^web$", *opts, "--json", cwd=tmp_path, env=env)
    assert [d["repo"] for d in json.loads(only.out)] == ["web"], only.describe()


def test_mcp_grep_names_what_it_could_not_search_and_route_needs_the_indexes(
    repos: dict[str, Path], xdg: Path, tmp_path: Path
) -> None:
    from cli.mcp_tools import QryTools

    gone = tmp_path / "gone"
    shutil.copytree(repos["auth"], gone)
    config.add("g", [repos["web"], gone])
    shutil.rmtree(gone / ".qry")
    out = QryTools(repos["web"] / ".qry", workspace="g").grep("render")
    assert {x["repo"] for x in out["lines"]} == {"web"}
    assert [e["path"] for e in out["errors"]] == ["gone"] and "no qry index" in out["errors"][0]["reason"]
    assert "errors" not in QryTools(repos["web"] / ".qry").grep("render")  # all searched: no field
    with pytest.raises(UsageError, match="route reads the workspace's indexes"):
        QryTools(repos["web"] / ".qry", server="http://127.0.0.1:9").route("render a page")


def test_mcp_one_index_tools_pick_the_repository_of_a_workspace(repos: dict[str, Path], xdg: Path) -> None:
    from cli.mcp_tools import QryTools

    config.add("team", list(repos.values()))  # billing first
    tools = QryTools(repos["billing"] / ".qry", workspace="team")
    hit = tools.search("RefreshToken", top_k=1)["results"][0]
    assert hit["repo"] == "auth"
    # a uid from a search hit is found in its own repository, whichever it is, and so is a name
    rel = tools.get_related(hit["uid"])
    assert rel["node"]["symbol"] == "RefreshToken" and rel["repo"] == "auth"
    by_name = tools.get_related("render_page")
    assert by_name["repo"] == "web" and "repo_note" not in by_name and by_name["errors"] == []
    # resolve_symbol looks in every repository and names each definition's
    defs = tools.resolve_symbol("render_page")["definitions"]
    assert [(d["repo"], d["symbol"]) for d in defs][:1] == [("web", "render_page")]
    assert tools.resolve_symbol("render_page", repo="auth")["definitions"] == []
    st = tools.index_status()
    assert st["repo"] == "billing" and "pass repo" in st["repo_note"]
    assert tools.index_status(repo="web")["repo"] == "web" and "repo_note" not in tools.index_status(
        repo="web"
    )
    graph = tools.query_graph("MATCH (f:function) RETURN f.name LIMIT 5", repo="web")
    assert graph["repo"] == "web" and {r[0] for r in graph["rows"]} >= {"render_page"}
    with pytest.raises(UsageError, match="no repository 'nope'"):
        tools.index_status(repo="nope")
    with pytest.raises(UsageError, match="repo chooses among a workspace's repositories"):
        QryTools(repos["web"] / ".qry").resolve_symbol("render_page", repo="web")


def test_workspace_search_and_route_stay_light(repos: dict[str, Path], tmp_path: Path) -> None:
    from tests.cli.test_help import _modules_after

    dirs = [a for n in ("web", "auth") for a in ("--index-dir", str(repos[n] / ".qry"))]
    for argv in (["search", "render", *dirs], ["route", "render page", *dirs]):
        loaded = set(_modules_after(argv, tmp_path))
        assert "tantivy" in loaded, "the search really ran"
        assert not loaded & {"ray", "numpy", "onnxruntime", "usearch", "rich"}, (argv, loaded)


def test_each_index_scores_bm25_with_the_workspace_idf(repos: dict[str, Path]) -> None:
    """Before the fan-out each index reports its document frequencies; each is then asked with every
    term weighted by the workspace idf over its own, and `global_idf=False` asks with its own idf."""
    from indexlib.workspace.collection import IDF_FIELD, idf_boosts, idf_terms

    fed = _fed(repos, ["billing", "web"])
    q = "retry render"
    terms = idf_terms(q)
    stats = {n: fed.engine(n).snapshot().term_stats(IDF_FIELD, terms) for n in ("billing", "web")}
    boosts = idf_boosts(stats)
    assert boosts["web"] and any(abs(b - 1.0) > 1e-3 for b in boosts["web"].values())
    opts = SearchRequest(top_k=10)
    weighted = open_engine(repos["web"] / ".qry").search(
        q, SearchRequest(top_k=10, term_boosts=boosts["web"])
    )
    plain = open_engine(repos["web"] / ".qry").search(q, opts)
    score = {h.uid: h.provenance.bm25_score for h in weighted.results}
    assert score != {h.uid: h.provenance.bm25_score for h in plain.results}
    got = fed.search(q, opts, merge="rank")
    assert {h.uid: h.provenance.bm25_score for h in got.results if h.repo == "web"} == score
    local = fed.search(q, opts, merge="rank", global_idf=False)
    assert {h.uid: h.provenance.bm25_score for h in local.results if h.repo == "web"} == {
        h.uid: h.provenance.bm25_score for h in plain.results
    }


def test_route_weighs_words_that_hidden_files_of_every_repository_share(tmp_path: Path) -> None:
    # Every repository has a .gitignore and .github/; only one is about gitignore files.
    files = {
        "ignore": {"src/gitignore.py": "def parse_gitignore(text):\n    return text.splitlines()\n"},
        "pages": {"src/render.py": "def render_page(template):\n    return template\n"},
    }
    members = []
    for name, tree in files.items():
        repo = tmp_path / name
        for rel, text in {
            **tree,
            ".gitignore": "build/\n",
            ".github/workflows/ci.yml": "name: ci\non: push\n",
        }.items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(text)
        build_index(repo, BuildOptions(embed="none", git_times=False))
        members.append(Member(name, repo / ".qry"))
    r = route_members(Federation("t", members), "gitignore")
    assert [route.repo for route in r.routes][:1] == ["ignore"]


def test_related_over_a_workspace_asks_the_repository_defining_the_name(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """`qry related -w`: one repository defining the name answers (naming it); several are an
    ambiguity whose candidates name theirs; none gives every repository's closest names; a
    repository that cannot be read is reported while the others answer."""
    from indexlib import related, related_across

    fed = _fed(repos)
    got = related_across(fed, "render_page")
    alone = related(open_engine(repos["web"] / ".qry"), "render_page")
    assert got.repo == "web" and got.node == alone.node and got.related == alone.related
    assert {r.symbol for r in got.related} >= {"retry_render"} and not got.errors
    uid = related_across(fed, "RefreshToken").node
    assert uid is not None and related_across(fed, uid.uid).repo == "auth"  # a uid finds its repository
    twice = Federation("t", [Member("web", repos["web"] / ".qry"), Member("web2", repos["web"] / ".qry")])
    amb = related_across(twice, "render_page")
    assert amb.ambiguous and amb.node is None and amb.repo is None
    assert sorted(c.repo for c in amb.candidates) == ["web", "web2"]  # type: ignore[attr-defined]
    assert related_across(twice, "render_page", repos=["^web2$"]).repo == "web2"
    near = related_across(fed, "render_pag")
    assert near.node is None and [(c.repo, c.name) for c in near.closest][:1] == [("web", "render_page")]  # type: ignore[attr-defined]
    broken = Federation("t", [Member("gone", tmp_path / "nothing"), Member("web", repos["web"] / ".qry")])
    part = related_across(broken, "render_page")
    assert part.repo == "web" and [e.repo for e in part.errors] == ["gone"] and part.errors[0].error
    with pytest.raises(UsageError, match="no repository of workspace 't' matches"):
        related_across(fed, "render_page", repos=["^nope$"])
    with pytest.raises(UsageError, match="--depth"):
        related_across(fed, "render_page", depth=99)


def test_a_location_a_workspace_search_printed_is_passed_back_to_related(repos: dict[str, Path]) -> None:
    """`web:web/render.py:6` and `web:render_page`, as a workspace search prints its locations (and
    `related -w` its rows), name the definition in that repository: both found no definition."""
    from indexlib import related_across, resolve_across

    twice = Federation("t", [Member("web", repos["web"] / ".qry"), Member("web2", repos["web"] / ".qry")])
    for spelled in ("web2:web/render.py:6", "web2:render_page", "web2:web/render.py:render_page"):
        got = related_across(twice, spelled)
        assert got.repo == "web2" and got.node is not None and not got.ambiguous, (spelled, got)
    assert related_across(twice, "render_page").ambiguous  # unlabelled: both define it
    found, _errors = resolve_across(twice, "web:render_page")
    assert {d.repo for d in found} == {"web"} and found[0].name == "render_page"
    # A label the filter left out, or none of the workspace's, is part of the name as typed.
    assert related_across(twice, "web2:render_page", repos=["^web$"]).node is None
    assert related_across(_fed(repos), "nope:render_page").node is None


def test_qry_related_with_a_workspace(repos: dict[str, Path], tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    paths = [str(repos[n]) for n in ("billing", "auth", "web")]
    assert run_qry_process("workspace", "add", "team", *paths, cwd=tmp_path, env=env).code == 0
    plain = run_qry_process("related", "retry_render", "-w", "team", cwd=tmp_path, env=env)
    assert plain.code == 0 and "web:web/render.py:1" in plain.out, plain.describe()
    assert "retry_render (function) web:web/render.py:" in plain.err, plain.describe()
    as_json = run_qry_process("related", "RefreshToken", "-w", "team", "--json", cwd=tmp_path, env=env)
    data = json.loads(as_json.out)
    assert data["repo"] == "auth" and data["node"]["symbol"] == "RefreshToken" and data["errors"] == []
    missing = run_qry_process("related", "render_pag", "-w", "team", cwd=tmp_path, env=env)
    assert missing.code == 1 and "render_page (web:web/render.py:1)" in missing.err, missing.describe()
    for argv, said in (
        (["--root", "abc"], "--root names a root of one index"),
        (["--index-dir", str(repos["web"] / ".qry")], "--workspace and --index-dir exclude each other"),
    ):
        bad = run_qry_process("related", "render_page", "-w", "team", *argv, cwd=tmp_path, env=env)
        assert bad.code == 2 and said in bad.err and "Traceback" not in bad.err, bad.describe()
    # `qry grep -w` is rg's --word-regexp: a workspace name taken for a PATH gets a hint
    word = run_qry_process("grep", "render", "-w", "team", cwd=tmp_path, env=env)
    assert word.code == 2 and "hint: -w is --word-regexp here" in word.err, word.describe()
    assert "--workspace team" in word.err
    alone = run_qry_process("related", "render_page", "--repo", "web", cwd=repos["web"], env=env)
    assert alone.code == 2 and "--repo chooses among a workspace's repositories" in alone.err, (
        alone.describe()
    )


def test_qry_verify_with_a_workspace_checks_every_index(repos: dict[str, Path], tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    copies = {}
    for name in ("web", "auth"):
        copies[name] = tmp_path / name
        shutil.copytree(repos[name], copies[name])
    gone = tmp_path / "gone"
    shutil.copytree(repos["billing"], gone)
    paths = [str(copies["web"]), str(copies["auth"]), str(gone)]
    assert run_qry_process("workspace", "add", "v", *paths, cwd=tmp_path, env=env).code == 0
    healthy = run_qry_process("verify", "-w", "v", cwd=tmp_path, env=env)
    assert healthy.code == 0 and healthy.err.count("every file matches its checksum") == 3, healthy.describe()
    shutil.rmtree(gone / ".qry")
    segment = next((copies["auth"] / ".qry" / "segments").rglob("*.msgpack"))
    data = bytearray(segment.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte, same size: only the checksum can tell
    segment.write_bytes(bytes(data))
    got = run_qry_process("verify", "-w", "v", cwd=tmp_path, env=env)
    assert got.code == 2 and "Traceback" not in got.err, got.describe()
    assert "ok: web: every file matches its checksum" in got.err
    assert "qry: auth: checksum: segments/" in got.err and "qry: gone: " in got.err, got.describe()
    # one command rebuilds both: the hint used to name only the first, sending the user round again
    assert "hint: rebuild them: qry index --workspace v --rebuild --repo '^(auth|gone)$'" in got.err
    as_json = json.loads(run_qry_process("verify", "-w", "v", "--json", cwd=tmp_path, env=env).out)
    assert not as_json["ok"] and [(r["repo"], r["ok"]) for r in as_json["repos"]] == [
        ("web", True),
        ("auth", False),
        ("gone", False),
    ]
    assert as_json["repos"][2]["error"] and as_json["repos"][1]["problems"][0]["kind"] == "checksum"


def test_qry_status_and_gc_with_a_workspace_answer_per_index(repos: dict[str, Path], tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    web, gone = tmp_path / "web", tmp_path / "gone"
    shutil.copytree(repos["web"], web)
    shutil.copytree(repos["billing"], gone)
    shutil.rmtree(web / ".qry")  # the copy gets an index of its own
    assert run_qry_process("index", str(web), "--embed", "none", "-q", cwd=tmp_path, env=env).code == 0
    assert run_qry_process("workspace", "add", "s", str(web), str(gone), cwd=tmp_path, env=env).code == 0
    (web / "new_module.py").write_text("def fresh():\n    return 1\n")
    shutil.rmtree(gone / ".qry")
    status = run_qry_process("status", "-w", "s", cwd=tmp_path, env=env)
    assert status.code == 2 and "Traceback" not in status.err, status.describe()
    rows = [line.split("\t") for line in status.out.splitlines()]
    assert rows[0][:2] == ["repo", "root"] and [r[0] for r in rows[1:]] == ["web"], status.describe()
    assert rows[1][rows[0].index("changed")] == "1"  # the new file, not indexed yet
    assert "qry: gone: " in status.err and "--repo '^gone$'" in status.err, status.describe()
    as_json = json.loads(run_qry_process("status", "-w", "s", "--json", cwd=tmp_path, env=env).out)
    assert [(r["repo"], r["status"] is not None) for r in as_json["repos"]] == [
        ("web", True),
        ("gone", False),
    ]
    collected = run_qry_process("gc", "-w", "s", cwd=tmp_path, env=env)
    assert collected.code == 2 and collected.err.startswith("web: removed "), collected.describe()
    assert "gone: error: " in collected.err


def test_re_adding_an_index_without_name_keeps_its_label(
    repos: dict[str, Path], xdg: Path, tmp_path: Path
) -> None:
    """The trial: `qry workspace add w square+okio --name okio`, then `qry workspace add w square+okio`
    failed with "the folder name 'square+okio' is not allowed", and for an allowed folder name the
    re-add silently put back the folder's name over the label the user chose. Re-adding keeps the
    entry (its place, and its label unless --name gives a new one)."""
    odd = tmp_path / "owner+web"
    shutil.copytree(repos["web"], odd)
    config.add("team", [odd], name="web")
    config.add("team", [repos["billing"]], name="bill")
    assert [m.name for m in config.add("team", [odd]).members] == ["web", "bill"]
    assert [m.name for m in config.add("team", [repos["billing"], odd]).members] == ["web", "bill"]
    assert [m.name for m in config.add("team", [repos["billing"]], name="b2").members] == ["web", "b2"]


def test_hints_quote_the_paths_they_name(repos: dict[str, Path], xdg: Path, tmp_path: Path) -> None:
    """The trial: `qry workspace add w "noidx dir"` hinted `qry index /tmp/.../noidx dir`, which
    indexes a folder named `noidx` (and fails); a path in a hint's command is shell-quoted."""
    spaced = tmp_path / "my repos" / "no index"
    spaced.mkdir(parents=True)
    with pytest.raises(UsageError) as none:
        config.add("team", [spaced])
    assert f"qry index '{spaced.resolve()}'" in none.value.hint, none.value.hint
    web = tmp_path / "my repos" / "web"
    shutil.copytree(repos["web"], web)
    config.add("team", [web])
    other = tmp_path / "my repos" / "other" / "web"
    shutil.copytree(repos["web"], other)
    with pytest.raises(UsageError) as twice:
        config.add("team", [other])
    assert f"qry workspace add team '{other}' --name OTHER" in twice.value.hint, twice.value.hint
    odd = tmp_path / "my repos" / "a+b"
    shutil.copytree(repos["web"], odd)
    with pytest.raises(UsageError) as label:
        config.add("team", [odd])
    assert f"qry workspace add team '{odd}' --name LABEL" in label.value.hint, label.value.hint


def test_index_dirs_whose_folder_names_are_not_labels_still_search(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """The trial: `qry search x --index-dir sinatra+sinatra --index-dir encode+httpx` failed with
    "--index-dir: repository name 'sinatra+sinatra' is not allowed", and there is no --name to fix
    it with: the label of an --index-dir is its folder's name with what a label cannot hold made '-'."""
    a, b = tmp_path / "owner+web", tmp_path / "my auth"
    shutil.copytree(repos["web"], a)
    shutil.copytree(repos["auth"], b)
    assert [m.name for m in config.members_of_dirs([str(a), str(b)])] == ["owner-web", "my-auth"]
    r = run_qry_process("search", "render_page", "--index-dir", str(a), "--index-dir", str(b), cwd=tmp_path)
    assert r.code == 0 and r.out.startswith("owner-web:web/render.py:"), r.describe()


def test_an_exclusion_that_left_out_results_in_one_index_is_said_for_the_workspace(
    repos: dict[str, Path],
) -> None:
    """The trial: `qry search "cookie -session" -w w` left results out in one repository and said
    nothing (a one-index search names the words on stderr): the note was kept only when every index
    reported it, and an index where `-session` removed nothing has no such note."""
    res = _fed(repos).search("render -retry", SearchRequest(top_k=5))
    assert any(n.startswith("left out results containing retry") for n in res.meta.notes), res.meta.notes
    assert sum(n.startswith("left out results") for n in res.meta.notes) == 1


def test_workspace_notes_reach_stderr_in_every_format(repos: dict[str, Path], tmp_path: Path) -> None:
    """The trial: with --jsonl (no meta) a member index that failed was not reported anywhere, and
    with --json or --jsonl the notes a one-index search says on stderr in every format (a `-word`
    that left results out, no result) were not said. A failed index is a warning in every format
    but --json (where meta.indexes and meta.partial say it), a told note a note in every format."""
    gone = tmp_path / "gone"
    shutil.copytree(repos["auth"], gone)
    shutil.rmtree(gone / ".qry" / "segments")
    dirs = ["--index-dir", str(repos["web"]), "--index-dir", str(repos["billing"]), "--index-dir", str(gone)]
    for fmt in ([], ["--json"], ["--jsonl"], ["-l"], ["-C", "1"]):
        r = run_qry_process("search", "render -retry", *dirs, *fmt, cwd=tmp_path)
        assert r.code == 0 and "Traceback" not in r.err, r.describe()
        assert "qry: note: left out results containing retry" in r.err, (fmt, r.describe())
        failed = "qry: warning: gone: index failed:" in r.err
        assert failed == (fmt != ["--json"]), (fmt, r.describe())
    jsonl = run_qry_process("search", "render", *dirs, "--jsonl", cwd=tmp_path)
    assert all("repo" in json.loads(x) for x in jsonl.out.splitlines()), jsonl.describe()


def test_mcp_resolve_symbol_over_a_workspace_answers_from_the_indexes_it_can_read(
    repos: dict[str, Path], xdg: Path, tmp_path: Path
) -> None:
    """The trial: with one repository's index deleted, `resolve_symbol` over the workspace failed
    whole (`index_not_found`) where search, grep and get_related answer from the others and name it."""
    from cli.mcp_tools import QryTools

    gone = tmp_path / "gone"
    shutil.copytree(repos["auth"], gone)
    config.add("g", [gone, repos["web"]])
    shutil.rmtree(gone / ".qry")
    out = QryTools(repos["web"] / ".qry", workspace="g").resolve_symbol("render_page")
    assert [(d["repo"], d["symbol"]) for d in out["definitions"]][:1] == [("web", "render_page")]
    assert [e["repo"] for e in out["errors"]] == ["gone"] and "no qry index" in out["errors"][0]["error"]
    assert QryTools(repos["web"] / ".qry", workspace="g").resolve_symbol("nothing_like_it")["errors"]


def test_an_empty_route_question_hints_at_route(repos: dict[str, Path], tmp_path: Path) -> None:
    """The trial: `qry route "" -w w` answered `the query is empty` with the hint `qry search
    parse_config`, another command; it names the question and a route to run instead."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    assert run_qry_process("workspace", "add", "t", str(repos["web"]), cwd=tmp_path, env=env).code == 0
    for q in ("", "   "):
        r = run_qry_process("route", q, "-w", "t", cwd=tmp_path, env=env)
        assert r.code == 2 and r.err.startswith("qry: error: the question is empty\n"), r.describe()
        assert "hint: say what to route, e.g. qry route " in r.err and "qry search" not in r.err
    js = run_qry_process("route", "", "-w", "t", "--json", cwd=tmp_path, env=env)
    assert js.code == 2 and json.loads(js.out)["error"] == "the question is empty", js.describe()


def test_a_qry_toml_named_by_a_relative_path_lists_absolute_indexes_and_is_not_edited(
    repos: dict[str, Path], xdg: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trial: `-w org` (a folder holding a qry.toml, named from its parent) listed and reported
    its indexes as `sinatra+sinatra/.qry`, relative to wherever the command ran; and `qry workspace
    remove ./org/qry.toml ky` answered "no workspace './org/qry.toml'" as if it did not exist."""
    org = tmp_path / "org"
    org.mkdir()
    (org / "qry.toml").write_text('[workspace]\nname = "org"\n[[workspace.repos]]\npath = "../web"\n')
    shutil.copytree(repos["web"], tmp_path / "web")
    monkeypatch.chdir(tmp_path)
    ws = config.resolve("org")
    assert [m.index for m in ws.members] == [tmp_path / "web" / ".qry"], ws.members
    for spec in ("org", "./org/qry.toml"):
        with pytest.raises(UsageError) as err:
            config.remove(spec, ["web"])
        assert "read only" in err.value.message and "[[workspace.repos]]" in err.value.hint, err.value
    with pytest.raises(UsageError, match="read only"):
        config.add("./org/qry.toml", [repos["auth"]])
    # a new workspace of the user's file named `org` here would stand in the qry.toml's place for -w org
    with pytest.raises(UsageError, match=r"holding a qry\.toml") as err:
        config.add("org", [repos["auth"]])
    assert "name the workspace otherwise" in err.value.hint, err.value
    assert config.resolve("org").source == org / "qry.toml"
    monkeypatch.chdir(org)  # elsewhere the name is free
    assert [m.name for m in config.add("org", [repos["auth"]]).members] == ["auth"]


def test_qry_index_workspace_says_each_repository_as_its_build_ends(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """The trial: Ctrl-C of `qry index -w w` after five of six builds printed only `qry: interrupted`:
    the summary lines were held back to the end, so what was built (and, on a long build of
    embedding indexes, any sign of progress) was never said. Each line is said when its build ends."""
    import sys

    from tests.cli.clikit import cli_env

    env = cli_env({"XDG_CONFIG_HOME": str(tmp_path / "cfg")})
    copies = [tmp_path / name for name in ("web", "auth")]
    for name, copy in zip(("web", "auth"), copies, strict=True):
        shutil.copytree(repos[name], copy)
    assert run_qry_process("workspace", "add", "t", *map(str, copies), cwd=tmp_path, env=env).code == 0
    code = (
        "import sys, indexlib.workspace.build as b; real = b.build_index; calls = []\n"
        "def second_interrupted(*a, **k):\n"
        "    calls.append(1)\n"
        "    if len(calls) > 1: raise KeyboardInterrupt\n"
        "    return real(*a, **k)\n"
        "b.build_index = second_interrupted\n"
        "sys.argv = ['qry', 'index', '-w', 't', '--embed', 'none']\n"
        "from cli.entry import run; run()"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert proc.returncode == 130 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("web: indexed ") and proc.stderr.endswith("qry: interrupted\n"), proc.stderr


def test_a_routed_search_counts_the_routing_in_its_time(
    repos: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trial: `qry search -w w --route` printed `3 results in 18 ms` (meta.elapsed_ms) for a
    search whose routing alone, a search over every repository, took most of its time: the time
    counted the routed search only."""
    import time

    from indexlib.workspace import routing

    real = routing.choose

    def slow_choose(*args: object, **kwargs: object) -> tuple[list[str], list[str]]:
        time.sleep(0.3)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(routing, "choose", slow_choose)
    res = routed_search(_fed(repos), "refresh the session token", SearchRequest())
    assert res.meta.routed == ["auth"] and res.meta.elapsed_ms >= 300, res.meta.elapsed_ms


def test_removing_from_an_unknown_workspace_names_the_known_ones(repos: dict[str, Path], xdg: Path) -> None:
    """The trial: `qry workspace remove nows` hinted `see: qry workspace list` where `-w nows`
    elsewhere names the workspaces there are: a typo is then seen at once."""
    config.add("team", [repos["web"]])
    with pytest.raises(UsageError) as err:
        config.remove("taem", [])
    assert err.value.hint == "known workspaces: team", err.value.hint


def test_workspace_list_with_none_says_how_to_make_one(tmp_path: Path) -> None:
    """The trial: the first `qry workspace list` printed a header and nothing else, exit 0: a new
    user learns nothing. The header stays (a program reads it), and stderr says how to add one."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    r = run_qry_process("workspace", "list", cwd=tmp_path, env=env)
    assert r.code == 0 and r.out.startswith("workspace\trepo\t") and len(r.out.splitlines()) == 1
    assert "no workspaces yet" in r.err and "qry workspace add W PATH" in r.err, r.describe()
    js = run_qry_process("workspace", "list", "--json", cwd=tmp_path, env=env)
    assert js.code == 0 and json.loads(js.out) == [] and js.err == "", js.describe()


def test_cli_grep_with_index_dir_repeated_greps_each_as_search_does(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """The trial: `qry grep PATTERN --index-dir A --index-dir B` kept the last one only, and, run
    outside B's tree, grepped the whole working directory instead; `qry search` and `qry route`
    take --index-dir repeated as several indexes, so grep does too (as a workspace grep)."""
    dirs = ["--index-dir", str(repos["billing"]), "--index-dir", str(repos["web"] / ".qry")]
    r = run_qry_process("grep", r"def \w*render", *dirs, cwd=tmp_path)
    assert r.code == 0 and r.out.splitlines() == [
        "billing:billing/invoice.py:2:    def render_invoice(self, lines):",
        "web:web/render.py:1:def render_page(template, context):",
        "web:web/render.py:6:def retry_render(template):",
    ], r.describe()
    picked = run_qry_process("grep", "render", *dirs, "--repo", "^web$", "-c", cwd=tmp_path)
    assert picked.out == "web:web/render.py:3\n", picked.describe()
    one = run_qry_process("grep", "def render_page", "--index-dir", str(repos["web"]), cwd=repos["web"])
    assert one.out == "web/render.py:1:def render_page(template, context):\n", one.describe()
    both = run_qry_process("grep", "x", *dirs, "--workspace", "w", cwd=tmp_path)
    assert both.code == 2 and "exclude each other" in both.err, both.describe()


def test_a_command_of_one_index_refuses_index_dir_given_twice(repos: dict[str, Path], tmp_path: Path) -> None:
    """The trial: `qry related Cookie --index-dir A --index-dir B` answered from B alone, silently,
    where search, route and grep take --index-dir repeated as several indexes; the commands that
    read one index say so instead of dropping all but the last."""
    two = ["--index-dir", str(repos["web"]), "--index-dir", str(repos["auth"])]
    for args in (("related", "render_page"), ("status",), ("verify",), ("graph", "MATCH (f) RETURN f.name")):
        r = run_qry_process(*args, *two, cwd=tmp_path)
        assert r.code == 2 and "Traceback" not in r.err, r.describe()
        assert r.err.startswith(
            f"qry: error: qry {args[0]} reads one index: --index-dir was given 2 times"
        ), r.describe()
        assert "qry workspace add" in r.err, r.describe()
    one = run_qry_process("related", "render_page", "--index-dir", str(repos["web"]), cwd=tmp_path)
    assert one.code == 0, one.describe()


def test_a_missing_member_index_names_the_command_that_makes_it(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """The trial: a workspace search with one repository's `.qry` deleted warned `hx: index failed:
    no qry index at /tmp/wstrial/my repos/hx/.qry (create one: qry index PATH)`: which PATH, and one
    with a space in it unquoted. The hint is the command, with the folder quoted."""
    gone = tmp_path / "my repos" / "gone"
    shutil.copytree(repos["auth"], gone)
    fed = Federation("t", [Member("web", repos["web"] / ".qry"), Member("gone", gone / ".qry")])
    shutil.rmtree(gone / ".qry")
    res = fed.search("render", SearchRequest())
    bad = next(a for a in res.meta.indexes if a.repo == "gone")
    assert bad.error and f"create one: qry index '{gone}'" in bad.error, bad.error
    elsewhere = tmp_path / "idx"
    with pytest.raises(QryError) as err:
        open_engine(elsewhere).search("render", SearchRequest())
    assert err.value.hint == f"create one: qry index FOLDER --index-dir {elsewhere}", err.value.hint


def test_route_over_a_workspace_of_unreadable_indexes_is_an_error(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """The trial: `qry route cookie -w gh`, every index of gh gone, exited 1 ("no route") after
    `the profiles tell no repository apart`, where `qry search -w gh` exits 2 saying no index
    answered: it is the same error, with the hint to look at the workspace."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    gone = tmp_path / "gone"
    shutil.copytree(repos["web"], gone)
    assert run_qry_process("workspace", "add", "gh", str(gone), cwd=tmp_path, env=env).code == 0
    shutil.rmtree(gone / ".qry")
    for args in (("route", "render page", "-w", "gh"), ("search", "render page", "-w", "gh", "--route")):
        r = run_qry_process(*args, cwd=tmp_path, env=env)
        assert r.code == 2 and r.err.startswith("qry: error: no index of workspace 'gh'"), r.describe()
        assert "hint: check them: qry workspace list gh" in r.err and "Traceback" not in r.err, r.describe()


def test_related_rows_of_a_workspace_hit_name_its_repository(repos: dict[str, Path], tmp_path: Path) -> None:
    """The trial: `qry search handle_request -w w --graph` printed the hit as `httpx:httpx/...:91`
    and its callers as `  <- calls X httpx/_client.py:1014`, a path of no repository: every path a
    workspace search prints carries the repository it is in (the related nodes are in the hit's)."""
    dirs = ["--index-dir", str(repos["web"]), "--index-dir", str(repos["billing"])]
    for fmt in ([], ["-C", "0"]):
        r = run_qry_process("search", "render_page", *dirs, "--graph", "-k", "1", *fmt, cwd=tmp_path)
        related = [x for x in r.out.splitlines() if x.startswith("  <- ")]
        assert r.code == 0 and related, r.describe()
        assert all(" web:web/render.py:" in x for x in related), r.describe()


def test_adding_a_subfolder_of_an_indexed_repository_points_at_the_repository(
    repos: dict[str, Path], xdg: Path
) -> None:
    """The trial: `qry workspace add w4 sinatra/lib` hinted `qry index sinatra/lib`, which would
    make a second, nested index; the subfolder's repository has one: the hint names it."""
    with pytest.raises(UsageError) as err:
        config.add("team", [repos["web"] / "web"])
    assert "is inside the indexed repository" in err.value.message, err.value
    assert err.value.hint == f"pass the folder of its repository: {repos['web'].resolve()}", err.value.hint


def test_a_routed_search_says_where_it_searched_in_every_format(
    repos: dict[str, Path], tmp_path: Path
) -> None:
    """The trial: `qry search Q -w w --route` piped (or -l, --jsonl) never said which repositories the
    router chose: only the table's footer and --json's meta.routed did. Now stderr says it too."""
    dirs = [a for name in REPOS for a in ("--index-dir", str(repos[name]))]
    for fmt in ([], ["-l"], ["--jsonl"], ["-C", "1"]):
        r = run_qry_process("search", "refresh the session token", *dirs, "--route", *fmt, cwd=tmp_path)
        assert r.code == 0 and "qry: note: routed to auth\n" in r.err, (fmt, r.describe())
    js = run_qry_process("search", "refresh the session token", *dirs, "--route", "--json", cwd=tmp_path)
    assert "routed to" not in js.err and json.loads(js.out)["meta"]["routed"] == ["auth"], js.describe()


def test_past_content_candidates_only_the_best_by_vocabulary_are_searched_for_content(
    repos: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from indexlib.workspace import routing

    monkeypatch.setattr(routing, "CONTENT_CANDIDATES", 1)
    fed = _fed(repos)
    r = route_members(fed, "refresh the session token", limit=3)
    assert r.routes[0].repo == "auth"
    assert "content evidence from the best 1 of 3 repositories by vocabulary" in r.notes
    assert all(not x.content_share for x in r.routes[1:])  # the others were not searched
    # No profile holds "backoff" (only billing's code does): the vocabulary still picks the one to ask.
    kept = route_members(fed, "with backoff")
    assert [x.repo for x in kept.routes] == ["billing"]
    assert "content evidence from the best 1 of 3 repositories by vocabulary" in kept.notes
    # An index that cannot report its statistics is asked too: its search says why it failed.
    real = routing.idf_stats_one
    monkeypatch.setattr(
        routing,
        "idf_stats_one",
        lambda engine, terms, field: None if engine.args == ("web",) else real(engine, terms, field),
    )
    assert routing.content_candidates(
        fed, "with backoff", route_members(fed, "x", content=False), list(repos)
    ) == [
        "billing",
        "web",
    ]
    monkeypatch.setattr(routing, "idf_stats_one", real)
    # Words no index and no profile holds: nothing to choose by, so every repository is asked.
    assert (
        routing.content_candidates(
            fed, "xqzvbn qwfpgj", route_members(fed, "xqzvbn", content=False), list(repos)
        )
        is None
    )


def test_a_route_that_asked_only_some_repositories_says_so_as_a_note_not_a_warning(
    repos: dict[str, Path], xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from cli.console import Env
    from cli.wscmd import render_workspace, route_command
    from indexlib.workspace import routing

    monkeypatch.setattr(routing, "CONTENT_CANDIDATES", 1)
    config.workspace_add("team", [repos[n] for n in REPOS])
    values = {"workspace": "team", "index_dir": None, "profile_only": False, "mode": "lexical", "model": None}
    out, err = io.StringIO(), io.StringIO()
    assert route_command(Env(stdout=out, stderr=err), "refresh the session token", values, 3, False) == 0
    assert err.getvalue() == "qry: note: content evidence from the best 1 of 3 repositories by vocabulary\n"
    assert out.getvalue().startswith("auth\t")
    fed = _fed(repos)
    result = routed_search(fed, "refresh the session token", SearchRequest(top_k=3, mode="lexical"))
    result.meta.notes.append("route: billing: no content evidence: index is damaged")
    err = io.StringIO()
    render_workspace(Env(stdout=io.StringIO(), stderr=err), result, fmt="text")
    assert (
        "qry: note: route: content evidence from the best 1 of 3 repositories by vocabulary\n"
        in err.getvalue()
    )
    assert "qry: warning: route: billing: no content evidence: index is damaged\n" in err.getvalue()
    assert routing.is_routing_info("route: content evidence from the best 1 of 3 repositories by vocabulary")
    assert not routing.is_routing_info("billing: not routed: index is damaged")


def test_a_listing_over_a_workspace_keeps_each_repository_in_file_order(repos: dict[str, Path]) -> None:
    """Filters alone over several indexes: each repository's listing in workspace order, as a code
    host groups a filter's matches by repository, not interleaved by rank (a listing has none)."""
    res = _fed(repos).search("kind:function", SearchRequest(top_k=20))
    got = [(h.repo, h.path, h.symbol) for h in res.results]
    assert got == [
        ("billing", "billing/retry.py", "retry_failed_charge"),
        ("billing", "billing/retry.py", "charge_card"),
        ("auth", "auth/session.go", "RefreshToken"),
        ("web", "web/render.py", "render_page"),
        ("web", "web/render.py", "retry_render"),
    ], got
    assert [a.ok for a in res.meta.indexes] == [True, True, True]
    newest = _fed(repos).search("lang:python", SearchRequest(top_k=20, since="2000-01-01"))
    times = [h.last_changed or 0 for h in newest.results]
    assert {h.repo for h in newest.results} == {"billing", "web"} and times == sorted(times, reverse=True)
