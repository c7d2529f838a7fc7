"""PHP's name resolution rules (graph/phpnames.py), read from the text alone."""

from __future__ import annotations

from indexlib.graph.phpnames import expand, keywords, names_a_class
from indexlib.records import Ref, RefKind


def _use(target: str, alias: str) -> Ref:
    return Ref(src_uid=1, kind=RefKind.IMPORTS.value, target=target, line=1, alias=alias)


USES = [_use("GuzzleHttp.Utils", "Utils"), _use("GuzzleHttp.Promise", "P"), _use("App.helper", "helper")]


def test_class_names_resolve_through_imports_else_the_current_namespace() -> None:
    ns = "GuzzleHttp.Handler"
    assert expand("Utils", ns, USES) == ["guzzlehttp.utils"]  # `use GuzzleHttp\Utils;`
    assert expand("utils", ns, USES) == ["guzzlehttp.utils"]  # case aside, as PHP compares
    assert expand("P.Create", ns, USES) == ["guzzlehttp.promise.create"]  # `P\Create` through `as P`
    assert expand("CurlFactory", ns, USES) == ["guzzlehttp.handler.curlfactory"]  # the own namespace
    assert expand("Sub.Thing", ns, USES) == ["guzzlehttp.handler.sub.thing"]  # relative, not imported
    assert expand("\\Psr.Log.Logger", ns, USES) == ["psr.log.logger"]  # fully qualified
    assert expand("namespace.Local", ns, USES) == ["guzzlehttp.handler.local"]
    assert expand("Utils", "", []) == ["utils"]  # no namespace: the global one


def test_an_unqualified_function_falls_back_to_the_global_one() -> None:
    assert expand("helper", "App.Http", USES, function=True) == ["app.helper"]  # `use function`
    assert expand("format", "App.Http", USES, function=True) == ["app.http.format", "format"]
    assert expand("\\strlen", "App.Http", USES, function=True) == ["strlen"]


def test_own_class_words_and_variables_are_left_to_the_resolver() -> None:
    assert keywords("static") == "self" and keywords("parent") == "super" and keywords("Utils") == "Utils"
    assert names_a_class("Utils", absolute=False) and names_a_class("GuzzleHttp.Utils", absolute=True)
    assert not names_a_class("client", absolute=False)  # `$client->send()`: a variable
    assert not names_a_class("this", absolute=False) and not names_a_class("self", absolute=False)
