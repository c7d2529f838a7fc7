"""How many arguments a declaration admits (graph/callarity.py)."""

from __future__ import annotations

import pytest

from indexlib.graph.callarity import parameter_range, ruby_range


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        ("public Element text(String text) {", (1, 1)),
        ("public String text()", (0, 0)),
        ("void f(int a, int b = 2)", (1, 2)),  # a default
        ("static String join(String sep, String... parts)", (1, None)),  # Java varargs
        ("public static string Join(string sep, params string[] parts)", (1, None)),  # C# params
        ("int f(void);", (0, 0)),
        ("public static int Count<T>(this IEnumerable<T> xs, Func<T, bool> p)", (1, 2)),  # an extension
        ("Map<String, List<Integer>> group(Map<String, Integer> in, int n)", (2, 2)),  # generics' commas
        ('void g(@Named("a, b") String s)', (1, 1)),
        ("void h(String a,", None),  # the list goes on past the signature: anything is admitted
        ("class Foo", None),
        ("fun <T> retry(times: Int, block: (T) -> Unit)", (2, 2)),  # a Kotlin function type's arrow
        ("fun <T> adapter( type: Type, vararg names: String, ): Json<T>", (1, None)),  # Kotlin vararg
        ("fun of(vararg names: String, strict: Boolean = false)", (0, None)),  # a vararg not last
        ("fun f(cb: () -> Unit = {}, n: Int)", (1, 2)),
    ],
)
def test_the_arguments_a_parameter_list_admits(
    signature: str, expected: tuple[int, int | None] | None
) -> None:
    assert parameter_range(signature) == expected


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        ("def process", (0, 0, False)),
        ("def process(options)", (1, 1, False)),
        ("def error(topic, message = nil, &block)", (1, 2, False)),
        ("def m(a, b = 1, *c, d:, e: 2, **f, &g)", (1, None, True)),
        ("def self.slugify(string, mode: nil, cased: false)", (1, 1, True)),
        ("def ==(other)", (1, 1, False)),
        ("def url=(value)", (1, 1, False)),
        ("def each(...)", (0, None, True)),
        ("def o a, b", None),  # parameters without parentheses: not read
        ("attr_reader :config, :dest", None),  # a method made by a macro
    ],
)
def test_the_positional_arguments_a_ruby_method_admits(
    signature: str, expected: tuple[int, int | None, bool] | None
) -> None:
    assert ruby_range(signature) == expected
