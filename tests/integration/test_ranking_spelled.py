"""An identifier no definition names is found where it is spelled whole, however long the node
(retrieval/streams.with_spelled): a class declaring a field `serviceMethodCache` ranked below every
short node holding `service` and `method`, and a search for the field never showed it."""

from __future__ import annotations

from pathlib import Path

from indexlib import SearchOptions, open_engine
from tests.repokit import make_repo

_FILLER = "".join(
    f"    Object step{i}(Object service, Object method) {{\n        return describe(service, method, {i});\n    }}\n\n"
    for i in range(60)
)
_FILES = {
    "src/Registry.java": "class Registry {\n"
    "    private final java.util.Map<String, Object> serviceMethodCache = new java.util.HashMap<>();\n\n"
    + _FILLER
    + "}\n",
    **{
        f"src/ServiceMethod{i}.java": f"class ServiceMethod{i} {{\n    Object method{i}(Object service) {{\n"
        "        return service;\n    }\n}\n"
        for i in range(50)
    },
}


def test_a_long_class_spelling_a_field_whole_is_among_the_answers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, _FILES)
    res = open_engine(repo / ".qry").search("serviceMethodCache", SearchOptions(top_k=5, mode="lexical"))
    assert [(h.symbol, h.path) for h in res.results][:1] == [("Registry", "src/Registry.java")]
