// Decodes one Parquet file with hyparquet and prints {columns, rows} as JSON (INT64 as JSON numbers when safe).
// Used only by the test stand-in for pyarrow (python/pyarrow/parquet.py).
import { readFile } from 'node:fs/promises';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';

const buf = await readFile(process.argv[2]);
const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
const columns = parquetSchema(parquetMetadata(file)).children.map((c) => c.element.name);
const rows = await parquetReadObjects({ file });
const json = JSON.stringify({ columns, rows }, (_k, v) =>
  typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v,
);
process.stdout.write(json);
