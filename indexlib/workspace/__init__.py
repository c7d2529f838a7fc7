"""Workspaces: several qry indexes searched as one (config in config.py, fan-out and merge in federate.py)."""
