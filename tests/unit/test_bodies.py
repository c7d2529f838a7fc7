"""A declaration folds into its body on a ranked page (retrieval/bodies.py)."""

from __future__ import annotations

from indexlib.records import Node, Provenance
from indexlib.retrieval.bodies import fold_declarations
from indexlib.retrieval.fusion import Candidate

_NODES: dict[int, Node] = {}


def cand(
    uid: int,
    score: float,
    qualified: str,
    path: str,
    *,
    prototype: bool = False,
    kind: str = "function",
    signature: str = "void f()",
    language: str = "cpp",
) -> Candidate:
    _NODES[uid] = Node(
        uid=uid,
        content_hash=0,
        path=path,
        language=language,
        kind=kind,
        name=qualified.rsplit(".", 1)[-1],
        qualified_name=qualified,
        signature=signature,
        start_line=uid * 10,
        end_line=uid * 10 + 1,
        start_byte=0,
        end_byte=1,
        text=signature + (";" if prototype else " {}"),
    )
    return Candidate(
        uid=uid,
        score=score,
        provenance=Provenance(),
        path=path,
        kind=kind,
        name=qualified.rsplit(".", 1)[-1],
        qualified_name=qualified,
        prototype=prototype,
    )


def fold(page: list[Candidate]) -> list[int]:
    return [c.uid for c in fold_declarations(page, _NODES.get)]


def test_a_header_declaration_and_its_out_of_line_body_are_one_hit_at_the_better_place() -> None:
    # spdlog: `logger.h`'s in-class `void set_level(..);` and `logger-inl.h`'s `logger::set_level`.
    sig = "void set_level(level::level_enum log_level)"
    page = [
        cand(
            1,
            0.9,
            "spdlog.logger.set_level",
            "include/logger.h",
            prototype=True,
            kind="method",
            signature=sig,
        ),
        cand(2, 0.5, "other", "src/o.cpp"),
        cand(3, 0.4, "spdlog::logger::set_level", "include/logger-inl.h", kind="method", signature=sig),
    ]
    out = fold_declarations(page, _NODES.get)
    assert [c.uid for c in out] == [3, 2]
    assert out[0].score == 0.9
    assert "its declaration at include/logger.h:10 folded into it" in out[0].explain
    body_first = [
        cand(3, 0.9, "parse", "src/p.c"),
        cand(4, 0.5, "x", "a.c"),
        cand(1, 0.4, "parse", "p.h", prototype=True),
    ]
    assert fold(body_first) == [3, 4]  # a C function is one symbol across files


def test_overloads_and_other_things_of_the_name_stay_apart() -> None:
    page = [
        cand(
            1,
            0.9,
            "logger.log",
            "logger.h",
            prototype=True,
            kind="method",
            signature="void log(string_view_t msg)",
        ),
        cand(
            2,
            0.5,
            "logger.log",
            "logger-inl.h",
            kind="method",
            signature="void log(source_loc l, string_view_t m)",
        ),
    ]
    assert fold(page) == [2, 1]  # one parameter and two: two overloads, both kept, the body first
    other_family = [
        cand(1, 0.9, "parse", "p.h", prototype=True),
        cand(2, 0.5, "parse", "p.py", language="python"),
    ]
    assert fold(other_family) == [2, 1]
    a_type = [cand(1, 0.9, "Parse", "a.h", prototype=True), cand(2, 0.5, "Parse", "a.c", kind="class")]
    assert fold(a_type) == [1, 2]  # a class of the name is no body of it
    alone = [cand(1, 0.9, "parse", "p.h", prototype=True), cand(2, 0.5, "parser", "p.c")]
    assert fold(alone) == [1, 2]


def test_a_bare_typescript_name_folds_only_into_the_code_its_declaration_file_declares() -> None:
    sig = "function walk(root, options)"
    ts = {"language": "typescript", "signature": sig, "prototype": True}
    elsewhere = [cand(1, 0.9, "walk", "packages/global.d.ts", **ts), cand(2, 0.5, "walk", "src/children.ts", signature=sig, language="typescript")]  # fmt: skip
    assert fold(elsewhere) == [2, 1]  # a module's own `walk` is not the one a global.d.ts declares
    beside = [cand(1, 0.9, "walk", "lib/index.d.ts", **ts), cand(2, 0.5, "walk", "lib/index.js", signature=sig, language="javascript")]  # fmt: skip
    assert fold(beside) == [2]
    member = [cand(1, 0.9, "Command.error", "typings/index.d.ts", **ts), cand(2, 0.5, "Command.error", "lib/command.js", signature=sig, language="javascript")]  # fmt: skip
    assert fold(member) == [2]
