"""A dotted identifier query (`pkg.name`, `pkg.sub.name`) ranks the definition it names as typed first,
over the ones it only spells in another case or by a folder's name."""

from __future__ import annotations

from pathlib import Path

from indexlib import SearchOptions, open_engine, related
from tests.repokit import make_repo

_FILES = {
    "src/shop/__init__.py": "from .app import Shop as Shop\nfrom .helpers import checkout as checkout\n",
    "src/shop/app.py": (
        "class Shop:\n"
        "    def checkout(self, cart):\n"
        "        '''Check the cart out: shop checkout of every item.'''\n"
        "        return [self.bill(item) for item in cart]\n\n"
        "    def bill(self, item):\n"
        "        return item\n"
    ),
    "src/shop/helpers.py": (
        "def checkout(cart):\n    '''Check out with the current shop.'''\n    return cart\n"
    ),
    "src/shop/codec/__init__.py": "def dumps(obj):\n    '''Serialize obj.'''\n    return str(obj)\n",
    "src/shop/codec/provider.py": (
        "class Provider:\n    def dumps(self, obj):\n        '''Serialize obj with the codec provider.'''\n"
        "        return repr(obj)\n"
    ),
}


def _symbols(repo: Path, text: str, **kw: object) -> list[tuple[str, str]]:
    res = open_engine(repo / ".qry").search(text, SearchOptions(**kw))  # type: ignore[arg-type]
    return [(h.symbol, h.path) for h in res.results]


def test_a_package_qualified_name_is_the_function_the_package_passes_on(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, _FILES)
    # `shop.checkout` is what `shop/__init__.py` imports from `.helpers`, not the class `Shop`'s method,
    # which matched as a qualified suffix once lower-cased.
    assert _symbols(repo, "shop.checkout")[0] == ("checkout", "src/shop/helpers.py")
    # The module path as typed: `shop/codec/__init__.py`'s function, not a method of a module below it.
    assert _symbols(repo, "shop.codec.dumps")[0] == ("dumps", "src/shop/codec/__init__.py")
    # The class's method is still its own name's answer, and filters still hold.
    assert _symbols(repo, "Shop.checkout")[0] == ("Shop.checkout", "src/shop/app.py")
    assert _symbols(repo, "shop.checkout", kinds=["method"])[0] == ("Shop.checkout", "src/shop/app.py")


def test_a_javascript_method_named_through_its_prototype_is_that_method(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "lib/view.js": "function View(name) {\n  this.name = name\n}\n\n"
            "View.prototype.render = function render(options, callback) {\n  callback(null, this.name)\n}\n\n"
            "module.exports = View\n",
            "lib/app.js": "var app = exports = module.exports = {}\n\n"
            "app.render = function render(name, callback) {\n  callback(null, name)\n}\n",
        },
    )
    # As the code assigning it and the docs write it: it found no definition (`related` exit 1).
    res = related(open_engine(repo / ".qry"), "View.prototype.render")
    assert res.node is not None and (res.node.symbol, res.node.path) == ("View.render", "lib/view.js")
    assert _symbols(repo, "View.prototype.render")[0] == ("View.render", "lib/view.js")
