"""A Ruby call guessed by the method's name leaves out the methods whose parameters cannot take it."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "lib/site.rb": "class Site\n  def process\n    1\n  end\nend\n",
    "lib/build.rb": "class Build\n  def self.process(options)\n    options\n  end\nend\n",
    "lib/theme.rb": "class NewTheme\n  def self.process(args, opts)\n    args\n  end\nend\n",
    "lib/logger.rb": "class Adapter\n  def error(topic, message = nil, &block)\n    topic\n  end\nend\n\n"
    "class Stevenson\n  def error(progname = nil, &block)\n    progname\n  end\nend\n\n"
    "class Slug\n  def slugify(string, mode: nil)\n    string\n  end\nend\n",
    "lib/command.rb": "class Command\n  def run(options, *klass)\n"
    "    klass.each { |k| k.process(options) }\n"  # 3
    "    log.error 'a', 'b'\n"  # 4
    "    log.slugify(options, mode: 'raw')\n"  # 5
    "  end\n\n  def spread(klass)\n    klass.process(*klass)\n  end\nend\n",
}


def test_a_ruby_call_keeps_the_methods_its_arguments_fit(tmp_path: Path) -> None:
    """On jekyll `klass.each { |k| k.process(options) }` listed `Site#process`, which takes no
    argument, and `NewTheme.process(args, opts)` among its guesses, and `Jekyll.logger.error "",
    dashes` the `error(progname = nil)` of `Stevenson`. A keyword argument is one (the hash), a
    default or a block parameter may be left out, and a splat call is unread."""
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")
    callees = {(r.symbol, r.line) for r in related(engine, "lib/command.rb:2", callers=False).related}
    assert {s for s, line in callees if line == 3} == {"Build.process"}
    assert {s for s, line in callees if line == 4} == {"Adapter.error"}
    assert {s for s, line in callees if line == 5} == {"Slug.slugify"}
    spread = {r.symbol for r in related(engine, "lib/command.rb:8", callers=False).related}
    assert spread == {"Build.process", "NewTheme.process", "Site.process"}
