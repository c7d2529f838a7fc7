"""`qry grep`: every line that matches a regular expression, exactly as a scan of the tree would find it.

Modules, one role each:
- `pattern`: the user's pattern and flags -> one compiled Python regular expression;
- `classes`: character classes ripgrep reads differently from Python (`[[:digit:]]`, `[a-z&&[^x]]`);
- `content`: a file's bytes -> the text searched, as rg reads it (encodings, binary data, a size bound);
- `ngrams`: the text normalisation the n-gram index stores, and regex -> boolean trigram query;
- `lines`: one file's text -> its matching lines (and context), split on `\\n` only;
- `files`: which files are searched (the indexing discovery rules, `--hidden`, `--no-ignore`, globs,
  `lang:` / `path:` filters) and which of them the index still describes;
- `run`: candidates from the index (or a scan), verified against the file bytes, in path order.
"""
