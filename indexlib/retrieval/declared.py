"""What a definition's first line declares: `func (s *Server) Handle(w ...` -> `Server.Handle`. Pure.

Owns: recognising a query that opens as a definition does (a declaring keyword first) or as a code
statement does (`if x is not None:`), and reading the name a definition declares, so a signature
query asks the symbol stream for that name and the definition signal boosts it. Does not own: routing
(query.py's `classify` uses `DEFINITION_START` and `CODE_STATEMENT` as cues).
"""

from __future__ import annotations

import re

__all__ = ["DEFINITION_START", "declared_name"]

# Modifiers count before a declaring keyword only (`override fun parse(`, `open class Session`): alone
# they are English words (`open a file`, `override the timeout`).
DEFINITION_START = re.compile(
    r"^\s*(?:(?:override|open|internal|abstract|final|sealed|data|inline|suspend|operator|infix|"
    r"mutating|fileprivate|convenience|required|lateinit|companion|@\w+)\s+)*"
    r"(?:def|func|fn|fun|function|class|struct|interface|impl|public|private|protected|static|async|"
    r"const|let|var|val|pub|type|enum|trait|void|export)\s+[\w(*&]"
)
# A statement, not a sentence, though its words read as English (`if content_type is not None:`,
# `for chunk in response.iter_bytes():`, `return self._request`): a lower-case statement keyword
# first (a sentence starts in upper case), then a block opener or terminator ending it, a comparison
# or assignment operator, or a single dotted expression after `return`.
CODE_STATEMENT = re.compile(
    r"^\s*(?:if|elif|while|for|with|return|raise|assert|await|yield|throw|case|except|unless)\s"
    r"(?:.*(?:[:;{]\s*$|==|!=|:=|&&|\|\|)|\s*[\w$]+(?:\.[\w$]+)+(?:\(.*\))?;?\s*$)"
)


# What a definition's first line declares. A Go method names its receiver's type first:
# `func (s *Server) Handle(` declares `Server.Handle`.
_GO_METHOD = re.compile(
    r"^\s*func\s*\(\s*(?:\w+\s+)?\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*([A-Za-z_]\w*)"
)
# The same without `func`, as a Go method is named in prose and docs: `(c *Command) Execute`.
_GO_RECEIVER = re.compile(r"^\s*\(\s*(?:\w+\s+)?\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*([A-Za-z_]\w*)")
# A function assigned to a property: `res.send = function send(`, `Foo.prototype.bar = async function`.
_ASSIGNED_FUNCTION = re.compile(
    r"^\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)\s*=\s*(?:async\s+)?function\b"
)
# `type node struct`: a Go type declaration, whatever the case of its name.
_GO_TYPE = re.compile(r"^\s*type\s+([A-Za-z_]\w*)\s+(?:struct|interface|func|map|chan)\b")
# A word after the keyword written as code, not English: capitals inside or first, `_`, digits.
_CODE_NAME = re.compile(r"(?:^|\s)(?:[A-Z]\w*|\w*[_0-9]\w*|[a-z]+[A-Z]\w*)(?=\s|$)")
_CODE_PUNCTUATION = re.compile(r"[(){}<>:*&=\[\];]")  # a declaration, not words that open with `type`
_CALLED_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*\(")  # the name before a parameter list
_DECLARING_WORDS = frozenset(
    {
        "def", "func", "fn", "function", "class", "struct", "interface", "public", "private", "protected",
        "static", "async", "const", "let", "var", "pub", "type", "enum", "trait", "void", "export",
        "abstract", "final", "override", "readonly", "extern", "unsafe", "inline", "virtual", "fun", "val",
        "open", "internal", "sealed", "data", "suspend", "operator", "infix", "mutating", "fileprivate",
        "convenience", "required", "lateinit", "companion", "object", "protocol", "extension", "actor",
    }
)  # fmt: skip


def declared_name(text: str) -> str | None:
    """The name a definition's first line declares, or None when the text is not one (or is an
    `impl` block, which names no definition of its own).

    >>> [declared_name(t) for t in ("func (s *Server) Handle(w http.ResponseWriter)",
    ...     "def parse(path: str)", "pub fn new() -> Self", "class Config(Base):", "type Opts struct {",
    ...     "public static void main(String[] args)", "impl Display for Error", "type check",
    ...     "type node struct", "type Engine struct", "class unicode range", "class HTTPServer",
    ...     "(c *Command) Execute", "res.send = function send(body)", "View.prototype.lookup = function",
    ...     "override fun fromJson(reader: JsonReader)", "open func request(_ url: URL)", "open a file")]
    ['Server.Handle', 'parse', 'new', 'Config', 'Opts', 'main', None, None, 'node', 'Engine', None, \
'HTTPServer', 'Command.Execute', 'res.send', 'View.lookup', 'fromJson', 'request', None]
    """
    receiver = _GO_RECEIVER.match(text)
    if receiver:
        return f"{receiver.group(1)}.{receiver.group(2)}"
    assigned = _ASSIGNED_FUNCTION.match(text)
    if assigned:
        return assigned.group(1).replace(".prototype.", ".")
    if not DEFINITION_START.search(text):
        return None
    go_type = _GO_TYPE.match(text)
    if go_type:
        return go_type.group(1)
    if not _CODE_PUNCTUATION.search(text) and not _CODE_NAME.search(text):
        return None  # `type check`, `class name`: words of a name (`type_check`), not a declaration
    go = _GO_METHOD.match(text)
    if go:
        return f"{go.group(1)}.{go.group(2)}"
    words = re.findall(r"[A-Za-z_$][\w$]*|\S", text)
    if words and words[0] == "impl":
        return None
    called = _CALLED_NAME.search(text)
    if called and called.group(1) not in _DECLARING_WORDS:
        return called.group(1)
    for w in words:
        if w not in _DECLARING_WORDS:
            return w if re.fullmatch(r"[A-Za-z_$][\w$]*", w) else None
    return None
