import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTextHasher } from '../src/corpus/index.ts';
import { buildRelease, openRelease, type ReleaseIndex } from '../src/release/index.ts';
import { tempDir, writeJsonl } from './support/fixtures.ts';

const tmp = tempDir('release-doc-order-');
afterAll(() => tmp.cleanup());

const articleArb = fc.record({
  text: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  year: fc.integer({ min: 2019, max: 2021 }),
  month: fc.integer({ min: 1, max: 12 }),
});

describe('document numbering (property)', () => {
  it('numbers every year by (month, input order) and puts each text in its shard at docBase + local doc', async () => {
    const hash = await createTextHasher();
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.array(articleArb, { minLength: 1, maxLength: 40 }), fc.constantFrom('month' as const, 'year' as const), async (arts, period) => {
      const dir = join(tmp.dir, `run-${run++}`);
      mkdirSync(dir);
      const records = arts.map((a) => ({ text: a.text, warc_date: `${a.year}-${String(a.month).padStart(2, '0')}-15` }));
      await buildRelease({ inputs: [writeJsonl(join(dir, 'in.jsonl'), records)], out: join(dir, 'r'), indexVersion: 'p', period });
      const release = await openRelease(join(dir, 'r'));
      const index = release.indexes.get('news') as ReleaseIndex;
      for (const year of new Set(arts.map((a) => String(a.year)))) {
        // Reference: a stable sort by month keeps input order within a month.
        const expected = arts.filter((a) => String(a.year) === year).sort((x, y) => x.month - y.month).map((a) => hash(Buffer.from(a.text, 'utf8')));
        const store = index.metadata(year);
        expect(store?.getMany(expected.map((_, i) => i)).map((m) => m?.text_xxhash64)).toEqual(expected);
        for (const s of index.shards.filter((sh) => sh.year === year)) {
          for (let d = 0; d < s.reader.stats.docCount; d++) expect(hash(s.reader.documentBytes(d))).toBe(expected[s.docBase + d]);
        }
      }
      release.close();
    }), { numRuns: 25 });
  });
});
