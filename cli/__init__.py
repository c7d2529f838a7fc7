"""qry's command-line face: a thin Typer app over `indexlib`'s public API."""
