/**
 * A ZIP archive of a few files, deflated by the browser's own CompressionStream: what the XLSX export needs. A
 * ZIP library (fflate) built its Huffman and CRC tables when the page's script loaded, 6–40 ms before every
 * first card (measured in Chromium, issue 13); here the CRC table is built on the first export.
 */

let crcTable: Uint32Array | null = null;

/** CRC-32 (IEEE, as ZIP uses it). @example crc32(new TextEncoder().encode('123456789')) // 0xcbf43926 */
export function crc32(data: Uint8Array): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** 1980-01-01 00:00 in MS-DOS form: a fixed time, so the same content gives the same bytes. */
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;
/** General-purpose flag 11: names are UTF-8. */
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;

/**
 * Zips `files` (path → bytes), each deflated, in the order given.
 * @example await zipFiles({ 'a.txt': new TextEncoder().encode('hi') }) // Uint8Array starting with "PK\x03\x04"
 */
export async function zipFiles(files: Readonly<Record<string, Uint8Array>>): Promise<Uint8Array> {
  const entries = await Promise.all(
    Object.entries(files).map(async ([path, data]) => ({
      name: new TextEncoder().encode(path),
      data: await deflateRaw(data),
      crc: crc32(data),
      size: data.length,
    })),
  );
  const local = entries.reduce((n, e) => n + 30 + e.name.length + e.data.length, 0);
  const central = entries.reduce((n, e) => n + 46 + e.name.length, 0);
  const out = new Uint8Array(local + central + 22);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (v: number) => {
    view.setUint16(at, v, true);
    at += 2;
  };
  const u32 = (v: number) => {
    view.setUint32(at, v, true);
    at += 4;
  };
  const bytes = (b: Uint8Array) => {
    out.set(b, at);
    at += b.length;
  };
  const offsets: number[] = [];
  for (const e of entries) {
    offsets.push(at);
    u32(0x04034b50);
    u16(20);
    u16(UTF8_NAMES);
    u16(DEFLATE);
    u16(DOS_TIME);
    u16(DOS_DATE);
    u32(e.crc);
    u32(e.data.length);
    u32(e.size);
    u16(e.name.length);
    u16(0);
    bytes(e.name);
    bytes(e.data);
  }
  entries.forEach((e, i) => {
    u32(0x02014b50);
    u16(20);
    u16(20);
    u16(UTF8_NAMES);
    u16(DEFLATE);
    u16(DOS_TIME);
    u16(DOS_DATE);
    u32(e.crc);
    u32(e.data.length);
    u32(e.size);
    u16(e.name.length);
    u16(0);
    u16(0);
    u16(0);
    u16(0);
    u32(0);
    u32(offsets[i]!);
    bytes(e.name);
  });
  u32(0x06054b50);
  u16(0);
  u16(0);
  u16(entries.length);
  u16(entries.length);
  u32(central);
  u32(local);
  u16(0);
  return out;
}
