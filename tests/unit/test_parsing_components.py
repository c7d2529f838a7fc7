"""Vue and Svelte components: their `<script>` blocks are code, their templates the module's text.

A component's functions, props and imports are definitions and edges as in a `.ts` file, at the
component's own line numbers; the nodes carry the component's language (`lang:vue` finds them),
and calls between components and TypeScript modules resolve both ways.
"""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, SearchOptions, build_index, graph_query, open_engine, related
from indexlib.index.parsing import parse_file
from indexlib.index.parsing.languages import detect_language
from tests.parsekit import node, one, table

USER_CARD = b"""<template>
  <div class="card" @click="select">
    <Avatar :src="user.avatar" />
  </div>
</template>

<script setup lang="ts">
import Avatar from './Avatar.vue'
import { formatName } from './format'

/** Props of the card. */
interface Props { user: User; selected?: boolean }
const props = defineProps<Props>()

/**
 * Marks this user as the selected one.
 */
function select() {
  emit('select', formatName(props.user))
}
</script>

<style scoped>
.card { padding: 4px; }
</style>
"""

AVATAR = b"""<script>
export default {
  name: 'Avatar',
  methods: {
    /** Reloads the image. */
    reload() { this.loaded = false }
  }
}
</script>
<template><img :src="src" /></template>
"""

APP_SVELTE = b"""<script lang="ts">
  import { formatName } from './format'
  export let user
  function greet() { alert(formatName(user)) }
</script>

<button on:click={greet}>Hi {user.name}</button>
"""


def test_components_are_code() -> None:
    assert detect_language("src/components/UserCard.vue") == "vue"
    assert detect_language("src/routes/App.svelte") == "svelte"


def test_a_vue_component_script_is_parsed_at_its_own_lines() -> None:
    parsed = parse_file("src/UserCard.vue", USER_CARD, "vue")
    defs = table(parsed)
    assert defs["select"] == ("function", 15, 20, "")  # from its doc comment to its closing brace
    assert defs["Props"][:2] == ("interface", 11)
    assert defs["props"][0] == "constant"
    select = node(parsed, "select")
    assert select.doc == "Marks this user as the selected one." and select.language == "vue"
    assert "emit('select', formatName(props.user))" in select.text
    module = one(parsed, "module", "UserCard")
    assert '<div class="card" @click="select">' in module.text  # the template is the module's text
    assert ".card { padding: 4px; }" in module.text
    imports = {(r.target, r.alias) for r in parsed.refs if r.kind == "imports"}
    assert imports == {("./Avatar.vue", "Avatar"), ("./format", "formatName")}
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    calls = {(names[r.src_uid], r.target) for r in parsed.refs if r.kind == "calls"}
    assert ("select", "formatName") in calls


def test_an_options_api_component_and_a_svelte_one() -> None:
    avatar = parse_file("src/Avatar.vue", AVATAR, "vue")  # no `lang`: JavaScript
    reload = node(avatar, "reload")
    assert (reload.kind, reload.start_line, reload.doc) == ("function", 5, "Reloads the image.")
    app = parse_file("src/App.svelte", APP_SVELTE, "svelte")
    defs = table(app)
    assert defs["greet"][:2] == ("function", 4) and defs["user"][0] == "constant"
    assert node(app, "greet").language == "svelte"


def test_calls_resolve_between_components_and_modules(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "UserCard.vue").write_bytes(USER_CARD)
    (src / "Avatar.vue").write_bytes(AVATAR)
    (src / "App.svelte").write_bytes(APP_SVELTE)
    (src / "format.ts").write_text(
        "/** A user's display name. */\nexport function formatName(u: User): string {\n"
        "  return u.first + ' ' + u.last\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")
    res = related(engine, "formatName", callers=True, callees=False, depth=1)
    callers = {(r.symbol, r.path) for r in res.related if r.direction == "in"}
    assert callers == {("select", "src/UserCard.vue"), ("greet", "src/App.svelte")}
    # The template's `@click="select"` calls the script's `select`.
    handler = related(engine, "select", callers=True, callees=False, depth=1)
    assert {(r.symbol, r.line) for r in handler.related if r.direction == "in"} == {("UserCard", 2)}
    hits = engine.search("select lang:vue", SearchOptions(top_k=3)).results
    assert hits and (hits[0].path, hits[0].symbol) == ("src/UserCard.vue", "select")


def test_relative_imports_name_one_file(tmp_path: Path) -> None:
    """`import X from './X.vue'` is an edge to that component; `'../../app/utils'` to the one file it
    names from the importer's folder, not to every `utils` file or folder; a bare package name
    (`'vitepress/theme'`) to no file of a folder that happens to be called so."""
    files = {
        "src/client/theme/components/VPSidebar.vue": "<script setup>\nimport VPSidebarItem from "
        "'./VPSidebarItem.vue'\nimport { ensure } from '../../app/utils'\nimport Theme from "
        "'vitepress/theme'\n</script>\n<template>\n  <nav><VPSidebarItem :item=\"x\" /></nav>\n</template>\n",
        "src/client/theme/components/VPSidebarItem.vue": "<script setup>\nconst x = 1\n</script>\n",
        "src/client/app/utils.ts": "export function ensure() {}\n",
        "src/node/utils/fs.ts": "export function ensure() {}\n",
        "template/.vitepress/theme/index.ts": "export default {}\n",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")
    res = related(engine, "src/client/theme/components/VPSidebar.vue:1", callers=False, callees=True, depth=1)
    imports = {(r.path, r.ambiguous) for r in res.related if r.edge == "imports"}
    assert imports == {
        ("src/client/theme/components/VPSidebarItem.vue", False),
        ("src/client/app/utils.ts", False),
    }
    # The template's `<VPSidebarItem />` uses the component (a call), which its name finds.
    item = related(engine, "VPSidebarItem", callers=True, callees=False, depth=1)
    assert item.node is not None and item.node.path.endswith("VPSidebarItem.vue")
    uses = graph_query(engine, "MATCH (a)-[r:calls]->(b {name: 'VPSidebarItem'}) RETURN a.path, r.line", {})
    assert [tuple(row) for row in uses.rows] == [("src/client/theme/components/VPSidebar.vue", 7)]
