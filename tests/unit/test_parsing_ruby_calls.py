"""A Ruby name written bare, without arguments or parentheses (`settings`, `request.path`,
`render_page`), is a method call unless a local variable of its scope holds it: Ruby reads it so,
and Sinatra's helpers call `settings`, `request` and `response` this way on nearly every line."""

from __future__ import annotations

from indexlib.index.parsing import parse_file
from tests.parsekit import node

APP = b"""class App
  attr_reader :settings

  def dispatch(env, *rest, key: 1, &blk)
    count = 0
    count += 1
    a, (b, c) = pair
    static! if settings.static?
    [1].each { |item| item; render_page }
    logger.info(env)
    begin
      run
    rescue => err
      err
    end
    helper_value
    x = compute unless blk
    [a, b, c, x, rest, key, count]
  end

  def other
    count
  end

  alias url uri
end
"""


def _bare_calls(qualified: str) -> set[tuple[str, int]]:
    parsed = parse_file("lib/app.rb", APP, "ruby")
    uid = node(parsed, qualified).uid
    return {
        (r.target, r.line)
        for r in parsed.refs
        if r.kind == "calls" and r.src_uid == uid and "." not in r.target
    }


def test_a_bare_ruby_name_no_local_holds_is_a_call() -> None:
    """`pair`, `settings` (as a receiver), `render_page` (in a block), `logger`, `helper_value` and
    `compute` are calls; the method's parameters, its assigned locals (`count`, `a`, `b`, `c`,
    `x`), a block's parameter and a rescued exception's variable are not."""
    assert _bare_calls("App.dispatch") == {
        ("pair", 7),
        ("static!", 8),
        ("settings", 8),
        ("render_page", 9),
        ("logger", 10),
        ("run", 12),
        ("helper_value", 16),
        ("compute", 17),
    }


def test_a_local_of_another_method_is_a_call_here() -> None:
    """`count` is a local of `dispatch` only: in `other` it calls a method."""
    assert _bare_calls("App.other") == {("count", 22)}
