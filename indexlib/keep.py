"""How much publish history an index keeps: the one place for both numbers. Pure, imports nothing.

Why a module of its own: `qry gc --keep`'s default is read when the CLI builds its options, on the
path of `qry --help`, which must not load the store (store/gc.py applies these numbers).
"""

# `qry gc`'s default: the index runs it keeps (a run with vectors is two roots).
KEEP_RUNS = 5
# The index runs a build keeps once the index holds more than twice as many roots (`gc.trim`): twice
# `qry gc`'s, so `--root` reaches at least the last ten runs and a full rewrite's copies are bounded.
AUTO_KEEP_RUNS = 10
