"""The source router: which repositories of a workspace a question is about (profile.py, score.py)."""
