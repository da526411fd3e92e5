"""TEST STAND-IN for pyarrow, which Debian 12 does not package and PyPI is not reachable here.

It provides only what the retrieval recipe imports: pyarrow.parquet.read_table(path).to_pylist(). The Parquet file
is decoded by the hyparquet JavaScript library (read-parquet.mjs) in a Node.js child process. Everything else the
recipe does (HTTP, pinning, manifests, verification) runs unchanged. Never install this outside the tests.
"""
