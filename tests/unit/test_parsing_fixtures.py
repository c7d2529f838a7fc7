"""Per-language extraction on the polyglot fixture repository: symbols, signatures, docs, parents, refs."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib.index.parsing import detect_language, parse_file
from indexlib.records import ParsedFile

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "polyglot"


def parse(rel: str) -> ParsedFile:
    data = (ROOT / rel).read_bytes()
    language = detect_language(rel, data[:512])
    assert language is not None
    return parse_file(rel, data, language)


def by_qualified(parsed: ParsedFile) -> dict[tuple[str, str], list]:
    table: dict[tuple[str, str], list] = {}
    for node in parsed.nodes:
        table.setdefault((node.kind, node.qualified_name), []).append(node)
    return table


def symbol(parsed: ParsedFile, kind: str, qualified: str, index: int = 0):
    matches = by_qualified(parsed).get((kind, qualified))
    assert matches, f"no {kind} {qualified!r} in {[(n.kind, n.qualified_name) for n in parsed.nodes]}"
    return matches[index]


def calls(parsed: ParsedFile) -> set[tuple[str, str]]:
    names = {node.uid: node.qualified_name for node in parsed.nodes}
    return {(names[ref.src_uid], ref.target) for ref in parsed.refs if ref.kind == "calls"}


def imports(parsed: ParsedFile) -> set[tuple[str, str]]:
    return {(ref.target, ref.alias) for ref in parsed.refs if ref.kind == "imports"}


def bases(parsed: ParsedFile) -> set[tuple[str, str, str]]:
    names = {node.uid: node.qualified_name for node in parsed.nodes}
    return {(names[r.src_uid], r.kind, r.target) for r in parsed.refs if r.kind in ("inherits", "implements")}


def parent_name(parsed: ParsedFile, node) -> str:
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    return names.get(node.parent_uid, "") if node.parent_uid else ""


ALL_FILES = sorted(
    str(path.relative_to(ROOT)) for path in ROOT.rglob("*") if path.is_file() and detect_language(path.name)
)
# Known extraction defects, each listed with what is wrong; strict, so a fix shows up as XPASS.
CONSISTENCY_CASES = ALL_FILES


@pytest.mark.parametrize("rel", CONSISTENCY_CASES)
def test_every_fixture_file_is_consistent(rel: str) -> None:
    """Invariants for every file: unique uids, resolvable parents and ref sources, exact lines and bytes."""
    data = (ROOT / rel).read_bytes()
    parsed = parse(rel)
    assert parsed.skip is None, parsed.note
    assert parsed.nodes
    uids = [node.uid for node in parsed.nodes]
    assert len(uids) == len(set(uids))
    live = set(uids)
    line_count = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    for node in parsed.nodes:
        assert node.parent_uid == 0 or node.parent_uid in live
        assert 1 <= node.start_line <= node.end_line <= line_count
        assert 0 <= node.start_byte < node.end_byte <= len(data)
        assert data.count(b"\n", 0, node.start_byte) + 1 == node.start_line
        assert data.count(b"\n", 0, node.end_byte - 1) + 1 == node.end_line
        # The text covers exactly the node's lines (nested bodies may be elided, never lines).
        assert node.text.count("\n") == node.end_line - node.start_line
        assert node.path == rel
    for ref in parsed.refs:
        assert ref.src_uid in live
        assert 1 <= ref.line <= line_count
        assert ref.kind in ("calls", "imports", "inherits", "implements")
        assert ref.target and " " not in ref.target


def test_python_billing_retry_chain() -> None:
    parsed = parse("python/billing/retry.py")
    backoff = symbol(parsed, "function", "compute_backoff")
    assert backoff.signature == "def compute_backoff(attempt: int, base: float = 2.0) -> float"
    assert backoff.doc == "Return the delay before `attempt`: base doubled per attempt, capped."
    assert backoff.text.startswith("def compute_backoff(")
    retry = symbol(parsed, "function", "retry_failed_charge")
    assert retry.signature.startswith("async def retry_failed_charge(gateway: Gateway, charge_id: str")
    assert retry.text.startswith("@clock_guard\n")  # decorators belong to the definition
    inner = symbol(parsed, "function", "retry_failed_charge.on_declined")
    assert inner.parent_uid == retry.uid
    assert "print(" not in retry.text and "def on_declined(error: DeclinedError) -> None:" in retry.text
    found = calls(parsed)
    assert ("retry_failed_charge", "schedule_retry") in found
    assert ("schedule_retry", "compute_backoff") in found
    assert ("schedule_retry", "clock.sleep") in found
    assert ("retry_failed_charge", "gateway.charge") in found
    assert ("retry_failed_charge.on_declined", "print") in found
    assert imports(parsed) >= {
        ("time", "clock"),
        ("billing.config.Config", "Config"),
        ("billing.config.parse_config", "parse_config"),
        ("billing.gateway.DeclinedError", "DeclinedError"),
    }
    module = symbol(parsed, "module", "retry")
    assert module.doc == "Retry failed charges with exponential backoff."
    # A module-level assignment is a constant node of its own, no longer part of the remainder.
    limit = symbol(parsed, "constant", "MAX_BACKOFF_SECONDS")
    assert (limit.signature, limit.text, limit.start_line, limit.parent_uid) == (
        "MAX_BACKOFF_SECONDS = 300.0",
        "MAX_BACKOFF_SECONDS = 300.0",
        7,
        0,
    )
    assert "MAX_BACKOFF_SECONDS" not in module.text and "import time as clock" in module.text
    assert "def compute_backoff" not in module.text  # top-level definitions are not in the remainder
    import_refs = [ref for ref in parsed.refs if ref.kind == "imports"]
    assert all(ref.src_uid == module.uid for ref in import_refs)


def test_python_classes_methods_and_bases() -> None:
    parsed = parse("python/billing/gateway.py")
    stripe = symbol(parsed, "class", "StripeGateway")
    assert stripe.signature == "class StripeGateway(Gateway)"
    assert stripe.doc == "Gateway backed by Stripe."
    charge = symbol(parsed, "method", "StripeGateway.charge")
    assert charge.parent_uid == stripe.uid
    assert charge.signature == "def charge(self, customer_id: str, amount_cents: int) -> str"
    assert charge.doc == "Charge through Stripe, logging the amount."
    # The class text keeps member signatures but not their bodies.
    assert "def charge(self, customer_id: str, amount_cents: int) -> str:" in stripe.text
    assert "log.info" not in stripe.text
    assert parent_name(parsed, symbol(parsed, "method", "Gateway.__init__")) == "Gateway"
    assert bases(parsed) == {
        ("StripeGateway", "inherits", "Gateway"),
        ("DeclinedError", "inherits", "Exception"),
    }
    assert ("StripeGateway.charge", "self._post") in calls(parsed)
    assert ("StripeGateway._post", "DeclinedError") in calls(parsed)
    assert ("logging", "log") in imports(parsed)


def test_python_config_and_package_init() -> None:
    parsed = parse("python/billing/config.py")
    config = symbol(parsed, "class", "Config")
    assert config.text.startswith("@dataclass(frozen=True)\nclass Config:")
    assert config.doc == "Billing settings: currency, retry delays and attempt limit."
    assert ("parse_config", "tomllib.loads") in calls(parsed)
    assert ("parse_config", "Config") in calls(parsed)
    currency = symbol(parsed, "constant", "DEFAULT_CURRENCY")
    assert currency.signature == 'DEFAULT_CURRENCY = "EUR"'
    assert "DEFAULT_CURRENCY" not in symbol(parsed, "module", "config").text
    init = parse("python/billing/__init__.py")
    assert [(node.kind, node.name) for node in init.nodes] == [
        ("module", "__init__"),
        ("constant", "__all__"),
    ]
    assert "__all__" not in init.nodes[0].text
    assert ("billing.retry.retry_failed_charge", "retry_failed_charge") in imports(init)


def test_javascript() -> None:
    parsed = parse("js/billing.js")
    charge = symbol(parsed, "function", "charge")
    assert charge.signature == "async function charge(gateway, customerId, amountCents)"
    assert charge.doc.startswith("Charge a customer through the gateway.\n@param {Gateway} gateway")
    # The JSDoc block above the definition is part of the node: its first line is the node's.
    assert charge.text.startswith("/**\n * Charge a customer through the gateway.\n")
    assert "*/\nexport async function charge(gateway" in charge.text
    assert charge.start_line == 8
    retry = symbol(parsed, "function", "retryFailedCharge")
    assert retry.doc == "Retry a failed charge with exponential backoff."
    sleep = symbol(parsed, "function", "sleep")
    assert sleep.signature == "const sleep = (ms) =>"
    error = symbol(parsed, "class", "ChargeFailedError")
    describe = symbol(parsed, "method", "ChargeFailedError.describe")
    assert describe.parent_uid == error.uid and describe.doc == "A short description for logs."
    found = calls(parsed)
    assert {
        ("retryFailedCharge", "charge"),
        ("retryFailedCharge", "sleep"),
        ("retryFailedCharge", "computeBackoff"),
        ("retryFailedCharge", "ChargeFailedError"),  # `new ChargeFailedError(...)`
        ("charge", "gateway.post"),
        ("charge", "log.info"),
        ("loadConfig", "fs.readFileSync"),
    } <= found
    assert ("billing", "require") not in found  # require() is an import, not a call
    assert imports(parsed) == {
        ("./backoff.js", "computeBackoff"),
        ("./backoff.js", "MAX_ATTEMPTS"),
        ("./log.js", "log"),
        ("./gateway.js", "Gateway"),
        ("fs", "fs"),
    }
    assert bases(parsed) == {("ChargeFailedError", "inherits", "Error")}
    # `const fs = require("fs")` is an import, as an `import` statement is: the module owns it, and
    # it is no constant definition (such lines filled the top of a search for the file).
    assert ("constant", "fs") not in by_qualified(parsed)
    module = symbol(parsed, "module", "billing")
    assert [ref.src_uid for ref in parsed.refs if ref.target == "fs"] == [module.uid]
    backoff = parse("js/backoff.js")
    assert [(node.kind, node.name, node.signature) for node in backoff.nodes if node.kind == "constant"] == [
        ("constant", "MAX_ATTEMPTS", "const MAX_ATTEMPTS = 5"),
        ("constant", "BASE_DELAY_MS", "const BASE_DELAY_MS = 2000"),
    ]


def test_typescript() -> None:
    parsed = parse("ts/gateway.ts")
    interface = symbol(parsed, "interface", "PaymentGateway")
    assert interface.doc == "A payment processor that can charge and refund."
    assert "refund(receiptId: string): Promise<void>;" in interface.text  # the container still shows it
    refund = symbol(parsed, "method", "PaymentGateway.refund")  # and it is a node of its own
    assert (refund.signature, refund.parent_uid) == (
        "refund(receiptId: string): Promise<void>",
        interface.uid,
    )
    assert symbol(parsed, "method", "PaymentGateway.charge").parent_uid == interface.uid
    post = symbol(parsed, "method", "BaseGateway.post")  # an abstract method
    assert post.signature == "protected abstract post(path: string, body: object): Promise<Receipt>"
    assert post.parent_uid == symbol(parsed, "class", "BaseGateway").uid
    assert symbol(parsed, "enum", "ChargeStatus").signature == "enum ChargeStatus"
    assert symbol(parsed, "class", "BaseGateway").signature == "abstract class BaseGateway"
    stripe = symbol(parsed, "class", "StripeGateway")
    assert stripe.signature == "class StripeGateway extends BaseGateway implements PaymentGateway"
    charge = symbol(parsed, "method", "StripeGateway.charge")
    assert charge.signature == "async charge(customerId: string, amountCents: number): Promise<Receipt>"
    assert charge.doc == "Charge a customer, retrying on network errors."
    assert charge.parent_uid == stripe.uid
    assert bases(parsed) == {
        ("StripeGateway", "inherits", "BaseGateway"),
        ("StripeGateway", "implements", "PaymentGateway"),
    }
    assert ("StripeGateway.charge", "this.post") in calls(parsed)
    assert ("StripeGateway.charge", "computeBackoff") in calls(parsed)
    assert imports(parsed) == {("./retry", "computeBackoff"), ("./config", "Config")}

    retry = parse("ts/retry.ts")
    # Overload signatures are the implementation's: one node from the first signature to the body.
    overloads = by_qualified(retry)[("function", "formatAmount")]
    assert [(node.signature, node.start_line, node.end_line) for node in overloads] == [
        ('function formatAmount(cents: number, currency = "EUR"): string', 15, 19),
    ]
    assert "formatAmount" not in symbol(retry, "module", "retry").text
    assert symbol(retry, "constant", "MAX_ATTEMPTS").signature == "const MAX_ATTEMPTS = 5"
    assert ("retryFailedCharge", "scheduleRetry") in calls(retry)
    assert ("scheduleRetry", "computeBackoff") in calls(retry)


def test_tsx_component() -> None:
    parsed = parse("ts/ChargeButton.tsx")
    assert parsed.language == "tsx"
    button = symbol(parsed, "function", "ChargeButton")
    on_click = symbol(parsed, "function", "ChargeButton.onClick")
    assert on_click.parent_uid == button.uid
    assert on_click.signature == "const onClick = async () =>"
    assert ("ChargeButton.onClick", "retryFailedCharge") in calls(parsed)
    assert ("ChargeButton", "useState") in calls(parsed)
    assert imports(parsed) >= {("react", "React"), ("react", "useState"), ("./retry", "retryFailedCharge")}


def test_go() -> None:
    parsed = parse("go/billing/server.go")
    server = symbol(parsed, "struct", "Server")
    assert server.signature == "type Server struct"
    assert server.doc == "Server handles billing HTTP requests."
    handle = symbol(parsed, "method", "Server.Handle")
    assert handle.signature == "func (s *Server) Handle(w http.ResponseWriter, r *http.Request)"
    assert handle.doc.startswith("Handle decodes a charge request")
    assert handle.parent_uid == server.uid  # attached to the receiver's struct in the same file
    gateway = symbol(parsed, "interface", "Gateway")
    assert gateway.signature == "type Gateway interface"
    charge = symbol(parsed, "method", "Gateway.Charge")  # an interface method: no body
    assert charge.parent_uid == gateway.uid
    assert charge.signature == "Charge(customerID string, amountCents int) (string, error)"
    assert ("type", "Gateway") not in by_qualified(parsed)  # an interface, not also a `type`
    assert symbol(parsed, "function", "NewServer").parent_uid == 0
    found = calls(parsed)
    assert {
        ("Server.Handle", "RetryFailedCharge"),
        ("Server.Handle", "s.respond"),
        ("Server.Handle", "http.Error"),
    } <= found
    assert imports(parsed) == {
        ("encoding/json", "json"),
        ("net/http", "http"),
        ("github.com/sirupsen/logrus", "log"),
    }
    retry = parse("go/billing/retry.go")
    assert ("RetryFailedCharge", "ComputeBackoff") in calls(retry)
    assert ("RetryFailedCharge", "g.Charge") in calls(retry)
    # `var ErrExhausted = errors.New(...)` is a constant node with its doc comment; it owns its call.
    exhausted = symbol(retry, "constant", "ErrExhausted")
    assert exhausted.doc == "ErrExhausted is returned when every attempt failed."
    assert (
        exhausted.text
        == '// ErrExhausted is returned when every attempt failed.\nvar ErrExhausted = errors.New("billing: retries exhausted")'
    )
    assert (exhausted.start_line, exhausted.end_line) == (14, 15)
    assert ("ErrExhausted", "errors.New") in calls(retry) and ("retry", "errors.New") not in calls(retry)
    assert "ErrExhausted" not in symbol(retry, "module", "retry").text


def test_java_overloads_and_bases() -> None:
    parsed = parse("java/com/example/billing/BillingService.java")
    service = symbol(parsed, "class", "BillingService")
    assert service.doc == "Charges customers and retries failed charges."
    first, second = by_qualified(parsed)[("method", "BillingService.charge")]
    assert first.uid != second.uid
    assert first.signature == "public Receipt charge(String customerId, long amountCents)"  # past `@Override`
    assert second.signature == "public Receipt charge(String customerId)"
    assert (first.doc, second.doc) == ("Charge a customer once.", "Charge in the default currency.")
    assert symbol(parsed, "method", "BillingService.BillingService").parent_uid == service.uid
    assert bases(parsed) == {
        ("BillingService", "inherits", "AbstractService"),
        ("BillingService", "implements", "ChargeHandler"),
        ("BillingService", "implements", "AutoCloseable"),
    }
    found = calls(parsed)
    assert {
        ("BillingService.retryFailedCharge", "charge"),
        ("BillingService.retryFailedCharge", "Thread.sleep"),
        ("BillingService.retryFailedCharge", "policy.computeBackoff"),
        ("BillingService.retryFailedCharge", "ChargeFailedException"),
        ("BillingService.BillingService", "RetryPolicy"),
    } <= found
    assert imports(parsed) == {
        ("java.time.Duration", "Duration"),
        ("java.util.List", "List"),
        ("java.lang.Math.min", "min"),
    }
    policy = parse("java/com/example/billing/RetryPolicy.java")
    assert symbol(policy, "class", "RetryPolicy").signature == "public record RetryPolicy(int maxAttempts)"
    handler = symbol(policy, "interface", "ChargeHandler")
    handler_charge = symbol(policy, "method", "ChargeHandler.charge")  # no body, still a node
    assert handler_charge.parent_uid == handler.uid
    assert handler_charge.signature == "Receipt charge(String customerId, long amountCents)"
    assert (handler_charge.start_line, handler_charge.end_line) == (14, 14)
    assert "Receipt charge(String customerId, long amountCents);" in handler.text
    assert (
        symbol(policy, "method", "ChargeStatus.isFinal").parent_uid
        == symbol(policy, "enum", "ChargeStatus").uid
    )


def test_rust() -> None:
    parsed = parse("rust/src/lib.rs")
    trait = symbol(parsed, "trait", "Gateway")
    assert trait.doc == "A payment processor that can charge a customer."
    error = symbol(parsed, "enum", "ChargeError")
    assert error.doc == "Why a charge failed."
    # The doc comment, then the attributes, then the item: all one node.
    assert error.text.startswith("/// Why a charge failed.\n#[derive(Debug)]\npub enum ChargeError")
    trait_charge = symbol(parsed, "method", "Gateway.charge")  # a trait method without a body
    assert trait_charge.parent_uid == trait.uid
    assert trait_charge.doc == "Charge `amount_cents` and return a receipt id."
    assert trait_charge.signature == (
        "fn charge(&mut self, customer_id: &str, amount_cents: u64) -> Result<String, ChargeError>"
    )
    assert trait_charge.text.startswith("/// Charge `amount_cents` and return a receipt id.\n    fn charge(")
    memory = symbol(parsed, "struct", "MemoryGateway")
    new = symbol(parsed, "method", "MemoryGateway.new")
    assert new.parent_uid == memory.uid and new.signature == "pub fn new() -> Self"
    assert new.doc == "Create an empty gateway."
    assert symbol(parsed, "method", "ChargeError.fmt").parent_uid == error.uid
    assert bases(parsed) == {
        ("MemoryGateway", "implements", "Gateway"),
        ("ChargeError", "implements", "Display"),
    }
    assert {("MemoryGateway.new", "HashMap.new"), ("MemoryGateway.charge", "Policy.default")} <= calls(parsed)
    assert ("MemoryGateway.charge", "compute_backoff") in calls(parsed)
    assert imports(parsed) == {
        ("retry", "retry"),
        ("std.collections.HashMap", "HashMap"),
        ("std.fmt", "fmt"),
        ("std.fmt.Display", "Display"),
        ("crate.retry.compute_backoff", "compute_backoff"),
        ("crate.retry.RetryPolicy", "Policy"),
    }
    targets = {ref.target for ref in parsed.refs}
    assert "write" not in targets  # macros are not calls
    retry = parse("rust/src/retry.rs")
    assert ("retry_failed_charge", "compute_backoff") in calls(retry)
    assert ("retry_failed_charge", "std.thread.sleep") in calls(retry)


def test_c() -> None:
    parsed = parse("c/billing.c")
    backoff = symbol(parsed, "function", "compute_backoff")
    assert backoff.signature == "long compute_backoff(int attempt, long base_ms)"
    assert backoff.doc == "Delay before the given attempt, doubled per attempt\nand capped at five minutes."
    assert symbol(parsed, "function", "charge").doc == "Send one charge to the gateway."
    found = calls(parsed)
    assert {
        ("retry_failed_charge", "charge"),
        ("retry_failed_charge", "compute_backoff"),
        ("charge", "printf"),
    } <= found
    assert imports(parsed) == {("stdio.h", ""), ("unistd.h", ""), ("billing.h", "")}
    delay = symbol(parsed, "constant", "MAX_DELAY_MS")  # `#define MAX_DELAY_MS 300000L`
    assert (delay.signature, delay.start_line, delay.end_line) == ("#define MAX_DELAY_MS 300000L", 5, 5)
    assert "MAX_DELAY_MS" not in symbol(parsed, "module", "billing").text
    header = parse("c/billing.h")
    assert symbol(header, "struct", "charge_request").doc == "A charge request sent to the gateway."
    assert symbol(header, "enum", "charge_status").signature == "typedef enum charge_status"


def test_c_header_prototypes_are_nodes() -> None:
    header = parse("c/billing.h")
    backoff = symbol(header, "function", "compute_backoff")
    assert (backoff.signature, backoff.start_line) == ("long compute_backoff(int attempt, long base_ms)", 15)
    assert symbol(header, "function", "retry_failed_charge").start_line == 16
    assert "compute_backoff" not in symbol(header, "module", "billing").text
    assert ("constant", "BILLING_H") not in by_qualified(header)  # the guard names no constant


def test_cpp_namespaces_and_out_of_class_methods() -> None:
    header = parse("cpp/gateway.hpp")
    stripe = symbol(header, "class", "billing.StripeGateway")
    assert stripe.name == "StripeGateway" and stripe.doc == "Gateway backed by Stripe."
    sent = symbol(header, "method", "billing.StripeGateway.sent")
    assert sent.parent_uid == stripe.uid and sent.signature == "int sent() const"
    assert bases(header) == {("billing.StripeGateway", "inherits", "Gateway")}
    source = parse("cpp/gateway.cpp")
    charge = symbol(source, "method", "billing.StripeGateway.charge")
    assert charge.name == "charge"
    assert charge.doc == "Charge through Stripe and count the request."
    assert (
        charge.signature
        == "std::string StripeGateway::charge(const std::string& customer_id, long amount_cents)"
    )
    assert (
        symbol(source, "function", "billing.compute_backoff").doc
        == "Delay before `attempt`, doubled per attempt and capped."
    )
    found = calls(source)
    assert {
        ("billing.retry_failed_charge", "gateway.charge"),
        ("billing.retry_failed_charge", "compute_backoff"),
        ("billing.retry_failed_charge", "std.make_unique"),
        ("billing.retry_failed_charge", "fallback.charge"),
        ("billing.compute_backoff", "std.min"),
    } <= found
    assert ("gateway.hpp", "") in imports(source)


def test_csharp() -> None:
    parsed = parse("csharp/BillingService.cs")
    service = symbol(parsed, "class", "Billing.Services.BillingService")
    assert service.doc == "Charges customers and retries failed charges."  # <summary> tags stripped
    charge = symbol(parsed, "method", "Billing.Services.BillingService.ChargeAsync")
    assert charge.signature == "public Task<string> ChargeAsync(string customerId, long amountCents)"
    assert charge.parent_uid == service.uid
    backoff = symbol(parsed, "method", "Billing.Services.RetryPolicy.ComputeBackoff")
    assert backoff.signature == "public static int ComputeBackoff(int attempt)"  # expression-bodied
    assert symbol(parsed, "struct", "Billing.Services.Money")
    assert symbol(parsed, "enum", "Billing.Services.ChargeStatus")
    assert bases(parsed) == {
        ("Billing.Services.BillingService", "inherits", "ServiceBase"),
        ("Billing.Services.BillingService", "implements", "IPaymentGateway"),
        ("Billing.Services.BillingService", "implements", "IDisposable"),
    }
    found = calls(parsed)
    assert {
        ("Billing.Services.BillingService.RetryFailedChargeAsync", "ChargeAsync"),
        ("Billing.Services.BillingService.RetryFailedChargeAsync", "RetryPolicy.ComputeBackoff"),
        ("Billing.Services.BillingService.RetryFailedChargeAsync", "ChargeFailedException"),
        ("Billing.Services.BillingService.ChargeAsync", "_gateway.ChargeAsync"),
    } <= found
    assert imports(parsed) == {
        ("System", ""),
        ("System.Threading.Tasks", ""),
        ("Billing.Logging.Logger", "Log"),
    }


def test_ruby() -> None:
    parsed = parse("ruby/billing.rb")
    service = symbol(parsed, "class", "Billing.Service")
    assert service.doc == "Charges customers through a gateway."
    charge = symbol(parsed, "method", "Billing.Service.charge")
    assert charge.signature == "def charge(customer_id, amount_cents)"
    assert charge.doc == "Charge a customer once and return the receipt id."
    assert charge.parent_uid == service.uid
    backoff = symbol(parsed, "method", "Billing.Service.compute_backoff")
    assert backoff.signature == "def self.compute_backoff(attempt)"
    billing = symbol(parsed, "class", "Billing")  # a module is a container of methods and constants
    assert billing.doc == "Billing charges customers and retries failed charges."
    assert symbol(parsed, "method", "Billing.load_config").parent_uid == billing.uid  # `def self.load_config`
    assert symbol(parsed, "constant", "Billing.MAX_ATTEMPTS").signature == "MAX_ATTEMPTS = 5"
    assert service.parent_uid == billing.uid
    error = symbol(parsed, "class", "Billing.ChargeFailedError")
    assert error.signature == "class ChargeFailedError < StandardError"
    assert bases(parsed) == {("Billing.ChargeFailedError", "inherits", "StandardError")}
    found = calls(parsed)
    assert {
        ("Billing.Service.retry_failed_charge", "charge"),
        ("Billing.Service.retry_failed_charge", "Service.compute_backoff"),
        ("Billing.Service.charge", "gateway.post"),
        ("Billing.load_config", "JSON.parse"),
    } <= found
    assert imports(parsed) == {("json", ""), ("gateway", "")}
    assert "require" not in {target for _, target in found}


def test_php() -> None:
    parsed = parse("php/BillingService.php")
    service = symbol(parsed, "class", "App.Billing.BillingService")
    assert service.doc == "Charges customers and retries failed charges."
    charge = symbol(parsed, "method", "App.Billing.BillingService.charge")
    assert charge.signature == "public function charge(string $customerId, int $amountCents): string"
    assert charge.parent_uid == service.uid
    assert symbol(parsed, "trait", "App.Billing.Loggable")
    assert symbol(parsed, "function", "App.Billing.format_amount").parent_uid == 0
    handler_charge = symbol(parsed, "method", "App.Billing.ChargeHandler.charge")  # bodiless
    assert handler_charge.parent_uid == symbol(parsed, "interface", "App.Billing.ChargeHandler").uid
    assert handler_charge.signature == "public function charge(string $customerId, int $amountCents): string"
    assert bases(parsed) == {
        ("App.Billing.BillingService", "inherits", "BaseService"),
        ("App.Billing.BillingService", "implements", "ChargeHandler"),
        ("App.Billing.BillingService", "implements", "\\Countable"),  # written `\Countable`: PHP's own
    }
    found = calls(parsed)
    assert {
        ("App.Billing.BillingService.retryFailedCharge", "this.charge"),
        ("App.Billing.BillingService.retryFailedCharge", "self.computeBackoff"),
        ("App.Billing.BillingService.retryFailedCharge", "ChargeFailedException"),
        ("App.Billing.BillingService.charge", "this.gateway.post"),
    } <= found
    assert imports(parsed) == {
        ("App.Gateway.PaymentGateway", "PaymentGateway"),
        ("Psr.Log.LoggerInterface", "Logger"),
        ("/helpers.php", ""),
    }


def test_markdown_readme_sections() -> None:
    parsed = parse("README.md")
    assert [node.qualified_name for node in parsed.nodes] == [
        "Polyglot billing",
        "Polyglot billing > Charging",
        "Polyglot billing > Charging > Idempotency keys",
        "Polyglot billing > Retrying failed charges",
        "Polyglot billing > Configuration",
        "Languages",
    ]
    assert {node.kind for node in parsed.nodes} == {"section"}
    retrying = symbol(parsed, "section", "Polyglot billing > Retrying failed charges")
    assert "# Not a heading" in retrying.text  # a fenced code block does not split the section
    assert retrying.parent_uid == symbol(parsed, "section", "Polyglot billing").uid


def test_text_files_are_chunks() -> None:
    for rel in ("NOTES.txt", "billing.toml"):
        parsed = parse(rel)
        assert parsed.language == "text"
        assert [(node.kind, node.name, node.part) for node in parsed.nodes] == [("chunk", Path(rel).name, 0)]
        assert parsed.nodes[0].text == (ROOT / rel).read_text().rstrip("\n")
