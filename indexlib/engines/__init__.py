"""The adapters of third-party engines: each engine (tantivy, usearch, onnxruntime and tokenizers,
tree-sitter) is imported by exactly one module here, so a version's pitfalls are handled in one place.
"""
