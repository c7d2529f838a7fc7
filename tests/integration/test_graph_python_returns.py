"""A Python local made by a call is of the class the called definition's return annotation names
(graph/pymade.py): httpx's `decoder = self._get_content_decoder()` then `decoder.decode(raw)`."""

from __future__ import annotations

from pathlib import Path

from indexlib.graph.pymade import made_by_calls, returned
from tests.repokit import calls, make_repo

FILES = {
    "decoders.py": (
        "class ContentDecoder:\n    def decode(self, data):\n        raise NotImplementedError()\n\n"
        "class GZipDecoder(ContentDecoder):\n    def decode(self, data):\n        return data\n\n"
        "class TextDecoder:\n    def decode(self, data):\n        return data\n"
    ),
    "client.py": (
        "import typing\nfrom decoders import ContentDecoder, GZipDecoder\n\n"
        "class Response:\n    def read(self):\n        return b''\n\n"
        "class Client:\n    def send(self, request):\n        return Response()\n\n"
        "    def _decoder(self) -> ContentDecoder:\n        return GZipDecoder()\n\n"
        "    def _flow(self, request) -> typing.Generator[int, Response, None]:\n        yield request\n\n"
        "    async def fetch(self, url) -> 'Response | None':\n        return None\n\n"
        "    async def run(self, raw):\n"
        "        d = self._decoder()\n        d.decode(raw)\n"
        "        flow = self._flow(raw)\n        flow.send(raw)\n"
        "        got = await self.fetch(\n            raw,\n        )\n        got.read()\n\n"
        "def open_client() -> typing.Optional['Client']:\n    return Client()\n\n"
        "def main():\n    c = open_client()\n    c.send(1)\n"
    ),
}


def test_a_local_made_by_a_call_is_of_the_class_its_definition_returns(tmp_path: Path) -> None:
    """`d.decode()` was an ambiguous edge to every `decode`, `c.send()` after `c = open_client()`
    too; a `typing.Generator`'s `flow.send()` was a guess at `Client.send`, now no edge at all."""
    repo = make_repo(tmp_path, FILES)
    assert calls(repo, "Client.run") == [
        ("Client._decoder", False),
        ("Client._flow", False),
        ("Client.fetch", False),
        ("ContentDecoder.decode", False),
        ("Response.read", False),
    ]
    assert calls(repo, "main") == [("Client.send", False), ("open_client", False)]


def test_only_a_whole_call_assigned_is_read_and_its_annotation_as_a_class() -> None:
    text = (
        "def f(self):\n    a = self.m(x)\n    b = self.m(x).n()\n    c = g(x) or y\n    a = Foo(1)  # new\n"
    )
    assert made_by_calls(text, 10, "a") == [("self.m", 11)]
    assert made_by_calls(text, 10, "b") == made_by_calls(text, 10, "c") == []
    assert returned("def f() -> Optional['Foo']", "") == "Foo"
    assert returned("def f() -> typing.Iterator[bytes]", "") == "Iterator"
    assert returned("def f(self) -> Self", "Own") == "Own"
    assert returned("def f() -> A | B", "") is None
    assert returned("def f() -> None", "") is None


def test_a_field_made_by_a_call_is_of_the_class_its_definition_returns(tmp_path: Path) -> None:
    """jinja's `Parser.__init__` sets `self.stream = environment._tokenize(..)` (`-> TokenStream`);
    the parser's `self.stream.skip_if(..)` calls were guesses by name, ambiguous. The field is of
    the class the call's definition returns; a field the methods make with calls returning
    different classes is not known, and its calls are guessed as before."""
    files = {
        "lexer.py": "class TokenStream:\n    def skip_if(self, kind):\n        return kind\n\n"
        "class Checker:\n    def skip_if(self, kind):\n        return None\n",
        "env.py": "from lexer import TokenStream\n\nclass Environment:\n"
        "    def _tokenize(self, source) -> TokenStream:\n        return TokenStream()\n\n"
        "    def checker(self) -> 'Checker':\n        return None\n",
        "parser.py": "class Parser:\n    def __init__(self, environment: 'Environment', source):\n"
        "        self.stream = environment._tokenize(source)\n        self.mixed = environment._tokenize(source)\n\n"
        "    def reset(self, environment: 'Environment'):\n        self.mixed = environment.checker()\n\n"
        "    def parse_name(self):\n        return self.stream.skip_if('name')\n\n"
        "    def parse_mixed(self):\n        return self.mixed.skip_if('name')\n",
    }
    repo = make_repo(tmp_path, files)
    assert calls(repo, "Parser.parse_name") == [("TokenStream.skip_if", False)]
    assert calls(repo, "Parser.parse_mixed") == [("Checker.skip_if", True), ("TokenStream.skip_if", True)]
