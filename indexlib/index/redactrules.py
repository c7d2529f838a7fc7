"""The secret rules `redact` applies: what a secret looks like, and how a real value differs from a placeholder.

Owns: the rule table (`RULES`: PEM private keys, cloud and SaaS token formats, JWTs, credentials in
URLs, `password = "..."`-style assignments, high-entropy values), each rule's literal stems, its
anchored pattern and the check that accepts a value (placeholders, identifiers, code and templates
are not secrets), and the two rules that find their spans themselves (PEM blocks paired in linear
time, high-entropy assignments). Does not own: scanning text and replacing secrets (redact.py).
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
    | ^(?:[a-z]+[_.\-])*(?:password|passwd|secret|token|api_?key)(?:[_.\-][a-z]+)*$  # names a secret
    | \\                                             # regular expressions and escapes
    | ^\#[0-9a-f]{3,8}$                              # colours
    | ^[a-z][a-z0-9+.-]*:// | ^arn: | ^(?:\.{0,2}|~)/  # URLs, ARNs, paths
    """
)
# A value made only of letters (words joined by `_`, `-`, `.`, a private name's leading or trailing
# underscores) is a name or an identifier in practice (`"next_marker"`, `"GITHUB_TOKEN"`, `"Incorrect"`,
# `"_sa_default"`, `` `_sa.create_engine.json_serializer` ``); real keys and most passwords carry
# digits or symbols.
_IDENTIFIER_VALUE_RE = re.compile(r"_*[A-Za-z]+(?:[_.\-]+[A-Za-z]+)*_*")
_CODE_PUNCT_RE = re.compile(r"[()\[\]{}<>$.]")
_HAS_DIGIT_RE = re.compile(r"\d")
_HAS_LETTER_RE = re.compile(r"[A-Za-z]")
_BASE64_BODY_RE = re.compile(r"[A-Za-z0-9+/=]{32,}")
_PEM_HEADER_LINE_RE = re.compile(r"(?m)^[ \t]*[A-Za-z-]+:[^\n]*$")
_PEM_NOISE_RE = re.compile(r"""\\n|\\r|[\s"'+,]""")


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
class Rule:
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


RULES: tuple[Rule, ...] = (
    Rule(
        "pem_private_key",
        ("-----BEGIN ",),
        re.compile(_PEM_BEGIN_RE.pattern + r"(?P<body>.{1,20000}?)-----END (?P=kind)-----", re.DOTALL),
        "body",
        _pem_body_ok,
        spans=_pem_blocks,
    ),
    # A truncated key without its END line: redact the base64 lines that follow BEGIN.
    Rule(
        "pem_private_key_unterminated",
        ("-----BEGIN ",),
        re.compile(
            r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[ \t]*\r?\n"
            r"(?P<body>(?:[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*(?:\r?\n|\Z))+)"
        ),
        "body",
    ),
    Rule(
        "aws_access_key_id",
        ("AKIA", "ASIA"),
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])"),
    ),
    Rule(
        "aws_secret_access_key",
        ("aws", "secret_access", "secretaccess"),
        re.compile(
            r"(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)[\"']?[ \t]*(?::=|=>|=|:)[ \t]*"
            r"[\"']?(?P<value>[a-z0-9/+=]{40})(?![a-z0-9/+=])"
        ),
        "value",
        folded=True,
    ),
    Rule(
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
    ),
    Rule("slack_token", ("xox",), re.compile(r"(?<![A-Za-z0-9_])xox[abposr]-[A-Za-z0-9-]{10,250}")),
    Rule(
        "google_api_key",
        ("AIza",),
        re.compile(r"(?<![A-Za-z0-9_])AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"),
    ),
    Rule(
        "stripe_key",
        ("sk_live_", "rk_live_", "sk_test_", "rk_test_"),
        re.compile(r"(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[0-9A-Za-z]{10,247}\b"),
    ),
    Rule(
        "jwt",
        ("eyJ",),
        re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    ),
    Rule(
        "bearer_token",
        ("Bearer",),
        re.compile(r"Bearer[ \t]+(?P<value>[A-Za-z0-9._~+/-]{20,}=*)"),
        "value",
        _token_value_ok,
    ),
    Rule(
        "url_credentials",
        ("://",),
        re.compile(r"://[^\s/:@'\"]{1,100}:(?P<value>[^\s/@'\"]{1,200})@"),
        "value",
        _url_password_ok,
    ),
    Rule(
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
    # A secret-named string followed by its quoted value as the next argument: `define("DB_PASSWORD",
    # "...")`, `os.Setenv("API_TOKEN", "...")`, `props.put("password", "...")`.
    Rule(
        "quoted_name_argument",
        ("pass", "pwd", "secret", "token", "key", "credential"),
        re.compile(
            _SECRET_NAME + r"[\"'][ \t]*,[ \t]*(?:\"(?P<dq>[^\"\n]{1,300})\"|'(?P<sq>[^'\n]{1,300})')"
        ),
        "dq|sq",
        _quoted_value_ok,
        folded=True,
    ),
    # A password inside a connection string (ADO.NET, ODBC, JDBC properties): `...;Password=...;`.
    Rule(
        "connection_string_password",
        ("password=", "pwd="),
        re.compile(r"(?<=[;\"'])[ \t]*(?:password|pwd)=(?P<value>[^;\"'\s]{1,200})(?=[;\"'])"),
        "value",
        _url_password_ok,
        folded=True,
    ),
    # Unquoted values (`.env`, YAML, INI) must end their line, so a parameter annotation
    # (`private_key: PKCS7PrivateKeyTypes,`) or a header fragment (`Credential=a/b, ...`) is not one.
    Rule(
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
    Rule(
        "connection_string_key",
        ("accountkey=", "sharedaccesskey="),
        re.compile(r"(?:accountkey|sharedaccesskey)=(?P<value>[a-z0-9+/]{16,}={0,2})(?![a-z0-9+/=])"),
        "value",
        _token_value_ok,
        folded=True,
    ),
    # HTTP basic credentials: `Basic <base64 of user:password>` (the decoded colon tells it from prose).
    Rule(
        "basic_auth",
        ("Basic ",),
        re.compile(r"Basic[ \t]+(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"),
        "value",
        _basic_credentials_ok,
    ),
    # Any name assigned a long random-looking value (`signing_salt: <40 hex>`, `session_hmac: "<b64>"`).
    Rule(
        "assignment_high_entropy",
        ("=", ":"),
        _ENTROPY_VALUE_RE,
        spans=_high_entropy_spans,
    ),
)
