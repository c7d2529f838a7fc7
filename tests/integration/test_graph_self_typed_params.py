"""A parameter typed `Self` (Rust's `router: Self`, `other: &Self`; Python's `other: Self`) holds the
class the method is in (graph/locals.py `LocalTypes._local`): on tokio-rs/axum `qry related
Router.nest --callees` lacked `Router.into_inner` for `router.into_inner()` with `router: Self`,
while `router: Router` linked it; `Self` was read as a class of that name, which none is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.repokit import calls, make_repo

# Each: the method `Router.nest`, calling `into_inner` on a parameter typed `Self`, beside another
# class's `into_inner`, which a guess by name would list too.
CASES = {
    "src/lib.rs": "pub struct Router;\n\nimpl Router {\n    fn into_inner(self) -> u32 {\n        1\n    }\n\n"
    "    pub fn nest(self, router: Self) -> u32 {\n        router.into_inner()\n    }\n\n"
    "    pub fn eq(&self, other: &Self) -> u32 {\n        other.into_inner()\n    }\n}\n\n"
    "pub struct Other;\n\nimpl Other {\n    fn into_inner(self) -> u32 {\n        2\n    }\n}\n",
    "m.py": "from typing import Self\n\n\nclass Router:\n    def into_inner(self):\n        return 1\n\n"
    "    def nest(self, router: Self):\n        return router.into_inner()\n\n\n"
    "class Other:\n    def into_inner(self):\n        return 2\n",
}


@pytest.mark.parametrize(
    ("path", "method"), [("m.py", "Router.nest"), ("src/lib.rs", "Router.nest"), ("src/lib.rs", "Router.eq")]
)
def test_a_call_on_a_self_typed_parameter_is_the_own_classs(tmp_path: Path, path: str, method: str) -> None:
    repo = make_repo(tmp_path, {path: CASES[path]})
    assert calls(repo, method) == [("Router.into_inner", False)]
