import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { parquetReadObjects } from 'hyparquet';
import { buildRelease, openRelease } from '../src/release/index.ts';
import { createTextHasher } from '../src/corpus/index.ts';
import { checkHubManifest, HUB_COLUMNS, type HubManifest } from '../src/hub/index.ts';
import { publishHub, PublishHubError } from '../src/hub/publish/index.ts';
import { publishHubCommand } from '../src/cli/publish-hub.ts';
import { FUNDUS } from './hub-support/corpus.ts';

let root: string;
let releaseDir: string;

async function readRows(path: string): Promise<Record<string, unknown>[]> {
  const buf = await readFile(path);
  return parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hub-publish-'));
  releaseDir = join(root, 'release');
  await buildRelease({ inputs: [FUNDUS], out: releaseDir, indexVersion: 'hub-publish-1', concurrency: 2 });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('news publish-hub', () => {
  it('writes every article once, per crawl year in doc_ix order, with all metadata and the exact text', async () => {
    const out = join(root, 'hub-a');
    const summary = await publishHub({ release: releaseDir, out, index: 'news', partitionRows: 40, force: false });
    const manifest = checkHubManifest(JSON.parse(await readFile(join(out, 'shards.json'), 'utf8'))) as HubManifest;
    const identity = JSON.parse(await readFile(join(out, 'hub-release.json'), 'utf8')) as Record<string, unknown>;
    expect(identity).toMatchObject({
      format: 'news-hub',
      format_version: 1,
      index_version: 'hub-publish-1',
      index: 'news',
      total_rows: summary.rows,
    });

    const hash = await createTextHasher();
    const release = await openRelease(releaseDir, { mode: 'memory' });
    try {
      const index = release.indexes.get('news')!;
      expect(manifest.shards).toEqual(
        index.shards.map((s) => ({
          shard_id: s.shardId,
          year: s.year,
          first_doc_ix: s.docBase,
          rows: s.reader.stats.docCount,
        })),
      );
      let rows = 0;
      for (const y of manifest.years) {
        const store = index.metadata(y.year)!;
        expect(y.rows).toBe(store.docCount);
        for (const p of y.partitions) {
          const body = await readFile(join(out, p.path));
          expect(createHash('sha256').update(body).digest('hex')).toBe(p.sha256);
          const partRows = await readRows(join(out, p.path));
          expect(partRows).toHaveLength(p.rows);
          partRows.forEach((row, i) => {
            const docIx = p.first_doc_ix + i;
            expect(Object.keys(row)).toEqual([...HUB_COLUMNS]);
            expect([row['year'], Number(row['doc_ix'])]).toEqual([y.year, docIx]);
            const meta = store.get(docIx)!;
            for (const [k, v] of Object.entries(meta)) {
              expect(row[k], `${y.year}/${docIx}.${k}`).toEqual(
                k === 'scores' ? (v === null ? null : JSON.stringify(v)) : v,
              );
            }
            expect(hash(Buffer.from(row['text'] as string, 'utf8'))).toBe(meta.text_xxhash64);
          });
          rows += partRows.length;
        }
      }
      expect(rows).toBe(manifest.total_rows);
      expect(manifest.years.some((y) => y.partitions.length > 1)).toBe(true);
    } finally {
      release.close();
    }
  });

  it('runs as a command and refuses a non-empty output directory without --force', async () => {
    const out = join(root, 'hub-cli');
    const lines: string[] = [];
    const ctx = {
      logger: (await import('pino')).pino({ level: 'silent' }),
      stdout: { write: (s: string) => lines.push(s) },
      stderr: process.stderr,
    } as never;
    const run = async (...args: string[]) => {
      const program = new Command('news').exitOverride();
      publishHubCommand(program, ctx);
      await program.parseAsync(['node', 'news', 'publish-hub', '--release', releaseDir, '--out', out, ...args]);
    };
    await run();
    expect(JSON.parse(lines[0]!)).toMatchObject({ event: 'published', indexVersion: 'hub-publish-1' });
    process.exitCode = undefined;
    await expect(
      publishHub({ release: releaseDir, out, index: 'news', partitionRows: 10, force: false }),
    ).rejects.toThrow(PublishHubError);
    await expect(
      publishHub({ release: releaseDir, out, index: 'nope', partitionRows: 10, force: true }),
    ).rejects.toThrow(/has no index "nope"/);
  });
});
