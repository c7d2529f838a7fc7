"""qry on a local Ray instance (2 CPUs): Ray-parsed builds, actor-served workspaces, the actor-kill case.

Needs the [cluster] extra (Ray); skipped without it. One Ray instance serves the whole module.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")

from indexlib import BuildOptions, Federation, Member, SearchRequest, Store, build_index, open_engine  # noqa: E402
from indexlib.cluster.connect import connect  # noqa: E402
from indexlib.cluster.http import make_server, remote_search, serve_in_thread  # noqa: E402
from indexlib.cluster.raybuild import cluster_build, ray_parse_map  # noqa: E402
from indexlib.cluster.serve import ClusterWorkspace  # noqa: E402
from indexlib.errors import UsageError  # noqa: E402
from tests.cli.clikit import run_qry_process  # noqa: E402
from tests.integration.test_workspace import REPOS, _make  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    yield connect("local:2")
    ray.shutdown()


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> list[Member]:
    root = tmp_path_factory.mktemp("cluster-ws")
    return [Member(name, _make(root, name) / ".qry") for name in REPOS]


HANG_S = 60  # a command that has not answered by then hangs (Ray retries for minutes)


def _norm(store: Path) -> Any:
    _rid, m = Store.open(store).load()
    return [s.id for s in m.segments], m.files, m.tombstones, m.skipped, m.settings


def test_a_build_parsed_by_ray_tasks_equals_a_local_build(local_ray: Any, tmp_path: Path) -> None:
    src = tmp_path / "poly"
    shutil.copytree(FIXTURES / "polyglot", src)
    opts = {"embed": "none", "git_times": False}
    build_index(src, BuildOptions(index_dir=tmp_path / "local", **opts))
    report = cluster_build(src, "local:2", BuildOptions(index_dir=tmp_path / "ray", **opts))
    assert report.published and report.files > 10
    # the trial: the summary's time left out Ray's start-up ("in 2.46 s" of an 8 s command)
    assert "cluster_connect" in report.timings and report.elapsed >= report.timings["cluster_connect"]
    # The same content-addressed segments, the same files, the same nodes: only publish times differ
    # (and Tantivy's own file bytes, which differ between any two builds, local ones included).
    assert _norm(tmp_path / "ray") == _norm(tmp_path / "local")
    for q in ("retry_failed_charge", "parse config", "Server"):
        a = open_engine(tmp_path / "local").search(q, SearchRequest(top_k=20))
        b = open_engine(tmp_path / "ray").search(q, SearchRequest(top_k=20))
        assert [(h.uid, h.score) for h in a.results] == [(h.uid, h.score) for h in b.results]


def test_a_parse_task_whose_worker_dies_is_retried(local_ray: Any, tmp_path: Path) -> None:
    marker = tmp_path / "died-once"

    class DiesOnce:
        def __call__(self, job: int) -> bytes:
            if job == 3 and not marker.exists():
                marker.write_text("x")
                os._exit(1)  # the worker process dies mid-task
            return str(job * 2).encode()

    out = list(ray_parse_map(local_ray)(DiesOnce(), list(range(40))))
    assert marker.exists() and out == [str(j * 2).encode() for j in range(40)]


def _vectors(index: Path) -> dict[int, Any]:
    import numpy as np

    engine = open_engine(index)
    snap = engine.snapshot()
    assert snap.manifest.model is not None
    out: dict[int, Any] = {}
    for seg in snap.segments:
        vs = seg.vectors(snap.manifest.model.model_id)
        assert vs is not None
        out.update({int(u): np.asarray(vs.vector(int(u)), dtype=np.float32) for u in vs._keys})
    return out


@pytest.mark.parametrize("embed", ["hash", "onnx"])
def test_a_build_embedded_by_ray_actors_equals_a_local_build(
    local_ray: Any, tmp_path: Path, embed: str
) -> None:
    import numpy as np

    src = tmp_path / "poly"
    shutil.copytree(FIXTURES / "polyglot", src)
    # no user-level cache: each build embeds every text itself
    opts = {"embed": embed, "git_times": False, "shared_cache": False}
    local = build_index(src, BuildOptions(index_dir=tmp_path / "local", **opts))
    report = cluster_build(src, "local:2", BuildOptions(index_dir=tmp_path / "ray", **opts))
    assert report.embedded == local.embedded > 20 and report.vectors_root == report.root_id
    assert _norm(tmp_path / "ray") == _norm(tmp_path / "local")
    here, there = _vectors(tmp_path / "local"), _vectors(tmp_path / "ray")
    assert sorted(here) == sorted(there)
    worst = min(float(np.dot(here[u], there[u])) for u in here)
    # the same chunks on the same one-thread model: equal vectors (a local build's prefetch may cut
    # batches differently, which moves the model's last bits only)
    assert worst > 0.9999 if embed == "onnx" else worst == pytest.approx(1.0)
    q = SearchRequest(top_k=10, mode="semantic")
    a = open_engine(tmp_path / "local").search("retry a failed charge", q)
    b = open_engine(tmp_path / "ray").search("retry a failed charge", q)
    assert a.results and [h.uid for h in a.results] == [h.uid for h in b.results]


def test_an_embedding_actor_that_dies_is_restarted_and_its_call_retried(
    local_ray: Any, tmp_path: Path
) -> None:
    from indexlib.cluster.rayembed import RayEmbedder
    from indexlib.embedding import HashEmbedder

    marker = tmp_path / "died-once"

    class DiesOnce(HashEmbedder):
        def embed(self, texts: Any) -> Any:
            if not marker.exists():
                marker.write_text("x")
                os._exit(1)  # the actor's process dies mid-call
            return super().embed(texts)

    texts = [f"retry charge number {i}" for i in range(100)]
    embedder = RayEmbedder(local_ray, HashEmbedder(), DiesOnce, actors=2)
    try:
        got = embedder.embed(texts)
    finally:
        embedder.close()
    assert marker.exists() and (got == HashEmbedder().embed(texts)).all()


def test_a_model_that_cannot_load_on_the_cluster_is_an_error_not_a_traceback(local_ray: Any) -> None:
    from indexlib.cluster.rayembed import RayEmbedder
    from indexlib.embedding import HashEmbedder
    from indexlib.errors import ModelError, QryError

    def no_model() -> Any:
        raise ModelError("no model at /nowhere/model.onnx", hint="x")

    embedder = RayEmbedder(local_ray, HashEmbedder(), no_model, actors=1)
    try:
        with pytest.raises(QryError, match=r"could not run on the cluster: .*no model at /nowhere") as err:
            embedder.embed(["retry a failed charge"])
    finally:
        embedder.close()
    assert err.value.code == "cluster" and "same path on every node" in str(err.value.hint)


def test_a_cluster_build_refuses_to_embed_in_the_background(tmp_path: Path) -> None:
    src = tmp_path / "poly"
    shutil.copytree(FIXTURES / "polyglot", src)
    opts = BuildOptions(embed="hash", background=True)
    with pytest.raises(UsageError, match="--background cannot go with --cluster"):
        build_index(src, opts, embedder=lambda _o: None)
    with pytest.raises(UsageError, match="--background cannot go with --cluster"):
        cluster_build(src, "no-such-host:1", opts)  # refused before any cluster is reached
    assert not (src / ".qry").exists()


def test_a_cluster_query_over_three_indexes_equals_the_local_merge(
    local_ray: Any, three: list[Member]
) -> None:
    service = ClusterWorkspace("local:2", "three", three)
    local = Federation("three", three)
    for q in ("render", "RefreshToken", "retry failed charge", "page template"):
        opts = SearchRequest(top_k=8)
        got = service.search(q, opts)
        want = local.search(q, opts)
        assert [(h.repo, h.uid, h.score) for h in got.results] == [
            (h.repo, h.uid, h.score) for h in want.results
        ]
        assert not got.meta.partial and len(got.meta.indexes) == 3
    for workspace in (service, local):  # an unknown merge is refused the same way by both
        with pytest.raises(UsageError, match="unknown merge 'nope'"):
            workspace.search("render", SearchRequest(top_k=8), merge="nope")


def test_a_dead_actor_gives_partial_results_and_is_restarted(local_ray: Any, three: list[Member]) -> None:
    service = ClusterWorkspace("local:2", "three", three)
    before = service.actor_pids()
    local_ray.kill(service.actors["auth"], no_restart=False)
    res = service.search("RefreshToken render", SearchRequest(top_k=8))
    dead = next(a for a in res.meta.indexes if a.repo == "auth")
    assert res.meta.partial and not dead.ok and "restarted" in str(dead.error)
    assert res.results and "auth" not in {h.repo for h in res.results}
    deadline = time.monotonic() + 60
    while True:
        again = service.search("RefreshToken render", SearchRequest(top_k=8))
        if not again.meta.partial or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert not again.meta.partial and "auth" in {h.repo for h in again.results}
    assert service.actor_pids()["auth"] != before["auth"]


def test_http_server_and_qry_search_server(local_ray: Any, three: list[Member], tmp_path: Path) -> None:
    service = ClusterWorkspace("local:2", "three", three)
    server = make_server(service, "127.0.0.1", 0)
    serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        opts = SearchRequest(top_k=5)
        over_http = remote_search(url, "RefreshToken", opts)
        direct = service.search("RefreshToken", opts)
        assert [(h.repo, h.uid) for h in over_http.results] == [(h.repo, h.uid) for h in direct.results]
        cli = run_qry_process("search", "RefreshToken", "--server", url, "--json", cwd=tmp_path)
        assert cli.code == 0 and json.loads(cli.out)["results"][0]["repo"] == "auth", cli.describe()
        routed = run_qry_process(
            "search", "refresh session token", "--server", url, "--route", "--json", cwd=tmp_path
        )
        assert json.loads(routed.out)["meta"]["routed"] == ["auth"], routed.describe()
        # repo filters reach the server (in the text and as --repo) and pick the actors it asks
        picked = run_qry_process(
            "search", "retry -repo:billing", "--server", url, "--repo", "b|w", "--json", cwd=tmp_path
        )
        asked = [a["repo"] for a in json.loads(picked.out)["meta"]["indexes"]]
        assert picked.code == 0 and asked == ["web"], picked.describe()
        from cli.mcp_tools import QryTools

        agent = QryTools(three[0].index, server=url).search("RefreshToken", top_k=3)  # qry mcp --server
        assert agent["results"][0]["repo"] == "auth" and agent["meta"]["workspace"] == "three"
        none = run_qry_process("search", "retry repo:nothing", "--server", url, cwd=tmp_path)
        assert none.code == 2 and "no repository of workspace 'three'" in none.err, none.describe()
        # -l -k N: the N best files, as a local workspace search gives them (the trial: the server
        # was not told per_file, so two hits in one file gave one path)
        files = run_qry_process(
            "search", "retry charge render", "--server", url, "-l", "-k", "3", cwd=tmp_path
        )
        local = run_qry_process(
            "search", "retry charge render", *(a for m in three for a in ("--index-dir", str(m.index))),
            "-l", "-k", "3", cwd=tmp_path,
        )  # fmt: skip
        assert files.code == 0 and len(files.out.splitlines()) == 3, files.describe()
        assert [x.split(":", 1)[1] for x in files.out.splitlines()] == [
            x.split(":", 1)[1] for x in local.out.splitlines()
        ], (files.describe(), local.describe())
        bad = run_qry_process("search", "x", "--server", url, "--top-k", "0", cwd=tmp_path)
        assert bad.code == 2 and bad.err.startswith("qry: error:"), bad.describe()
    finally:
        server.shutdown()
        server.server_close()
    gone = run_qry_process("search", "x", "--server", url, cwd=tmp_path)
    assert gone.code == 2 and "cannot reach" in gone.err, gone.describe()


def test_an_unreachable_cluster_address_is_an_error_at_once(three: list[Member], tmp_path: Path) -> None:
    """The trial: `qry serve -w w --cluster nohost:1` (or `127.0.0.1:1`, nothing listening) said
    nothing for over ten minutes: Ray retries its GCS connection 20 times, about 35 s each, printing
    only its own C++ warnings. An address nothing answers at is an error within seconds."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    folders = [str(m.index.parent) for m in three]
    assert run_qry_process("workspace", "add", "t", *folders, cwd=tmp_path, env=env).code == 0
    for address in ("127.0.0.1:1", "nohost.invalid:6379", "ray://127.0.0.1:1"):
        for args in (("serve", "-w", "t", "--port", "0"), ("index", folders[0], "--embed", "none")):
            # a hang (Ray's ten minutes of retries) ends the run: TimeoutExpired fails the test
            r = run_qry_process(*args, "--cluster", address, cwd=tmp_path, env=env, timeout=HANG_S)
            assert r.code == 2, r.describe()
            assert r.err.startswith(f"qry: error: cannot reach the Ray cluster at '{address}'"), r.describe()
            assert "gcs_client" not in r.err and "Traceback" not in r.err, r.describe()


def test_a_local_cluster_is_a_new_instance_whatever_ray_address_says(tmp_path: Path) -> None:
    """The trial: `--cluster local:2` on a machine where `ray start --head` had run failed with Ray's
    "When connecting to an existing cluster, num_cpus and num_gpus must not be provided": without
    an address Ray joins the cluster it finds (its session file, RAY_ADDRESS) instead of starting one."""
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "a.py").write_text("def f():\n    return 1\n")
    r = run_qry_process(
        "index", "repo", "--embed", "none", "--cluster", "local:1", "--json",
        cwd=tmp_path, env={"RAY_ADDRESS": "127.0.0.1:1"}, timeout=120,
    )  # fmt: skip
    assert r.code == 0, r.describe()
    out = json.loads(r.out)
    assert out["published"] and out["nodes_total"] == 1 and "cluster_connect" in out["timings"], r.describe()


def test_an_address_where_something_else_listens_is_an_error_at_once(tmp_path: Path) -> None:
    """The trial: `--cluster HOST:PORT` where a web server listens hung in `ray.init` for minutes
    (the TCP connect succeeds; Ray then waits on a gRPC handshake that never comes)."""
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "a.py").write_text("def f():\n    return 1\n")
    try:
        address = f"127.0.0.1:{server.server_address[1]}"
        r = run_qry_process(  # a hang in Ray's handshake ends the run: TimeoutExpired fails the test
            "index", "repo", "--embed", "none", "--cluster", address, cwd=tmp_path, timeout=HANG_S
        )
        assert r.code == 2, r.describe()
        assert "not a Ray head node" in r.err and "Traceback" not in r.err, r.describe()
        assert not (tmp_path / "repo" / ".qry").exists(), "a refused build published nothing"
    finally:
        server.shutdown()
        server.server_close()


def test_sigterm_stops_qry_serve_as_an_exit_not_a_crash(three: list[Member], tmp_path: Path) -> None:
    """The trial: `kill PID` (as systemd or docker stop it) of `qry serve` printed Ray's six-line
    `*** SIGTERM received ... PC: @ ... __poll` dump, which reads as a crash; it exits with 143, quietly."""
    import signal
    import subprocess
    import sys

    from tests.cli.clikit import cli_env

    env = cli_env({"XDG_CONFIG_HOME": str(tmp_path / "cfg")})
    folders = [str(m.index.parent) for m in three]
    assert run_qry_process("workspace", "add", "t", *folders, cwd=tmp_path, env=env).code == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "-w", "t", "--cluster", "local:1", "--port", "0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()  # said once the server listens
        assert "qry serve: workspace t" in first, first
        proc.send_signal(signal.SIGTERM)
        rest = proc.stderr.read()
        assert proc.wait(60) == 143 and "SIGTERM received" not in rest and "Traceback" not in rest, rest
    finally:
        if proc.poll() is None:
            proc.kill()


def test_ctrl_c_with_embedding_calls_in_flight_prints_nothing_from_ray(
    local_ray: Any, capfd: pytest.CaptureFixture[str]
) -> None:
    """The trial: Ctrl-C during `qry index --cluster local` printed `qry: interrupted`, then on stdout
    (in colour, into a file too) `(raylet) Task _ModelHolder.embed failed. There are 3 retries
    remaining ... killed by ray.kill` per queued call: close() killed actors with calls in flight.
    Closed while a KeyboardInterrupt unwinds, the embedder ends the Ray connection instead. Runs
    last in the module: it reconnects for the fixture's shutdown."""
    import signal
    import threading

    from indexlib.cluster.rayembed import RayEmbedder
    from indexlib.embedding import HashEmbedder

    class Slow(HashEmbedder):
        def embed(self, texts: Any) -> Any:
            time.sleep(2)
            return super().embed(texts)

    texts = [f"retry charge number {i} " * 40 for i in range(400)]  # many chunks: calls queue up
    embedder = RayEmbedder(local_ray, HashEmbedder(), Slow, actors=2)
    timer = threading.Timer(4.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            try:
                embedder.embed(texts)
            finally:
                embedder.close()
        time.sleep(3)  # Ray's error listener prints what it is told within about a second
        out, err = capfd.readouterr()
        assert "raylet" not in out + err and "retries remaining" not in out + err, out + err
    finally:
        timer.cancel()
        connect("local:2")
