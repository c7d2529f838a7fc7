"""Connecting to Ray: the one place that imports it, and the meaning of `--cluster ADDRESS`.

ADDRESS is `local` (start a Ray instance on this machine with every core), `local:N` (with N CPUs,
how the tests and the benchmark pin the worker count), or anything `ray.init(address=...)` accepts:
`auto`, `HOST:PORT` of a running head node, or `ray://HOST:10001` for a Ray client.
"""

from __future__ import annotations

from typing import Any

from indexlib.errors import QryError, UsageError

OBJECT_STORE_BYTES = 200 * 1024 * 1024  # a local instance's object store: parse results are small
HINT = "pip install 'qry-search[cluster]' (Ray), or leave out --cluster to run on this machine alone"
UNREACHABLE_HINT = (
    "start one (ray start --head) or use --cluster local; a cluster with token "
    "authentication needs its token in ~/.ray/auth_token or RAY_AUTH_TOKEN"
)
REACH_TIMEOUT_S = 5.0  # a head node on any network answers a TCP connect well within this


def ray_module() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise QryError("--cluster needs Ray, which is not installed", hint=HINT, code="dependency") from exc
    return ray


def _use_token_if_there() -> None:
    """Send Ray's auth token when there is one and the environment does not say otherwise.

    `ray start --head` enables token authentication by default (Ray 2.59 on) and writes the token
    to ~/.ray/auth_token, but a driver joining by address sends it only under RAY_AUTH_MODE=token;
    without it the connection fails after Ray's 20 s of retries with no word of authentication. A
    token-mode driver also joins a cluster that has authentication off, so a token found is used."""
    import os
    from pathlib import Path

    if os.environ.get("RAY_AUTH_MODE"):
        return
    has_token = os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
    if has_token or (Path.home() / ".ray" / "auth_token").is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


def _local_cpus(address: str) -> int | None:
    """The N of `local:N` (None for `local`: every core); UsageError for a count no Ray can use."""
    cpus = address.partition(":")[2]
    if not cpus:
        return None
    if not cpus.isdigit() or int(cpus) < 1:
        raise UsageError(
            f"bad CPU count in {address!r}: a local cluster needs at least one CPU to run anything",
            hint="e.g. --cluster local:2",
        )
    return int(cpus)


def _quiet_sigterm() -> None:
    """SIGTERM (systemd's or docker's stop, `kill`) ends this process as an exit, not as a crash.

    Ray's driver installs a handler that prints a six-line stack dump (`*** SIGTERM received ...`)
    before dying, so every stop of `qry serve` read as a crash. SIGTERM instead raises SystemExit
    with the shell's status for it (128 + 15) in the main thread: `finally` blocks run and Ray shuts
    down at exit, as after Ctrl-C. Only from the main thread, where Python may set handlers."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def stop(_signum: int, _frame: object) -> None:
        raise SystemExit(128 + signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)


def _check_reachable(address: str) -> None:
    """A QryError, within seconds, when nothing accepts a connection at HOST:PORT (or
    ray://HOST:PORT): `ray.init` would retry its GCS connection 20 times, about 35 s each, more
    than ten minutes with only Ray's own C++ warnings on stderr. `auto` (and anything without a
    port) is left to Ray, which answers it at once."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S) as conn:
            speaks = _speaks_grpc(conn)
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise QryError(
            f"cannot reach the Ray cluster at {address!r}: {why}", hint=UNREACHABLE_HINT, code="cluster"
        ) from None
    if not speaks:
        raise QryError(
            f"cannot reach the Ray cluster at {address!r}: something listens there, but it is not a Ray "
            "head node (it does not answer gRPC)",
            hint="give the address `ray start --head` printed (HOST:6379 by default), or ray://HOST:10001 for a Ray client",
            code="cluster",
        )


def _speaks_grpc(conn: Any) -> bool:
    """Whether the peer on `conn` answers an HTTP/2 connection preface with a SETTINGS frame, as
    every gRPC server does at once (a Ray head's GCS and a Ray client server both are one).

    Something else listening at the address (a web server, a database) accepts the TCP connection,
    and `ray.init` then waits on its handshake for minutes. A cluster with TLS on (RAY_USE_TLS)
    expects a TLS hello instead, so it is not probed."""
    import os

    if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
        return True
    conn.sendall(_H2_PREFACE + _H2_EMPTY_SETTINGS)
    head = b""
    try:
        while len(head) < 9:
            got = conn.recv(9 - len(head))
            if not got:
                break
            head += got
    except TimeoutError:
        return False
    return len(head) == 9 and head[3] == _H2_SETTINGS


_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_H2_SETTINGS = 0x4  # the frame type a server's first frame must have
_H2_EMPTY_SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"  # length 0, SETTINGS, no flags, stream 0


def connect(address: str) -> Any:
    """An initialised `ray` module connected to ADDRESS (reusing a connection this process already has).

    A cluster without a CPU is refused: every task and actor of qry asks for one, so it would wait
    for ever."""
    if not address.strip():
        raise UsageError(
            "--cluster needs an address", hint="e.g. --cluster local, --cluster auto, --cluster HOST:6379"
        )
    local = address == "local" or address.startswith("local:")
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
    if local:
        # "local" starts a new instance: without an address Ray joins one already running on the
        # machine (`ray start`, RAY_ADDRESS) and then refuses the CPU count.
        kwargs["address"] = "local"
        kwargs["num_cpus"] = _local_cpus(address)
        kwargs["object_store_memory"] = OBJECT_STORE_BYTES
    else:
        kwargs["address"] = address
        _use_token_if_there()  # read when Ray is first imported
    ray = ray_module()
    if ray.is_initialized():
        return ray
    if not local:
        _check_reachable(address)
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise QryError(
            f"cannot reach the Ray cluster at {address!r}: {exc}", hint=UNREACHABLE_HINT, code="cluster"
        ) from exc
    _quiet_sigterm()
    if ray.cluster_resources().get("CPU", 0) < 1:
        ray.shutdown()
        raise QryError(
            f"the Ray cluster at {address!r} has no CPU: qry's tasks and actors would wait for ever",
            hint="add a node with CPUs (ray start --address HEAD:PORT), or use --cluster local",
            code="cluster",
        )
    return ray
