"""A name the query's filters leave out of reach says where it is defined (retrieval/notes.py):
`cJSON_Minify path:cJSON_Utils.c` said "no definition named 'cJSON_Minify'", though cJSON.c has it."""

from __future__ import annotations

from pathlib import Path

from indexlib import SearchOptions, open_engine
from tests.repokit import make_repo

_FILES = {
    "src/json.c": "void json_minify(char *json) {\n    char *into = json;\n    *into = 0;\n}\n",
    "src/utils.c": "void json_patch(char *json) {\n    /* json minify first */\n    json[0] = 0;\n}\n",
}


def test_a_definition_outside_the_filters_is_named_in_the_note(tmp_path: Path) -> None:
    engine = open_engine(make_repo(tmp_path, _FILES) / ".qry")
    res = engine.search("json_minify", SearchOptions(paths=["src/utils.c"], mode="lexical"))
    assert (
        "no definition named 'json_minify' within the filters; it is defined at src/json.c:1"
        in res.meta.notes
    )
    res = engine.search("json_minify", SearchOptions(mode="lexical"))
    assert not [n for n in res.meta.notes if "no definition" in n]
    res = engine.search("json_unknown", SearchOptions(paths=["src/utils.c"], mode="lexical"))
    assert not [n for n in res.meta.notes if "within the filters" in n]
