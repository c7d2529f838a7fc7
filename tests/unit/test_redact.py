"""Secret redaction: what is replaced, what is kept, and that line structure survives.

Fake secrets are assembled at run time so this file itself holds nothing a scanner would flag.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexlib.index.redact import PLACEHOLDER, redact

B64 = "MIIEowIBAAKCAQEAx4ZJb3nqRk0aXyzQ1w2e3r4t5y6u7i8o9pLkJhGfDsA1b2c3d4e5f6g7h8"
PEM_BODY = "\n".join([B64, B64[::-1], B64[5:] + "=="])
AWS_ID = "AKIA" + "QX7RZ2MPL4N8VB3C"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "zq3YbA9Kx2"
GH = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2
GH_PAT = "github_pat_" + "11ABCDEFG0" + "x" * 60
SLACK = "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
GOOGLE = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0"
    + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)


def test_pem_block_body_is_replaced_and_lines_are_kept() -> None:
    text = (
        'KEY = """-----BEGIN RSA PRIVATE KEY-----\n'
        + PEM_BODY
        + '\n-----END RSA PRIVATE KEY-----"""\nx = 1\n'
    )
    out, n = redact(text)
    assert n == 1
    assert B64 not in out
    assert "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]" in out
    assert "-----END RSA PRIVATE KEY-----" in out
    assert out.count("\n") == text.count("\n")
    assert out.endswith("x = 1\n")


def test_pem_in_json_with_escaped_newlines() -> None:
    body = "\\n".join([B64, B64])
    text = '{"private_key": "-----BEGIN PRIVATE KEY-----\\n' + body + '\\n-----END PRIVATE KEY-----\\n"}'
    out, n = redact(text)
    assert n == 1
    assert B64 not in out
    assert "-----BEGIN PRIVATE KEY-----" in out


@pytest.mark.parametrize("kind", ["OPENSSH PRIVATE KEY", "EC PRIVATE KEY", "PGP PRIVATE KEY BLOCK"])
def test_pem_kinds(kind: str) -> None:
    text = f"-----BEGIN {kind}-----\n{PEM_BODY}\n-----END {kind}-----\n"
    out, n = redact(text)
    assert (n, B64 in out) == (1, False)


def test_unterminated_pem_redacts_following_base64_lines_only() -> None:
    text = "-----BEGIN PRIVATE KEY-----\n" + PEM_BODY + "\ndef after():\n    return 1\n"
    out, n = redact(text)
    assert n == 1
    assert B64 not in out
    assert "def after():\n    return 1\n" in out
    assert out.count("\n") == text.count("\n")


def test_code_mentioning_pem_markers_is_kept() -> None:
    text = (
        'BEGIN = "-----BEGIN RSA PRIVATE KEY-----"\n'
        'END = "-----END RSA PRIVATE KEY-----"\n'
        "def is_key(line):\n    return line == BEGIN\n"
    )
    assert redact(text) == (text, 0)


@pytest.mark.parametrize(
    ("template", "secret"),
    [
        ("aws_access_key_id = {s}\n", AWS_ID),
        ('client = Client(key="{s}")\n', AWS_ID),
        ("export GITHUB_TOKEN={s}\n", GH),
        ('gh = "{s}"\n', GH_PAT),
        ("SLACK = '{s}'\n", SLACK),
        ("const key = '{s}';\n", GOOGLE),
        ("stripe.api = {s}\n", STRIPE),
        ("auth = '{s}'\n", JWT),
    ],
)
def test_token_formats(template: str, secret: str) -> None:
    text = template.format(s=secret)
    out, n = redact(text)
    assert n == 1
    assert secret not in out
    assert out == template.format(s=PLACEHOLDER)


def test_aws_secret_key_in_assignment() -> None:
    text = f"aws_secret_access_key = {AWS_SECRET}\nregion = eu-west-1\n"
    out, n = redact(text)
    assert n == 1
    assert out == f"aws_secret_access_key = {PLACEHOLDER}\nregion = eu-west-1\n"


def test_bearer_header_and_url_credentials() -> None:
    token = "abc123DEF456ghi789JKL0"
    text = (
        f'headers = {{"Authorization": "Bearer {token}"}}\n'
        'DB = "postgres://app:S3cr3tP4ss@db.internal:5432/app"\n'
    )
    out, n = redact(text)
    assert n == 2
    assert token not in out
    assert "S3cr3tP4ss" not in out
    assert "postgres://app:[REDACTED]@db.internal:5432/app" in out


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('password = "hunter2!"', 'password = "[REDACTED]"'),
        ("db_password='s3cr3t-Pa55'", "db_password='[REDACTED]'"),
        ('"api_key": "k_9f8e7d6c5b4a"', '"api_key": "[REDACTED]"'),
        ("apiKey: 'Z9y8X7w6V5'", "apiKey: '[REDACTED]'"),
        ('accessToken := "tok_5f4e3d2c1b"', 'accessToken := "[REDACTED]"'),
        ('connect(user="u", password="pa55w0rd")', 'connect(user="u", password="[REDACTED]")'),
        ("'secret' => 'q1w2e3r4t5'", "'secret' => '[REDACTED]'"),
        ('SECRET_KEY: str = "dj4ng0-k3y-x81"', 'SECRET_KEY: str = "[REDACTED]"'),
        ("DB_PASSWORD=Sup3rS3cret99", "DB_PASSWORD=[REDACTED]"),
        ("  password: hunter2hunter2", "  password: [REDACTED]"),
        ("API_TOKEN=abc123def456  # rotate monthly", "API_TOKEN=[REDACTED]  # rotate monthly"),
        # The name as a quoted argument, the value as the next one (PHP constants, environment setters).
        ('define("DB_PASSWORD","Xy7kq2Lm9zQ");', 'define("DB_PASSWORD","[REDACTED]");'),
        ("os.Setenv('GITHUB_TOKEN', 'abcd1234efgh')", "os.Setenv('GITHUB_TOKEN', '[REDACTED]')"),
        # A password inside a connection string.
        ('"Server=db;User Id=sa;Password=MyS3cr3tP@ss;"', '"Server=db;User Id=sa;Password=[REDACTED];"'),
        ('"Pwd=abc123;Server=x"', '"Pwd=[REDACTED];Server=x"'),
        # A password that happens to hold one of the words naming a secret is still one.
        ('$password = "hunter2-very-secret";', '$password = "[REDACTED]";'),
        ('db_password = "supersecret123"', 'db_password = "[REDACTED]"'),
    ],
)
def test_generic_assignments_are_redacted(line: str, expected: str) -> None:
    assert redact(line) == (expected, 1)


@pytest.mark.parametrize(
    "line",
    [
        "password = input()",
        "token = None",
        'token = ""',
        "password = get_password(user)",
        "secret = self.secret",
        'api_key = os.environ["API_KEY"]',
        'if token == "EOF8x":',
        'while token != "END12":',
        'password = "changeme"',
        'password = "<your password here>"',
        'token = "${GITHUB_TOKEN}"',
        'api_key = "{{ api_key }}"',
        'password = "xxxxxxxx"',
        'token_type = "bearer12"',
        'tokenizer = "bert-base-1"',
        'max_tokens = "4096abc"',
        'secret_name = "prod-db-1"',
        'help_token = "the API token to use"',
        'password = "new_password"',
        'password = "api-token"',
        'getenv("API_TOKEN", "default")',
        'label("password", "Password")',
        'x = "Password={0};"',
        '"input_token": "next_marker"',
        '_DEFAULT_TOKEN = "_sa_default"',
        "    pass :paramref:`_sa.create_engine.json_serializer` to",
        'SESSION_KEY = "__session_key__"',
        'Token: "#d8dee9"',
        "jsonnet_token = r'[^\\W\\d]\\w*'",
        "credentials = '{0}:{1}'.format(user, pw)",
        'password = "abc"',
        "password: ${DB_PASSWORD}",
        "url = 'https://example.com:8080/path'",
        "monkey = 'b4nana-s9lit'",
        'keys = "a1b2c3d4e5"',
        f"x = '{PLACEHOLDER}'",
        '"NextToken": "abCDeFGhiJKlmnOPqrSTuvwxYZ1aBCdEFghijK7LM51n"',
        '"ClientRequestToken": "a8ca07e4-61ec-4399-99f4-19853801bcd5"',
        'next_page_token = "CAUQAA0x9"',
        "        private_key: PKCS7PrivateKeyTypes,",
        "Authorization: AWS4-HMAC-SHA256 Credential=mock_access_key/20220524/us-east-1/x, Signature=asdf",
    ],
)
def test_non_secrets_are_kept(line: str) -> None:
    assert redact(line) == (line, 0)


def test_text_without_triggers_is_returned_unchanged() -> None:
    text = "def add(a, b):\n    return a + b\n" * 100
    out, n = redact(text)
    assert n == 0
    assert out is text


def test_counts_every_secret() -> None:
    text = f'a = "{GH}"\nb = "{STRIPE}"\npassword = "pa55w0rd"\n'
    out, n = redact(text)
    assert n == 3
    assert out.count(PLACEHOLDER) == 3


def test_non_ascii_text_keeps_positions() -> None:
    # `İ`.lower() is two characters: the folded scan must still replace the right span.
    text = 'İİİ name = "Ünïcode"\npassword = "pä55wörd"\n'
    out, n = redact(text)
    assert n == 1
    assert out == 'İİİ name = "Ünïcode"\npassword = "[REDACTED]"\n'


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_redaction_keeps_line_count_and_is_idempotent(text: str) -> None:
    once, _ = redact(text)
    assert once.count("\n") == text.count("\n")
    assert redact(once) == (once, 0)


@given(st.sampled_from([GH, STRIPE, AWS_ID, JWT, SLACK, GOOGLE]), st.text(max_size=40), st.text(max_size=40))
def test_known_token_never_survives(secret: str, before: str, after: str) -> None:
    out, n = redact(f"{before} {secret} {after}")
    assert secret not in out
    assert n >= 1


def test_pem_blocks_pair_each_begin_with_the_first_end_of_its_kind() -> None:
    other_end = "-----END EC PRIVATE KEY-----\n"
    text = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n{other_end}-----END RSA PRIVATE KEY-----\n"
    out, n = redact(text)
    assert n >= 1 and B64 not in out and other_end in out and out.count("\n") == text.count("\n")
    far = (
        f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n"
        + "x = 1\n" * 4000
        + "-----END RSA PRIVATE KEY-----\n"
    )
    out, _ = redact(far)  # END over 20,000 characters away: not one block (only the base64 lines go)
    assert "x = 1\n" * 4000 in out and B64 not in out


def test_many_begin_lines_without_end_are_left_alone() -> None:
    """A megabyte of BEGIN lines: once seconds of regex rescanning per file, now one pass."""
    text = "-----BEGIN RSA PRIVATE KEY-----\n" * 31_000
    assert redact(text) == (text, 0)


# --- round two: forms that were stored unredacted, and the entropy rule's bounds --------------------

HEX40 = "3f786850e387550fdab836ed7e6dc881" + "de23001b"
B64_32 = "q8Zp3Lk9Xv2Rt7Yw1Nb5Mc4Hd6Gf0Js8" + "Ae2Wu3Ki9Ol="


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("DB_PASS=Zx81kq-Lm2vQ\n", "Zx81kq-Lm2vQ"),
        ('smtp_pwd = "t0ps3cr3t!"\n', "t0ps3cr3t!"),
        (
            "AccountName=a;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IF==;EndpointSuffix=x",
            "Eby8vdM02x",
        ),
        (
            "Endpoint=sb://x/;SharedAccessKeyName=R;SharedAccessKey=c2VjcmV0LWtleS0xMjM0NTY3OA==",
            "c2VjcmV0LWtleS0x",
        ),
        ("secret_key_base: " + HEX40 * 3 + "\n", HEX40),
        ('headers = {"Authorization": "Basic YWRtaW46UzNjcjN0LUJhc2ljLTQy"}', "YWRtaW46UzNjcjN0"),
        ("signing_salt: " + HEX40 + "\n", HEX40),
        ('session_hmac: "' + B64_32 + '"\n', B64_32),
        ("COOKIE_SEED = '" + B64_32 + "'  # rotate yearly\n", B64_32),
    ],
)
def test_round_two_forms_are_redacted(line: str, secret: str) -> None:
    out, n = redact(line)
    assert n == 1 and secret not in out and PLACEHOLDER in out, out


@pytest.mark.parametrize(
    "line",
    [
        'expected_sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"\n',
        "node: " + HEX40 + "\n",  # .git_archival.txt
        'commit = "' + HEX40 + '"\n',
        '"ownedBy": "0x5393BdeA2a020769256d9f337B0fc81a2F64850A"\n',
        'if value == "' + B64_32 + '":\n',
        'name = "ThisIsAVeryLongCamelCaseIdentifierName"\n',
        'path = "src/main/java/org/jsoup/nodes/Element"\n',
        "Basic usage of the Authorization header\n",
        "Basic aGVsbG8gd29ybGQ=\n",  # "hello world": no user:password colon
        'integrity: "sha512-' + B64_32 + '"\n',
        "first_pass = compute_pass(2)\n",
    ],
)
def test_entropy_and_new_rules_keep_ordinary_values(line: str) -> None:
    assert redact(line) == (line, 0)


def test_a_token_in_a_path_is_redacted() -> None:
    from indexlib.index.redact import redact_path

    token = "ghp_" + "Qw3eR5tY7uI9oP1aS3dF" + "5gH7jK9lZ1xC3vB5"
    assert redact_path(f"keys/{token}.txt") == "keys/[REDACTED].txt"
    assert redact_path("src/plain/module.py") == "src/plain/module.py"
