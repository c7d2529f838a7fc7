"""How many arguments a declaration admits (graph/callarity.py)."""

from __future__ import annotations

import pytest

from indexlib.graph.callarity import parameter_range


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
