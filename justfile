# qry's recipes. `just` with no arguments lists them.

default:
    @just --list

# Run the whole test suite (unit, integration with the real model, CLI goldens).
test *ARGS:
    python -m pytest {{ARGS}}

# Fast unit tests only.
unit:
    python -m pytest tests/unit

# Lint and type-check.
lint:
    ruff check .
    ruff format --check cli indexlib
    mypy

# Format the code.
fmt:
    ruff format cli indexlib tests bench
    ruff check --fix .

# Benchmarks: index/query timings next to ripgrep, model throughput (writes docs/benchmarks.md parts).
bench:
    python bench/run_all.py

# Retrieval evaluation: recall@k, MRR, nDCG per mode and signal ablation.
eval:
    python bench/eval/run.py

# Check that docs/cli.md matches `qry --help`.
docs:
    python -m pytest tests/cli/test_docs.py

# Development evaluation (../shared/deveval, 900 queries over five real repositories): per-kind MRR next
# to the bm25 reference, written into docs/benchmarks.md. MIRRORS holds git mirrors of the five corpora.
deveval MIRRORS *ARGS:
    python bench/deveval.py --from-git {{MIRRORS}} {{ARGS}}
