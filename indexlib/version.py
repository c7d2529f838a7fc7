"""qry's version: a leaf module, so the write path can record it without importing the public API.

Owns: `__version__` (re-exported by `indexlib/__init__.py`, written into every manifest).
Does not own: the on-disk format version (`indexlib/store/manifest.py`).
"""

from __future__ import annotations

__version__ = "0.1.0"
