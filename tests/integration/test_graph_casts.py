"""A local made by a cast or a type test holds the class it names (graph/casts.py, read by locals.py):
on MediatR `var handler = (RequestHandlerWrapper<TResponse>)_requestHandlers.GetOrAdd(..)` then
`handler.Handle(..)` linked to all 12 indexed `Handle` methods, ambiguous; on swift-argument-parser
`if var helpResult = result as? HelpCommand { helpResult.buildCommandStack(..) }` was a guess."""

from __future__ import annotations

from pathlib import Path

from indexlib.graph.locals import declared_classes
from tests.parsekit import text_node
from tests.repokit import calls, make_repo

CSHARP = {
    "src/Wrappers.cs": "namespace App;\n\npublic abstract class Wrapper<T>\n{\n"
    "    public abstract T Handle(object request);\n}\n\n"
    "public class Behavior\n{\n    public object Handle(object request) { return request; }\n}\n",
    "src/Mediator.cs": "namespace App;\n\npublic class Mediator\n{\n"
    "    public T Send<T>(object request, object pool)\n    {\n"
    "        var handler = (Wrapper<T>)pool;\n        return handler.Handle(request);\n    }\n\n"
    "    public object Publish(object request, object pool)\n    {\n"
    "        var behavior = pool as Behavior;\n        return behavior.Handle(request);\n    }\n}\n",
}
SWIFT = {
    "Sources/Help.swift": "struct HelpCommand {\n    mutating func buildStack() {}\n}\n\n"
    "struct Other {\n    mutating func buildStack() {}\n}\n",
    "Sources/Parser.swift": "struct Parser {\n    func parse(_ result: Any) {\n"
    "        if var help = result as? HelpCommand {\n            help.buildStack()\n        }\n    }\n\n"
    "    func each(_ result: Any) {\n        switch result {\n        case var help as HelpCommand:\n"
    "            help.buildStack()\n        default:\n            break\n        }\n    }\n}\n",
}


def test_a_csharp_local_made_by_a_cast_calls_the_casts_class(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, CSHARP)
    assert calls(repo, "App.Mediator.Send") == [("App.Wrapper.Handle", False)]
    assert calls(repo, "App.Mediator.Publish") == [("App.Behavior.Handle", False)]


def test_a_swift_local_bound_by_as_calls_the_casts_class(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, SWIFT)
    assert calls(repo, "Parser.parse") == [("HelpCommand.buildStack", False)]
    assert calls(repo, "Parser.each") == [("HelpCommand.buildStack", False)]


def _classes(language: str, text: str) -> dict[str, str]:
    return declared_classes(text_node(text, language=language))


def test_a_cast_is_read_only_when_it_is_the_whole_value() -> None:
    assert _classes("csharp", "var h = (Handler<T>) pool.Get(k);\nvar b = x as Behavior;\n") == {
        "h": "Handler",
        "b": "Behavior",
    }
    assert _classes("csharp", "var n = (Count) * 2;\nvar s = (Total);\nvar v = (x as Foo).Bar;\n") == {}
    assert _classes("java", "if (o instanceof Node n && n.ok()) {}\nvar t = (Token) next();\n") == {
        "n": "Node",
        "t": "Token",
    }
    assert _classes("swift", "guard let c = x as? Command.Type else { return }\nlet d = y as! Decoder\n") == {
        "c": "Command",
        "d": "Decoder",
    }
    assert _classes("swift", 'var v = (e.value as? A) ?? initial\nlet s = x as? String ?? ""\n') == {}
    assert _classes("kotlin", "val h = x as? Handler ?: return\nval n = (x as Int) + 1\n") == {"h": "Handler"}
    assert _classes("typescript", "const el = node as Element;\nconst k = key as const;\n") == {
        "el": "Element"
    }
