"""The write path: a tree on disk -> discovered files -> redacted, parsed nodes and references -> segments
and publish roots in the store, then vectors.
"""
