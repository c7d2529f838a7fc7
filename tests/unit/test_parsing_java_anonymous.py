"""A Java field's anonymous class and an enum constant's body name their methods (parser 37): on
gson, `TypeAdapters`'s forty adapters (`BIT_SET = new TypeAdapter<BitSet>() {..}.nullSafe()`) made
forty nodes all named `TypeAdapters.read`, and each `LongSerializationPolicy` constant's
`serialize` was one more `LongSerializationPolicy.serialize` beside the enum's own."""

from __future__ import annotations

from indexlib.index.parsing import parse_file
from tests.parsekit import kinds

SOURCE = b"""package a;

public final class Adapters {
  public static final Adapter<Bits> BITS =
      new Adapter<Bits>() {
        @Override
        public Bits read(Reader in) {
          return helper(in);
        }
      }.nullSafe();

  public static final Adapter<Flag> FLAG = new Adapter<Flag>() {
    @Override
    public Flag read(Reader in) { return null; }
  };

  private static final int LIMIT = 3;

  static Bits helper(Reader in) { return null; }

  void run() {
    Runnable r = new Runnable() {
      public void run() {}
    };
  }
}

interface Holder {
  Comparator<String> ORDER = new Comparator<String>() {
    public int compare(String a, String b) { return 0; }
  };
}

enum Policy {
  DEFAULT {
    @Override
    int apply(int x) { return x; }
  },
  PLAIN,
  TWICE() {
    @Override
    int apply(int x) { return 2 * x; }
  };

  abstract int apply(int x);
}
"""


def test_a_fields_anonymous_class_and_an_enum_constants_body_qualify_their_methods() -> None:
    parsed = parse_file("src/a/Adapters.java", SOURCE, "java")
    assert kinds(parsed) == [
        ("class", "Adapters"),
        ("method", "Adapters.BITS.read"),
        ("method", "Adapters.FLAG.read"),
        ("method", "Adapters.helper"),
        ("method", "Adapters.run"),
        ("function", "Adapters.run.run"),  # a local's anonymous class: its method's, as before
        ("interface", "Holder"),
        ("method", "Holder.ORDER.compare"),
        ("enum", "Policy"),
        ("method", "Policy.DEFAULT.apply"),
        ("method", "Policy.TWICE.apply"),
        ("method", "Policy.apply"),
    ]
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    # Still members of the class around them: `helper(in)` is the outer class's method.
    parents = {n.qualified_name: names.get(n.parent_uid) for n in parsed.nodes}
    assert parents["Adapters.BITS.read"] == "Adapters"
    assert parents["Policy.TWICE.apply"] == "Policy"
