"""A Python loop over one call makes its variable of the class of the elements the called
definition's return annotation names (graph/pymade.py `yielded`): pallets/itsdangerous's `for
signer in self.iter_unsigners(salt): signer.unsign(s, max_age=..)` with `-> Iterator[TimestampSigner]`
was a guess at every `unsign`."""

from __future__ import annotations

from pathlib import Path

from indexlib.graph.pymade import made_by_calls, yielded
from tests.repokit import calls, make_repo

FILES = {
    "signers.py": (
        "import collections.abc as cabc\nimport typing as t\n\n"
        "class Signer:\n    def unsign(self, value):\n        return value\n\n"
        "class TimestampSigner(Signer):\n    def unsign(self, value, max_age=None):\n        return value\n\n"
        "class Other:\n    def unsign(self, value):\n        return value\n\n"
        "class Serializer:\n"
        "    def signers(self) -> cabc.Iterator[Signer]:\n        yield Signer()\n\n"
        "    def timed(\n        self,\n    ) -> 'list[TimestampSigner]':\n        return []\n\n"
        "    def loads(self, s):\n        for signer in self.signers():\n            signer.unsign(s)\n\n"
        "    async def loads_timed(self, s):\n"
        "        for signer in self.timed():  # each\n            signer.unsign(s, max_age=1)\n"
    ),
}


def test_a_loop_variable_is_of_the_class_its_calls_elements_are(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    assert calls(repo, "Serializer.loads") == [("Serializer.signers", False), ("Signer.unsign", False)]
    assert calls(repo, "Serializer.loads_timed") == [
        ("Serializer.timed", False),
        ("TimestampSigner.unsign", False),
    ]


def test_only_a_loop_over_one_whole_call_is_read_and_its_element_class() -> None:
    text = "def f(self):\n    for a in self.m(x):\n        pass\n    for b in self.m(x).n():\n        pass\n"
    assert made_by_calls(text, 10, "a", looped=True) == [("self.m", 11)]
    assert made_by_calls(text, 10, "b", looped=True) == made_by_calls(text, 10, "a") == []
    assert yielded("def f() -> t.Generator[Token, None, None]") == "Token"
    assert yielded("def f() -> Iterator[Optional['Rule']]") == "Rule"
    assert yielded("def f() -> Iterator[Self]", "Own") == "Own"
    assert yielded("def f() -> dict[str, Rule]") is None
    assert yielded("def f() -> Rule") is None
