"""Bounded fuzzing of the query parsers (run in CI within a fixed time budget)."""
