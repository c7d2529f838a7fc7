"""Java types as declarations write them (graph/locals.py): a nested class through its outer one
(`CallAdapter.Factory f`, `new Retrofit.Builder().baseUrl(u)`), and a class the index does not
hold (`MockWebServer server`), whose calls are none of the indexed code's same-named methods."""

from __future__ import annotations

from pathlib import Path

from tests.repokit import calls, make_repo

NESTED = {
    "src/Retrofit.java": "class Retrofit {\n    static final class Builder {\n"
    "        Builder baseUrl(String u) { return this; }\n        Retrofit build() { return null; }\n    }\n}\n",
    "src/Phone.java": "class Phone {\n    static final class Builder {\n"
    "        Builder baseUrl(String u) { return this; }\n        Phone build() { return null; }\n    }\n}\n",
    "src/CallAdapter.java": "interface CallAdapter {\n    abstract class Factory {\n"
    "        abstract CallAdapter get(String t);\n    }\n}\n",
    "src/Converter.java": "interface Converter {\n    abstract class Factory {\n"
    "        abstract Converter get(String t);\n    }\n}\n",
    "src/Main.java": "class Main {\n    private final CallAdapter.Factory factory = null;\n\n"
    '    Retrofit run() {\n        factory.get("t");\n'
    '        return new Retrofit.Builder().baseUrl("x").build();\n    }\n}\n',
}


def test_a_java_nested_class_written_through_its_outer_class_is_that_class(tmp_path: Path) -> None:
    """`CallAdapter.Factory factory` and `new Retrofit.Builder().baseUrl(u).build()` name the nested
    class: its `get`, `baseUrl` and `build`, not an ambiguous guess at every class's of the name."""
    repo = make_repo(tmp_path, NESTED)
    callees = [e for e in calls(repo, "Main.run") if e[0] != "Retrofit.Builder"]
    assert callees == [
        ("CallAdapter.Factory.get", False),
        ("Retrofit.Builder.baseUrl", False),
        ("Retrofit.Builder.build", False),
    ]


EXTERNAL = {
    "src/OkHttpCall.java": "class OkHttpCall {\n    void enqueue(String cb) {}\n}\n",
    "src/BehaviorCall.java": "class BehaviorCall {\n    void enqueue(String cb) {}\n}\n",
    "src/MainThreadExecutor.java": "import java.util.concurrent.Executor;\n\n"
    "class MainThreadExecutor implements Executor {\n    public void execute(Runnable r) {}\n}\n",
    "src/ServerTest.java": "import java.util.concurrent.Executor;\nimport okhttp3.mockwebserver.MockWebServer;\n\n"
    "class ServerTest {\n    private final MockWebServer server = new MockWebServer();\n\n"
    '    void run(Executor ex) {\n        server.enqueue("r");\n        ex.execute(null);\n    }\n\n'
    '    <T> void each(T item) {\n        item.enqueue("x");\n    }\n}\n',
    "src/KServerTest.kt": "import okhttp3.mockwebserver.MockWebServer\n\nclass KServerTest {\n"
    '    val server = MockWebServer()\n\n    fun run() {\n        server.enqueue("r")\n    }\n}\n',
}


def test_a_java_call_on_a_class_the_index_lacks_links_only_to_its_indexed_implementations(
    tmp_path: Path,
) -> None:
    """`server.enqueue(..)` on a `MockWebServer` (a library's) linked ambiguously to every indexed
    `enqueue`; now to none. `ex.execute(..)` on an `Executor` may reach the indexed class that
    implements it; a type parameter's calls stay a guess by name, as before."""
    repo = make_repo(tmp_path, EXTERNAL)
    assert calls(repo, "ServerTest.run") == [("MainThreadExecutor.execute", True)]
    assert calls(repo, "KServerTest.run") == []
    assert calls(repo, "ServerTest.each") == [("BehaviorCall.enqueue", True), ("OkHttpCall.enqueue", True)]
