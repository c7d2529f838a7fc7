"""CLI tests: goldens, JSON schema, exit codes, help and docs of `qry`."""
