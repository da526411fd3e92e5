"""TEST STAND-IN for pyarrow.parquet: read_table(path).to_pylist() through hyparquet (see __init__.py)."""
import json
import os
import subprocess

_READER = os.environ["NEWS_TEST_PARQUET_READER"]


class Table:
    def __init__(self, rows, columns):
        self._rows = rows
        self.column_names = columns
        self.num_rows = len(rows)

    def to_pylist(self):
        return [dict(r) for r in self._rows]


def read_table(source, columns=None):
    out = subprocess.run(["node", _READER, str(source)], check=True, capture_output=True)
    parsed = json.loads(out.stdout.decode("utf-8"))
    rows = parsed["rows"]
    names = parsed["columns"] if columns is None else list(columns)
    if columns is not None:
        rows = [{c: r.get(c) for c in columns} for r in rows]
    return Table(rows, names)
