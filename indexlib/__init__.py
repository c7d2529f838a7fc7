"""qry's library: index a repository into content-addressed segments and search it.

The public API is `__all__`; the CLI and the MCP server use nothing else.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
