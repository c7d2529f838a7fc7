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


def connect(address: str) -> Any:
    """An initialised `ray` module connected to ADDRESS (reusing a connection this process already has)."""
    if not (address == "local" or address.startswith("local:")):
        _use_token_if_there()  # read when Ray is first imported
    ray = ray_module()
    if ray.is_initialized():
        return ray
    if not address.strip():
        raise UsageError(
            "--cluster needs an address", hint="e.g. --cluster local, --cluster auto, --cluster HOST:6379"
        )
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
    if address == "local" or address.startswith("local:"):
        cpus = address.partition(":")[2]
        if cpus and not cpus.isdigit():
            raise UsageError(f"bad CPU count in {address!r}", hint="e.g. --cluster local:2")
        kwargs["num_cpus"] = int(cpus) if cpus else None
        kwargs["object_store_memory"] = OBJECT_STORE_BYTES
    else:
        kwargs["address"] = address
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise QryError(
            f"cannot reach the Ray cluster at {address!r}: {exc}",
            hint="start one (ray start --head) or use --cluster local; a cluster with token "
            "authentication needs its token in ~/.ray/auth_token or RAY_AUTH_TOKEN",
            code="cluster",
        ) from exc
    return ray
