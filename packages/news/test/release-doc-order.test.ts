import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTextHasher } from '../src/corpus/index.ts';
import { buildRelease, openRelease, type ReleaseIndex } from '../src/release/index.ts';
import { datedTextArb, tempDir, writeJsonl } from './support/fixtures.ts';

const tmp = tempDir('release-doc-order-');
afterAll(() => tmp.cleanup());

const articleArb = datedTextArb(2021);

describe('document numbering (property)', () => {
  it('numbers every year by (month, input order), puts each text in its shard (part) at docBase + local doc, parts bounded and named in order', async () => {
    const hash = await createTextHasher();
    let run = 0;
    const partBytesArb = fc.constantFrom(undefined, 1, 30, 90, 400);
    await fc.assert(
      fc.asyncProperty(
        fc.array(articleArb, { minLength: 1, maxLength: 40 }),
        fc.constantFrom('month' as const, 'year' as const),
        partBytesArb,
        async (arts, period, partBytes) => {
          const dir = join(tmp.dir, `run-${run++}`);
          mkdirSync(dir);
          const records = arts.map((a) => ({
            text: a.text,
            warc_date: `${a.year}-${String(a.month).padStart(2, '0')}-15`,
          }));
          await buildRelease({
            inputs: [writeJsonl(join(dir, 'in.jsonl'), records)],
            out: join(dir, 'r'),
            indexVersion: 'p',
            period,
            partBytes,
          });
          const release = await openRelease(join(dir, 'r'));
          const index = release.indexes.get('news') as ReleaseIndex;
          for (const year of new Set(arts.map((a) => String(a.year)))) {
            // Reference: a stable sort by month keeps input order within a month.
            const expected = arts
              .filter((a) => String(a.year) === year)
              .sort((x, y) => x.month - y.month)
              .map((a) => hash(Buffer.from(a.text, 'utf8')));
            const store = index.metadata(year);
            expect(store?.getMany(expected.map((_, i) => i)).map((m) => m?.text_xxhash64)).toEqual(expected);
            const shards = index.shards.filter((sh) => sh.year === year);
            const db = new Database(join(dir, 'r', 'indexes', 'news', 'metadata', `${year}.sqlite`), {
              readonly: true,
            });
            const shardOf = db
              .prepare('SELECT shard_id FROM shards WHERE doc_base <= ? ORDER BY doc_base DESC LIMIT 1')
              .pluck();
            let next = 0;
            for (const s of shards) {
              // Parts: consecutive doc_ix runs, at most partBytes of text unless one article alone is larger.
              expect(s.docBase).toBe(next);
              next += s.reader.stats.docCount;
              if (partBytes !== undefined && s.reader.stats.docCount > 1)
                expect(s.reader.stats.textBytes).toBeLessThanOrEqual(partBytes);
              expect(s.shardId).toMatch(period === 'month' ? /^\d{4}-\d{2}(\.p\d{3})?$/ : /^\d{4}(\.p\d{3})?$/);
              for (let d = 0; d < s.reader.stats.docCount; d++) {
                expect(hash(s.reader.documentBytes(d))).toBe(expected[s.docBase + d]);
                expect(shardOf.get(s.docBase + d)).toBe(s.shardId);
              }
            }
            db.close();
            expect(next).toBe(expected.length);
            // Plain string order of the ids is chronological, and a period split into parts has no plain-id shard.
            const ids = shards.map((s) => s.shardId);
            expect([...ids].sort()).toEqual(ids);
            for (const id of ids) if (/\.p\d{3}$/.test(id)) expect(ids).not.toContain(id.slice(0, -5));
          }
          release.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
