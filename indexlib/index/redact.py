"""Secret redaction: replace credentials in source text with `[REDACTED]` before anything is stored.

Owns: the secret patterns (PEM private keys, cloud and SaaS token formats, JWTs, credentials in URLs,
and `password = "..."`-style assignments), the rules that tell a real value from a placeholder, and the
cheap scanning that lets most files pass with a few substring searches.
Does not own: deciding which text gets redacted (the build redacts each file's text before parsing, so
node texts, snippets, terms and vectors never see a secret) or reporting the count.

Guarantees:
- only the secret itself is replaced; quotes, keys and operators stay (`password = "[REDACTED]"`), and a
  PEM block keeps its BEGIN / END lines;
- the number of lines never changes (a redacted PEM body keeps its newlines), so line numbers computed on
  the redacted text still point at the right lines of the file; character and byte lengths do change;
- `[REDACTED]` is itself a placeholder, so redacting twice changes nothing the second time.

How it stays fast: every rule names literal *stems* (`-----BEGIN `, `ghp_`, `://`, `token`, ...). The
text is searched for each stem with `str.find` (C speed), and the rule's regular expression is only
*matched* (anchored) at the places a stem occurs. Python's `re` has no multi-literal prefilter, so an
unanchored `(?i)password|token|...` search is ~10x slower than this.

Deliberate misses (false negatives we accept to keep ordinary code intact): quoted values shorter than 5
characters, values containing whitespace (help texts, messages), all-lower-case or ALL_CAPS identifier
values (`"next_marker"`, `"GITHUB_TOKEN"`: names, not secrets), unquoted values that could be code
(`password = get_password()`, `token = None`), and comparisons (`if token == "EOF"`).
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["PLACEHOLDER", "redact", "redact_path"]

PLACEHOLDER = "[REDACTED]"

# Values that are obviously not secrets: documentation placeholders, sentinels, and our own output.
_PLACEHOLDER_VALUES = frozenset(
    {
        "changeme", "change_me", "change-me", "changeit", "none", "null", "nil", "undefined", "true",
        "false", "example", "sample", "dummy", "test", "testing", "todo", "fixme", "placeholder",
        "redacted", "[redacted]", "hidden", "masked", "default", "required", "optional", "string",
    }
)  # fmt: skip
_NOT_A_SECRET_RE = re.compile(
    r"""(?ix)
    ^(?:x+|\*+|\.+|-+|_+|0+|\#+|\?+|•+)$            # xxxx, ****, 0000
    | ^(?:your|my|some|enter)[-_ ]                   # your_api_key, my-secret
    | example | placeholder | changeme | redacted | dummy | fake
    | \$\{ | \{\{ | \{[a-z_]\w*\} | \{\d*\} | %\( | %s | ^<.*>$ | ^\$ | ^env: | ^vault:   # templates, references
    | password | passwd | secret | token | api_?key  # the value names a secret instead of being one
    | \\                                             # regular expressions and escapes
    | ^\#[0-9a-f]{3,8}$                              # colours
    | ^[a-z][a-z0-9+.-]*:// | ^arn: | ^(?:\.{0,2}|~)/  # URLs, ARNs, paths
    """
)
# A value made only of letters (words joined by `_`, `-`, `.`) is a name or an identifier in practice
# (`"next_marker"`, `"GITHUB_TOKEN"`, `"Incorrect"`); real keys and most passwords carry digits or symbols.
_IDENTIFIER_VALUE_RE = re.compile(r"[A-Za-z]+(?:[_.\-][A-Za-z]+)*")
_CODE_PUNCT_RE = re.compile(r"[()\[\]{}<>$.]")
_HAS_DIGIT_RE = re.compile(r"\d")
_HAS_LETTER_RE = re.compile(r"[A-Za-z]")
_BASE64_BODY_RE = re.compile(r"[A-Za-z0-9+/=]{32,}")
_PEM_HEADER_LINE_RE = re.compile(r"(?m)^[ \t]*[A-Za-z-]+:[^\n]*$")
_PEM_NOISE_RE = re.compile(r"""\\n|\\r|[\s"'+,]""")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _is_placeholder(value: str) -> bool:
    return value.lower() in _PLACEHOLDER_VALUES or _NOT_A_SECRET_RE.search(value) is not None


def _quoted_value_ok(value: str) -> bool:
    """A quoted value after a secret-like name: non-trivial, one word, not a placeholder or a name."""
    return (
        len(value) >= 5
        and not any(c.isspace() for c in value)
        and _IDENTIFIER_VALUE_RE.fullmatch(value) is None
        and not _is_placeholder(value)
    )


def _bare_value_ok(value: str) -> bool:
    """An unquoted value (`.env`, YAML, INI): only when it cannot be code, such as `get_password()`."""
    return (
        len(value) >= 8
        and _HAS_DIGIT_RE.search(value) is not None
        and _HAS_LETTER_RE.search(value) is not None
        and _CODE_PUNCT_RE.search(value) is None
        and not _is_placeholder(value)
    )


def _token_value_ok(value: str) -> bool:
    return _HAS_DIGIT_RE.search(value) is not None and not _is_placeholder(value)


def _url_password_ok(value: str) -> bool:
    return value.lower() not in {"pass", "pwd", "pw"} and not _is_placeholder(value)


def _pem_body_ok(body: str) -> bool:
    """The body between BEGIN and END is key material, not code that mentions both markers."""
    core = _PEM_NOISE_RE.sub("", _PEM_HEADER_LINE_RE.sub("", body))
    return _BASE64_BODY_RE.fullmatch(core) is not None


def _always(_value: str) -> bool:
    return True


def _basic_credentials_ok(value: str) -> bool:
    """`Basic <value>` is a credential when the value decodes to `user:password`."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded and not _is_placeholder(value)


# A PEM private-key block: BEGIN and END lines of the same kind, at most _PEM_MAX_BODY characters apart.
# The kind is everything up to the next `-` (no `-` in [A-Z0-9 ]), so each marker names one kind.
_PEM_KIND = r"(?P<kind>[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?)"
_PEM_BEGIN_RE = re.compile(r"-----BEGIN " + _PEM_KIND + r"-----")
_PEM_END_RE = re.compile(r"-----END " + _PEM_KIND + r"-----")
_PEM_MAX_BODY = 20_000


def _pem_blocks(haystack: str) -> Iterator[tuple[int, int]]:
    """Body spans (between the BEGIN and END lines) of PEM private-key blocks, in linear time.

    Every END marker is indexed once, by kind; each BEGIN then takes the first END of its kind after it
    by bisection. (A lazy `BEGIN(.{1,20000}?)END` regex rescans up to 20,000 characters from every
    BEGIN: a megabyte of BEGIN lines without END cost seconds.)
    """
    ends: dict[str, list[int]] = {}
    i = haystack.find("-----END ")
    while i >= 0:
        m = _PEM_END_RE.match(haystack, i)
        if m is not None:
            ends.setdefault(m["kind"], []).append(i)
        i = haystack.find("-----END ", i + 1)
    if not ends:
        return
    i = haystack.find("-----BEGIN ")
    while i >= 0:
        m = _PEM_BEGIN_RE.match(haystack, i)
        positions = ends.get(m["kind"]) if m is not None else None
        if m is not None and positions:
            start = m.end()
            k = bisect_left(positions, start + 1)  # a body of at least one character
            if k < len(positions) and positions[k] - start <= _PEM_MAX_BODY:
                yield start, positions[k]
        i = haystack.find("-----BEGIN ", i + 1)


@dataclass(frozen=True)
class _Rule:
    """One secret pattern, matched (anchored) wherever one of its stems occurs.

    `group` names the span that is replaced (0: the whole match; `"a|b"`: whichever of the groups
    took part). With `folded`, stems are lower-case and the pattern runs over the lower-cased text
    (ASCII letters folded, so every index still points at the same character of the original).
    A `spans` function, when given, replaces the stem-anchored matching of `pattern` (which then only
    documents the shape): for rules whose two ends must be paired without rescanning.
    """

    name: str
    stems: tuple[str, ...]
    pattern: re.Pattern[str]
    group: str | int = 0
    accept: Callable[[str], bool] = _always
    folded: bool = False
    spans: Callable[[str], Iterator[tuple[int, int]]] | None = None


# Tokens that are not credentials: pagination cursors, idempotency and lock tokens, parser tokens.
_PLAIN_TOKEN_KINDS = (
    "next", "page", "continuation", "change", "request", "client", "idempotency", "lock", "sequence",
    "pagination", "input", "output", "start", "end", "resume", "sync", "cancel", "purchase", "csrf",
)  # fmt: skip
_NOT_A_CREDENTIAL_TOKEN = "".join(f"(?<!{k})(?<!{k}_)(?<!{k}-)" for k in _PLAIN_TOKEN_KINDS)
# Names that *end* in one of these words carry secrets. `key` alone is too common (dict keys), so it
# counts only after a qualifier, and `tokens` (usually a count) not at all; `(?![a-z0-9_])` makes the word
# the end of the name, so `token_type`, `tokenizer`, `max_tokens` and `secret_name` do not qualify.
_SECRET_NAME = (
    r"(?:passwords?|passwd|passphrase|(?<![a-z0-9])pass|(?<![a-z0-9])pwd|secret|secret_key_base"
    r"|" + _NOT_A_CREDENTIAL_TOKEN + r"token|credentials?"
    r"|(?:(?<=api)|(?<=api_)|(?<=api-)|(?<=secret)|(?<=secret_)|(?<=access)|(?<=access_)"
    r"|(?<=private)|(?<=private_)|(?<=auth)|(?<=auth_)|(?<=signing)|(?<=signing_)"
    r"|(?<=encryption)|(?<=encryption_)|(?<=master)|(?<=master_))key)(?![a-z0-9_])"
)
# An assignment, not a comparison: `=`, `:=`, `=>`, `:` (YAML, JSON, dicts, keyword arguments), with an
# optional closing quote of the key and an optional type annotation (`token: str = "..."`).
_ASSIGN = r"[\"']?(?:[ \t]*:[ \t]*[a-z_][\w\[\]., |]{0,40}?)?[ \t]*(?::=|=>|(?<![=!<>])=(?!=)|:)[ \t]*"

# The entropy rule. A candidate value is a run of base64 / hex characters (20 to 300); it counts only
# in an assignment-like context (a name, an optional quote, `=`, `:=`, `=>` or `:`, an optional
# opening quote, right before the value), ends there (closing quote, or the end of the line for a bare
# value), and looks random: hex of 32+ digits with entropy >= 3 bits a character, or 24+ characters
# mixing upper case, lower case and digits with entropy >= 4 bits. Names that say the value is a
# digest or an identifier (hash, sha, checksum, commit, id, uuid, ...) are skipped: those values are
# public by nature, and redacting them would break searches for them.
# Anchored on the operator, so the scan skips to `=` and `:` at C speed; the name before it is checked
# only for the few values that look random.
_ENTROPY_VALUE_RE = re.compile(
    r"(?::=|=>|=|:)[ \t]*(?P<quote>[\"'`]?)(?P<value>[A-Za-z0-9+/_\-]{20,300}={0,2})"
)
_ENTROPY_CONTEXT_RE = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,60})[\"']?[ \t]*[:=]?\Z")
_ENTROPY_CONTEXT_CHARS = 80
_DIGEST_NAME_RE = re.compile(
    r"(?i)hash|sha\d*|md5|digest|checksum|crc|integrity|commit|rev(?:ision)?\b|etag|fingerprint|uuid|guid"
    r"|(?:^|[_.\-])ids?$|[a-z]Ids?$|version|nonce|cursor|marker|signature|^node$|^ref$|address"
    r"|(?:" + "|".join(_PLAIN_TOKEN_KINDS) + r")[_\-]?token"  # pagination and lock tokens, as above
)
_DIGEST_VALUE_PREFIXES = ("sha1-", "sha256-", "sha384-", "sha512-", "md5-")
_HEX_RE = re.compile(r"[0-9a-fA-F]+")
_HEX_LITERAL_RE = re.compile(r"0x[0-9a-fA-F]+")  # a number or an address literal, not a key


def _entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _looks_random(value: str) -> bool:
    core = value.rstrip("=")
    if _HEX_RE.fullmatch(core):
        return len(core) >= 32 and _entropy(core) >= 3.0 and _HAS_LETTER_RE.search(core) is not None
    return (
        len(core) >= 24
        and any(c.isupper() for c in core)
        and any(c.islower() for c in core)
        and sum(c.isdigit() for c in core) >= 2
        and _entropy(core) >= 4.0
    )


def _high_entropy_spans(text: str) -> Iterator[tuple[int, int]]:
    """Spans of random-looking values assigned to a name that is not a digest's (see above)."""
    for m in _ENTROPY_VALUE_RE.finditer(text):
        start, end = m.span("value")
        value = m["value"]
        if (
            not _looks_random(value)
            or value.startswith(_DIGEST_VALUE_PREFIXES)
            or _HEX_LITERAL_RE.fullmatch(value)
            or _is_placeholder(value)
            or text[m.start() - 1 : m.start()] in ("=", "!", "<", ">")  # `==`, `!=`, `<=`: comparisons
        ):
            continue
        ctx = _ENTROPY_CONTEXT_RE.search(text, max(0, m.start() - _ENTROPY_CONTEXT_CHARS), m.start())
        if ctx is None or _DIGEST_NAME_RE.search(ctx["name"]):
            continue
        if text[end : end + 1] in _VALUE_CHARS:
            continue  # the run goes on (a longer token the value class does not cover)
        quote = m["quote"]
        if quote:
            if text[end : end + 1] != quote:
                continue
        elif not _BARE_END_RE.match(text, end):
            continue
        yield start, end


_VALUE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-=")
_BARE_END_RE = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z)")


_RULES: tuple[_Rule, ...] = (
    _Rule(
        "pem_private_key",
        ("-----BEGIN ",),
        re.compile(_PEM_BEGIN_RE.pattern + r"(?P<body>.{1,20000}?)-----END (?P=kind)-----", re.DOTALL),
        "body",
        _pem_body_ok,
        spans=_pem_blocks,
    ),
    # A truncated key without its END line: redact the base64 lines that follow BEGIN.
    _Rule(
        "pem_private_key_unterminated",
        ("-----BEGIN ",),
        re.compile(
            r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[ \t]*\r?\n"
            r"(?P<body>(?:[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*(?:\r?\n|\Z))+)"
        ),
        "body",
    ),
    _Rule(
        "aws_access_key_id",
        ("AKIA", "ASIA"),
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])"),
    ),
    _Rule(
        "aws_secret_access_key",
        ("aws", "secret_access", "secretaccess"),
        re.compile(
            r"(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)[\"']?[ \t]*(?::=|=>|=|:)[ \t]*"
            r"[\"']?(?P<value>[a-z0-9/+=]{40})(?![a-z0-9/+=])"
        ),
        "value",
        folded=True,
    ),
    _Rule(
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
    ),
    _Rule("slack_token", ("xox",), re.compile(r"(?<![A-Za-z0-9_])xox[abposr]-[A-Za-z0-9-]{10,250}")),
    _Rule(
        "google_api_key",
        ("AIza",),
        re.compile(r"(?<![A-Za-z0-9_])AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"),
    ),
    _Rule(
        "stripe_key",
        ("sk_live_", "rk_live_", "sk_test_", "rk_test_"),
        re.compile(r"(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[0-9A-Za-z]{10,247}\b"),
    ),
    _Rule(
        "jwt",
        ("eyJ",),
        re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    ),
    _Rule(
        "bearer_token",
        ("Bearer",),
        re.compile(r"Bearer[ \t]+(?P<value>[A-Za-z0-9._~+/-]{20,}=*)"),
        "value",
        _token_value_ok,
    ),
    _Rule(
        "url_credentials",
        ("://",),
        re.compile(r"://[^\s/:@'\"]{1,100}:(?P<value>[^\s/@'\"]{1,200})@"),
        "value",
        _url_password_ok,
    ),
    _Rule(
        "assignment_quoted",
        ("pass", "pwd", "secret", "token", "key", "credential"),
        re.compile(
            _SECRET_NAME + _ASSIGN + r"(?:[bru]{1,2})?"
            r"(?:\"(?P<dq>[^\"\n]{1,300})\"|'(?P<sq>[^'\n]{1,300})'|`(?P<bq>[^`\n]{1,300})`)"
        ),
        "dq|sq|bq",
        _quoted_value_ok,
        folded=True,
    ),
    # Unquoted values (`.env`, YAML, INI) must end their line, so a parameter annotation
    # (`private_key: PKCS7PrivateKeyTypes,`) or a header fragment (`Credential=a/b, ...`) is not one.
    _Rule(
        "assignment_bare",
        ("pass", "pwd", "secret", "token", "key", "credential"),
        re.compile(
            _SECRET_NAME + r"[ \t]*(?:(?<![=!<>])=(?!=)|:)[ \t]*"
            r"(?P<value>[^\s\"'`,;#]{8,300})(?=[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z))"
        ),
        "value",
        _bare_value_ok,
        folded=True,
    ),
    # Connection strings (Azure storage, Service Bus, Event Hubs): `...;AccountKey=<base64>;...`.
    _Rule(
        "connection_string_key",
        ("accountkey=", "sharedaccesskey="),
        re.compile(r"(?:accountkey|sharedaccesskey)=(?P<value>[a-z0-9+/]{16,}={0,2})(?![a-z0-9+/=])"),
        "value",
        _token_value_ok,
        folded=True,
    ),
    # HTTP basic credentials: `Basic <base64 of user:password>` (the decoded colon tells it from prose).
    _Rule(
        "basic_auth",
        ("Basic ",),
        re.compile(r"Basic[ \t]+(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"),
        "value",
        _basic_credentials_ok,
    ),
    # Any name assigned a long random-looking value (`signing_salt: <40 hex>`, `session_hmac: "<b64>"`).
    _Rule(
        "assignment_high_entropy",
        ("=", ":"),
        _ENTROPY_VALUE_RE,
        spans=_high_entropy_spans,
    ),
)


def _fold(text: str) -> str:
    """Lower-case without changing any index (`str.lower` can lengthen a few non-ASCII characters)."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


def _span(match: re.Match[str], group: str | int) -> tuple[int, int] | None:
    if isinstance(group, int):
        return match.span(group)
    for name in group.split("|"):
        if match.group(name) is not None:
            return match.span(name)
    return None


def _find(rule: _Rule, text: str, haystack: str) -> list[tuple[int, int]]:
    """Accepted secret spans of one rule, sorted and non-overlapping."""
    spans: set[tuple[int, int]] = set()
    if rule.spans is not None:
        for start, end in rule.spans(haystack):
            if end > start and rule.accept(text[start:end]):
                spans.add((start, end))
    else:
        match_at = rule.pattern.match
        for stem in rule.stems:
            i = haystack.find(stem)
            while i >= 0:
                m = match_at(haystack, i)
                if m is not None:
                    span = _span(m, rule.group)
                    if span is not None and span[1] > span[0] and rule.accept(text[span[0] : span[1]]):
                        spans.add(span)
                i = haystack.find(stem, i + 1)
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if not out or start >= out[-1][1]:
            out.append((start, end))
    return out


def _replacement(secret: str) -> str:
    """`[REDACTED]` keeping the secret's leading/trailing whitespace and its number of newlines."""
    core = secret.strip()
    if not core:
        return secret
    lead = secret[: len(secret) - len(secret.lstrip())]
    trail = secret[len(secret.rstrip()) :]
    return lead + PLACEHOLDER + "\n" * core.count("\n") + trail


def _replace(text: str, spans: list[tuple[int, int]]) -> str:
    pieces: list[str] = []
    pos = 0
    for start, end in spans:
        pieces.append(text[pos:start])
        pieces.append(_replacement(text[start:end]))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


# Every distinct stem once: one scan per stem tells which rules can match at all.
_CASE_STEMS = tuple(dict.fromkeys(stem for rule in _RULES if not rule.folded for stem in rule.stems))
_FOLDED_STEMS = tuple(dict.fromkeys(stem for rule in _RULES if rule.folded for stem in rule.stems))


def redact(text: str) -> tuple[str, int]:
    """Replace secrets in `text` with `[REDACTED]`; return the new text and how many were replaced.

    Cost: one substring scan per distinct stem (26 of them) for text without any, so redact the
    whole file once rather than each node's text separately.

    >>> redact('db_password = "s3cr3t-Pa55"\\nuser = input()')
    ('db_password = "[REDACTED]"\\nuser = input()', 1)
    """
    if not text:
        return text, 0
    first_fold = _fold(text)
    present = {stem for stem in _CASE_STEMS if stem in text}
    present.update(stem for stem in _FOLDED_STEMS if stem in first_fold)
    folded: str | None = first_fold  # dropped after a replacement changes the text
    if not present:
        return text, 0
    total = 0
    for rule in _RULES:
        if not any(stem in present for stem in rule.stems):
            continue
        if rule.folded:
            if folded is None:
                folded = _fold(text)
            haystack = folded
        else:
            haystack = text
        spans = _find(rule, text, haystack)
        if spans:
            text = _replace(text, spans)
            folded = None
            total += len(spans)
    return text, total


def redact_path(path: str) -> str:
    """A file's path with any secret in it (a token used as a file or folder name) replaced.

    The build stores this form everywhere (manifest, tables, Tantivy, output) and reads the file
    through its real path; two paths that redact alike are told apart by the caller.

    >>> redact_path("keys/ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2 + ".txt")
    'keys/[REDACTED].txt'
    """
    return redact(path)[0] if path else path
