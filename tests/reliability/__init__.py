"""Reliability tests: crash and kill safety, concurrency, integrity, hostile input, secrets, bounds."""
