import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createShardWriter, indexCompressedShard, openShard, ShardFormatError } from '../index.ts';
import {
  bwtBlocks,
  CFILES,
  chunkStartEntries,
  CHUNK_COUNTS_FILE,
  COMPACT_SAMPLE_CHUNKS,
  COMPRESSED_FORMAT_VERSION,
  DOC_GAPS_FILE,
  DOC_GAPS_MIN_VERSION,
  FROM_INDEX,
  HYBRID_BITS_FILE,
  PACKED_TABLES_MIN_VERSION,
  readCompressedHeader,
  type DataFile,
} from './format.ts';
import { readShardTable } from './open.ts';
import { packTable, unpackTable, type PackedTablesInfo, type TableCodec } from './packed-tables.ts';
import { decodeChunkCounts, decodeDocGaps } from './varint-gaps.ts';
import { blockTree } from './huffman.ts';
import { blockChunks, blockWords, chunkBytes, encodeHybrid, RankBits } from './rank-bits.ts';
import { RRR } from './rrr-chunk.ts';
import { decodeBlockSymbols, decodeChunkStarts, encodeChunkStarts } from './stored-tables.ts';
import { BROTLI_FALLBACK, loadZstd } from './text-codec.ts';

const root = mkdtempSync(path.join(tmpdir(), 'compressed-format-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function shardWithRate(name: string, sampleRate: number): Promise<string> {
  const dir = path.join(root, name);
  const writer = createShardWriter(dir);
  for (let d = 0; d < 30; d++) writer.append(Buffer.from(`article ${d}: sampled every ${sampleRate} positions`));
  await writer.finish();
  // brotli text, so that the shard can be rewritten as versions 1–3 (the zstd-dict codec has its own tests)
  await indexCompressedShard(
    dir,
    {},
    { blockSymbols: 64, sampleRate, textBlockBytes: 256, brotliQuality: 1, text: { ...BROTLI_FALLBACK, level: 1 } },
  );
  return dir;
}

/** A shard of biased random letters: dense wavelet bits with few runs, so some chunks are stored as RRR. */
async function denseShard(name: string): Promise<string> {
  const dir = path.join(root, name);
  const writer = createShardWriter(dir);
  let seed = 7;
  const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16;
  for (let d = 0; d < 20; d++)
    writer.append(Buffer.from(Array.from({ length: 400 }, () => 'aaaaaaabbbc'.charCodeAt(next() % 11))));
  await writer.finish();
  await indexCompressedShard(
    dir,
    {},
    {
      blockSymbols: 1024,
      sampleRate: 8,
      textBlockBytes: 1024,
      brotliQuality: 1,
      text: { ...BROTLI_FALLBACK, level: 1 },
    },
  );
  return dir;
}

type HeaderJson = {
  formatVersion: number;
  files: Record<string, { name: string; bytes: number; sha256: string }>;
  packedTables?: PackedTablesInfo;
};
/** Positions as `docs.u64` stores them (u64 LE). */
function u64Table(positions: Float64Array): Buffer {
  const out = Buffer.alloc(positions.length * 8);
  positions.forEach((p, i) => out.writeBigUInt64LE(BigInt(p), i * 8));
  return out;
}
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Rewrites a version-8 shard's packed tables (header `packedTables`) with `codec`, or unpacked as version 7 stores them. */
async function repackTables(dir: string, codec: TableCodec | undefined): Promise<void> {
  const file = path.join(dir, 'header.json');
  const header = JSON.parse(readFileSync(file, 'utf8')) as HeaderJson;
  const packed = header.packedTables;
  if (packed === undefined) return;
  for (const [key, bytes] of Object.entries(packed.bytes)) {
    const entry = header.files[key]!;
    const raw = unpackTable(readFileSync(path.join(dir, entry.name)), packed.codec, bytes);
    const stored = codec === undefined ? raw : await packTable(raw, codec, key as DataFile);
    writeFileSync(path.join(dir, entry.name), stored);
    header.files[key] = { name: entry.name, bytes: stored.length, sha256: sha256(stored) };
  }
  if (codec === undefined) {
    delete header.packedTables;
    header.formatVersion = 7;
  } else header.packedTables = { ...packed, codec };
  writeFileSync(file, JSON.stringify(header, null, 2));
}

/**
 * Rewrites a version-7 shard's varint tables as versions 1–6 store them: the document table as u64 positions in
 * `docs.u64`, the sample chunk starts as version 3's `sa-chunks.bin`.
 */
async function storeAsVersion6Files(dir: string): Promise<void> {
  await repackTables(dir, undefined);
  const file = path.join(dir, 'header.json');
  const header = JSON.parse(readFileSync(file, 'utf8')) as {
    textBytes: number;
    docCount: number;
    files: Record<string, { name: string }>;
  };
  if (header.files['docOffsets']?.name !== DOC_GAPS_FILE) return;
  const put = (key: string, from: string, name: string, bytes: Uint8Array): void => {
    rmSync(path.join(dir, from));
    writeFileSync(path.join(dir, name), bytes);
    header.files[key] = { name, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') } as {
      name: string;
    };
  };
  const read = (name: string): Buffer => readFileSync(path.join(dir, name));
  put(
    'docOffsets',
    DOC_GAPS_FILE,
    CFILES.docOffsets,
    u64Table(decodeDocGaps(read(DOC_GAPS_FILE), header.docCount, header.textBytes)),
  );
  const starts = decodeChunkCounts(read(CHUNK_COUNTS_FILE), chunkStartEntries(header.textBytes));
  put('sampleChunks', CHUNK_COUNTS_FILE, COMPACT_SAMPLE_CHUNKS, encodeChunkStarts(starts));
  writeFileSync(file, JSON.stringify(header, null, 2));
}

async function withVersion(dir: string, version: number): Promise<void> {
  if (version < PACKED_TABLES_MIN_VERSION) await repackTables(dir, undefined);
  if (version < DOC_GAPS_MIN_VERSION) await storeAsVersion6Files(dir);
  const file = path.join(dir, 'header.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/"formatVersion": \d+/, `"formatVersion": ${version}`));
}

/** Bits per block of a shard's symbol table. */
const blockBitCounts = (table: { counts: Uint16Array; lengths: Uint8Array }, blocks: number): number[] =>
  Array.from(
    { length: blocks },
    (_, b) =>
      blockTree(table.lengths.subarray(b * 256, (b + 1) * 256), table.counts.subarray(b * 256, (b + 1) * 256)).bits,
  );

/** The plain words (versions 1–3, 128-bit aligned blocks) of a version-5 hybrid stream, read bit by bit. */
function plainWords(stream: Uint8Array, blockBits: number[]): Uint32Array {
  const ranks = new RankBits(stream, blockBits.map(blockChunks), true);
  const words = new Uint32Array(blockBits.reduce((n, bits) => n + blockWords(bits), 0));
  let base = 0;
  let word = 0;
  for (const bits of blockBits) {
    for (let i = 0; i < bits; i++) if (ranks.rankBit(base, i) & 1) words[word + (i >>> 5)]! |= 1 << (i & 31);
    base += blockChunks(bits);
    word += blockWords(bits);
  }
  return words;
}

/** Rewrites a version-5 shard as version 4 stores it: its hybrid stream without RRR chunks. */
async function storeAsVersion4(dir: string): Promise<void> {
  await storeAsVersion6Files(dir);
  const headerFile = path.join(dir, 'header.json');
  const header = JSON.parse(readFileSync(headerFile, 'utf8')) as {
    textBytes: number;
    blockSymbols: number;
    files: Record<string, unknown>;
  };
  const stream = readFileSync(path.join(dir, HYBRID_BITS_FILE));
  const blockBits = blockBitCounts(
    decodeBlockSymbols(readFileSync(path.join(dir, CFILES.symbols)), bwtBlocks(header.textBytes, header.blockSymbols)),
    bwtBlocks(header.textBytes, header.blockSymbols),
  );
  const v4 = encodeHybrid(plainWords(stream, blockBits), blockBits, false);
  writeFileSync(path.join(dir, HYBRID_BITS_FILE), v4);
  header.files['bits'] = {
    name: HYBRID_BITS_FILE,
    bytes: v4.length,
    sha256: createHash('sha256').update(v4).digest('hex'),
  };
  writeFileSync(headerFile, JSON.stringify({ ...header, formatVersion: 4 }));
}

/** Headers of the chunks of a hybrid stream. */
function chunkHeaders(dir: string): number[] {
  const stream = readShardTable(dir, readCompressedHeader(dir), 'bits');
  const out: number[] = [];
  for (let at = 0; at < stream.length; at += chunkBytes(stream, at, true)) out.push(stream[at] as number);
  return out;
}

/** Rewrites a version-4 shard as versions 1–2 store it: symbol table and chunk starts as they lie in RAM. */
async function storeAsVersion(dir: string, version: 1 | 2): Promise<void> {
  await storeAsVersion6Files(dir);
  const headerFile = path.join(dir, 'header.json');
  const header = JSON.parse(readFileSync(headerFile, 'utf8')) as {
    textBytes: number;
    blockSymbols: number;
    files: Record<string, unknown>;
  };
  const read = (name: string): Buffer => readFileSync(path.join(dir, name));
  const table = decodeBlockSymbols(read(CFILES.symbols), bwtBlocks(header.textBytes, header.blockSymbols));
  const starts = decodeChunkStarts(read(COMPACT_SAMPLE_CHUNKS), chunkStartEntries(header.textBytes));
  const put = (key: string, name: string, bytes: Uint8Array): void => {
    writeFileSync(path.join(dir, name), bytes);
    header.files[key] = { name, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  };
  put('counts', CFILES.counts, new Uint8Array(table.counts.buffer));
  put('lengths', CFILES.lengths, table.lengths);
  put('sampleChunks', CFILES.sampleChunks, new Uint8Array(starts.buffer));
  put(
    'bits',
    CFILES.bits,
    new Uint8Array(
      plainWords(read(HYBRID_BITS_FILE), blockBitCounts(table, bwtBlocks(header.textBytes, header.blockSymbols)))
        .buffer,
    ),
  );
  rmSync(path.join(dir, HYBRID_BITS_FILE));
  delete header.files['symbols'];
  rmSync(path.join(dir, CFILES.symbols));
  rmSync(path.join(dir, COMPACT_SAMPLE_CHUNKS));
  writeFileSync(headerFile, JSON.stringify({ ...header, formatVersion: version }));
}

const refusal = (dir: string): unknown => {
  try {
    openShard(dir, 'memory').close();
    return undefined;
  } catch (e) {
    return e;
  }
};

describe('compressed format versions', () => {
  it('writes version 8 (packed tables; document table as varint gaps, hybrid wavelet bits with RRR chunks, compact symbol table and chunk starts), with a sample rate that is not a power of two', async () => {
    const dir = await shardWithRate('rate-36', 36);
    expect(JSON.parse(readFileSync(path.join(dir, 'header.json'), 'utf8'))).toMatchObject({
      formatVersion: COMPRESSED_FORMAT_VERSION,
      sampleRate: 36,
    });
    expect(COMPRESSED_FORMAT_VERSION).toBe(8);
    const header = JSON.parse(readFileSync(path.join(dir, 'header.json'), 'utf8')) as HeaderJson;
    expect(header.packedTables?.codec).toBe(loadZstd() === undefined ? 'brotli' : 'zstd');
    expect(Object.keys(header.packedTables?.bytes ?? {}).sort()).toEqual([
      'bits',
      'docOffsets',
      'sampleChunks',
      'symbols',
    ]);
    expect(readdirSync(dir)).toEqual(
      expect.arrayContaining([DOC_GAPS_FILE, CFILES.symbols, CHUNK_COUNTS_FILE, HYBRID_BITS_FILE]),
    );
    expect(readdirSync(dir)).not.toContain(CFILES.docOffsets);
    expect(readdirSync(dir)).not.toContain(COMPACT_SAMPLE_CHUNKS);
    expect(readdirSync(dir)).not.toContain(CFILES.bits);
    expect(readdirSync(dir)).not.toContain(CFILES.counts);
    const reader = openShard(dir, 'memory');
    expect(reader.count(Buffer.from('sampled every'))).toBe(30);
    reader.close();
  });

  it('still reads versions 1 and 2 (tables and plain bits as they lie in RAM), with the same answers', async () => {
    const dir = await shardWithRate('v2-rate-48', 48);
    const v4 = openShard(dir, 'memory');
    const expected = Array.from({ length: v4.stats.textBytes }, (_, rank) => v4.locate(rank).pos);
    v4.close();
    await storeAsVersion(dir, 2);
    const v2 = openShard(dir, 'memory');
    expect(Array.from({ length: v2.stats.textBytes }, (_, rank) => v2.locate(rank).pos)).toEqual(expected);
    expect(v2.count(Buffer.from('article 1'))).toBe(11); // 1, 10–19
    v2.close();
  });

  it('reads version 1 shards (powers of two), and refuses version 1 with another rate', async () => {
    const pow2 = await shardWithRate('v1-rate-16', 16);
    await storeAsVersion(pow2, 1);
    const reader = openShard(pow2, 'memory');
    expect(reader.count(Buffer.from('article 1'))).toBe(11); // 1, 10–19
    reader.close();
    const odd = await shardWithRate('v1-rate-48', 48);
    await storeAsVersion(odd, 1);
    const e = refusal(odd);
    expect(e).toBeInstanceOf(ShardFormatError);
    expect(String(e)).toMatch(/sampleRate 48 is not supported by format version 1/);
  });

  it('refuses a version-2 or -3 header over version-4 files, naming the missing file', async () => {
    const dir = await shardWithRate('v4-as-v2', 36);
    await withVersion(dir, 2);
    expect(String(refusal(dir))).toMatch(/entry for fm-bits.u32 is missing/);
    await withVersion(dir, 3);
    expect(String(refusal(dir))).toMatch(/entry for fm-bits.u32 is missing/);
  });

  it('refuses a version it does not read, saying which it reads', async () => {
    const dir = await shardWithRate('v9', 48);
    await withVersion(dir, 9);
    expect(String(refusal(dir))).toMatch(
      /compressed format version 9, this reader supports 1, 2, 3, 4, 5, 6, 7, 8; rebuild the shard/,
    );
  });

  it('still reads version 7 (tables unpacked) and tables packed with brotli, with the same answers, in both modes', async () => {
    const dir = await denseShard('v7-unpacked');
    const answers = (mode: 'memory' | 'disk'): unknown => {
      const r = openShard(dir, mode);
      const out = {
        docs: Array.from({ length: r.stats.docCount }, (_, d) => r.documentBytes(d).toString()),
        at: Array.from({ length: r.stats.textBytes }, (_, rank) => r.locate(rank)),
        counts: ['ab', 'bba', 'aaaa', 'abcab'].map((q) => r.count(Buffer.from(q))),
      };
      r.close();
      return out;
    };
    const v8 = answers('memory');
    await repackTables(dir, 'brotli');
    expect(answers('memory')).toEqual(v8);
    expect(answers('disk')).toEqual(v8);
    await withVersion(dir, 7);
    expect(JSON.parse(readFileSync(path.join(dir, 'header.json'), 'utf8'))).not.toHaveProperty('packedTables');
    expect(answers('memory')).toEqual(v8);
    expect(answers('disk')).toEqual(v8);
  });

  it('refuses a damaged packed table, or a version-8 header without packedTables, naming the file', async () => {
    const dir = await shardWithRate('damaged-packed', 36);
    const bits = path.join(dir, HYBRID_BITS_FILE);
    const bytes = readFileSync(bits);
    bytes.fill(0x55, Math.floor(bytes.length / 2)); // the frame's second half overwritten; the size stays the header's
    writeFileSync(bits, bytes);
    const e = refusal(dir);
    expect(e).toBeInstanceOf(ShardFormatError);
    expect(String(e)).toMatch(/fm-bits\.hyb: /);
    const file = path.join(dir, 'header.json');
    const header = JSON.parse(readFileSync(file, 'utf8')) as HeaderJson;
    delete header.packedTables;
    writeFileSync(file, JSON.stringify(header));
    expect(String(refusal(dir))).toMatch(/packedTables missing/);
  });

  it('still reads version 6 (the document table in docs.u64) with the same answers, in both modes', async () => {
    const dir = await shardWithRate('v6-docs', 36);
    const answers = (mode: 'memory' | 'disk'): unknown => {
      const r = openShard(dir, mode);
      const out = {
        docs: Array.from({ length: r.stats.docCount }, (_, d) => r.documentBytes(d).toString()),
        at: Array.from({ length: r.stats.textBytes }, (_, rank) => r.locate(rank)),
      };
      r.close();
      return out;
    };
    const v7 = answers('memory');
    await withVersion(dir, 6);
    expect(readdirSync(dir)).toContain(CFILES.docOffsets);
    expect(readdirSync(dir)).not.toContain(DOC_GAPS_FILE);
    expect(answers('memory')).toEqual(v7);
    expect(answers('disk')).toEqual(v7);
  });

  it('refuses a damaged document table with a ShardFormatError naming docs.gaps', async () => {
    const dir = await shardWithRate('damaged-docs', 36);
    await withVersion(dir, 7); // the varint bytes themselves, not their packed frame
    const file = path.join(dir, DOC_GAPS_FILE);
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] = 0x80; // the last gap cut short; the size stays the header's
    writeFileSync(file, bytes);
    const e = refusal(dir);
    expect(e).toBeInstanceOf(ShardFormatError);
    expect(String(e)).toMatch(/docs\.gaps.*document table ends in entry 29 of 30/);
  });

  it('still reads version 5 (text blocks, the files of version 6 without from-index) with the same answers', async () => {
    const dir = await denseShard('v5-dense');
    const v6 = openShard(dir, 'memory');
    const expected = Array.from(
      { length: v6.stats.textBytes },
      (_, rank) => v6.window(rank, Buffer.from('ab'), 50).text,
    );
    v6.close();
    await withVersion(dir, 5);
    const v5 = openShard(dir, 'memory');
    expect(
      Array.from({ length: v5.stats.textBytes }, (_, rank) => v5.window(rank, Buffer.from('ab'), 50).text),
    ).toEqual(expected);
    v5.close();
  });

  it('short documents: no text files, each article read back from the index as written; from-index refused before version 6', async () => {
    const dir = path.join(root, 'from-index');
    const writer = createShardWriter(dir);
    const docs = ['Schlagzeile eins', '', '見出し二つ目', 'x', 'headline four: the end'].map((t) => Buffer.from(t));
    for (const d of docs) writer.append(d);
    await writer.finish();
    await indexCompressedShard(dir, { shortDocuments: true });
    expect(JSON.parse(readFileSync(path.join(dir, 'header.json'), 'utf8'))).toMatchObject({ textCodec: FROM_INDEX });
    expect(readdirSync(dir).sort()).toEqual([
      'doc-rows.bin',
      'docs.gaps',
      'fm-bits.hyb',
      'fm-symbols.bin',
      'header.json',
      'sa-counts.bin',
      'sa-rows.u8',
      'sa-values.u32',
    ]);
    for (const mode of ['memory', 'disk'] as const) {
      const reader = openShard(dir, mode);
      expect(docs.map((_, d) => reader.documentBytes(d))).toEqual(docs);
      expect(reader.count(Buffer.from('eins'))).toBe(1);
      reader.close();
    }
    await withVersion(dir, 5);
    expect(String(refusal(dir))).toMatch(/textCodec from-index is not supported by format version 5/);
  });

  it('refuses damaged document rows of a from-index shard with a ShardFormatError naming the file', async () => {
    const dir = path.join(root, 'from-index-damaged');
    const writer = createShardWriter(dir);
    for (let d = 0; d < 5; d++) writer.append(Buffer.from(`headline ${d}`));
    await writer.finish();
    await indexCompressedShard(dir, { shortDocuments: true });
    const rows = path.join(dir, CFILES.docRows);
    const bytes = readFileSync(rows);
    bytes.writeUInt32LE(0xffffffff, 0); // every 3-bit row at its largest, 7: past the 5 separator rows
    writeFileSync(rows, bytes);
    const e = refusal(dir);
    expect(e).toBeInstanceOf(ShardFormatError);
    expect(String(e)).toMatch(/doc-rows.bin.*row of document 0 is out of range/);
  });

  it('still reads version 4 (hybrid bits without RRR chunks) with the same answers, and refuses RRR chunks in it', async () => {
    const dir = await denseShard('v4-dense');
    expect(chunkHeaders(dir)).toContain(RRR);
    const v5 = openShard(dir, 'memory');
    const expected = Array.from({ length: v5.stats.textBytes }, (_, rank) => v5.locate(rank).pos);
    const counts = ['ab', 'bba', 'aaaa', 'abcab'].map((q) => v5.count(Buffer.from(q)));
    v5.close();
    await withVersion(dir, 4);
    const e = refusal(dir);
    expect(e).toBeInstanceOf(ShardFormatError);
    expect(String(e)).toMatch(/fm-bits.hyb.*header 254/);
    await storeAsVersion4(dir);
    expect(chunkHeaders(dir)).not.toContain(RRR);
    const v4 = openShard(dir, 'memory');
    expect(Array.from({ length: v4.stats.textBytes }, (_, rank) => v4.locate(rank).pos)).toEqual(expected);
    expect(['ab', 'bba', 'aaaa', 'abcab'].map((q) => v4.count(Buffer.from(q)))).toEqual(counts);
    v4.close();
  });

  it('refuses damaged compact tables with a ShardFormatError naming the file', async () => {
    const dir = await shardWithRate('damaged', 36);
    await withVersion(dir, 7);
    const symbols = path.join(dir, CFILES.symbols);
    const bytes = readFileSync(symbols);
    bytes.fill(0, 0, 32); // the first block's bitmap: no byte at all
    writeFileSync(symbols, bytes);
    const e = refusal(dir);
    expect(e).toBeInstanceOf(ShardFormatError);
    expect(String(e)).toMatch(/fm-symbols.bin.*block 0 of the symbol table is empty/);
    const dir2 = await shardWithRate('damaged-chunks', 36);
    await withVersion(dir2, 7);
    const chunks = path.join(dir2, CHUNK_COUNTS_FILE);
    const c = readFileSync(chunks);
    c[c.length - 1] = (c[c.length - 1] as number) + 1; // the last chunk: one more sample than the shard has
    writeFileSync(chunks, c);
    expect(String(refusal(dir2))).toMatch(/sa-counts.bin.*samples, expected/);
    const dir3 = await shardWithRate('damaged-chunks-v6', 36);
    await withVersion(dir3, 6);
    const v3chunks = path.join(dir3, COMPACT_SAMPLE_CHUNKS);
    const c3 = readFileSync(v3chunks);
    c3.writeUInt16LE(0xffff, c3.length - 2); // version 3's encoding: the last entry past the samples
    writeFileSync(v3chunks, c3);
    expect(String(refusal(dir3))).toMatch(/sa-chunks.bin.*samples, expected/);
  });
});
