"""`python -m cli ...` runs qry."""

from cli.entry import run

run()
