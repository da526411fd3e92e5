/**
 * Distributed builds: parts built with `--only-periods` and assembled give the single-process release, byte for byte
 * (property over random splits of random corpora), and every way the parts can disagree is refused before anything
 * is written under --out.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assembleRelease,
  buildRelease,
  BuildError,
  openRelease,
  ReleaseVerificationError,
  type AssembleReleaseInput,
} from '../src/release/index.ts';
import { article, datedTextArb, tempDir, writeJsonl } from './support/fixtures.ts';
import { expectSameRelease } from './support/release-compare.ts';

const tmp = tempDir('release-assemble-');
afterAll(() => tmp.cleanup());
const fresh = tmp.fresh;

const articleArb = datedTextArb(2022);

describe('assembled parts equal the single-process build (property)', () => {
  it('for random corpora, random splits of their months (years, for yearly shards) into parts, both kinds and periods, and tiny part sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(articleArb, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(3), { minLength: 48, maxLength: 48 }),
        fc.constantFrom('sa' as const, 'compressed' as const),
        fc.constantFrom('month' as const, 'year' as const),
        fc.constantFrom(undefined, 1, 60),
        async (arts, groupOf, kind, period, partBytes) => {
          const dir = fresh();
          const input = writeJsonl(
            join(dir, 'in.jsonl'),
            arts.map((a, i) => article(i, `${a.year}-${String(a.month).padStart(2, '0')}-15`, { text: a.text })),
          );
          const common = { inputs: [input], indexVersion: 'prop-1', kind, period, partBytes };
          await buildRelease({ ...common, out: join(dir, 'single') });
          // Each present month (year, for yearly shards) goes to one of up to four parts, adjacent or not.
          const groups = new Map<number, string[]>();
          for (const a of arts) {
            const id = period === 'year' ? String(a.year) : `${a.year}-${String(a.month).padStart(2, '0')}`;
            const g = groupOf[(a.year - 2019) * 12 + (period === 'year' ? 0 : a.month - 1)] ?? 0;
            const ids = groups.get(g) ?? [];
            if (!ids.includes(id)) groups.set(g, [...ids, id]);
          }
          const parts = [...groups.values()].map((_, i) => join(dir, `part-${i}`));
          await Promise.all(
            [...groups.values()].map((ids, i) =>
              buildRelease({ ...common, out: parts[i] as string, onlyPeriods: ids.join(',') }),
            ),
          );
          await assembleRelease({ parts: [...parts].reverse(), out: join(dir, 'assembled'), indexVersion: 'prop-1' });
          expectSameRelease(join(dir, 'single'), join(dir, 'assembled'));
          rmSync(dir, { recursive: true, force: true });
        },
      ),
      { numRuns: 15 },
    );
    // 15 to 75 real builds: 18 s alone, past 60 s beside three other busy processes on the 2 cores.
  }, 180_000);
});

/** Corpus A covers 2019–2021; corpus B is A with one title changed. */
const records = [
  article(0, '2020-03-05'),
  article(1, '2019-01-09'),
  article(2, '2021-03-01'),
  article(3, '2019-05-05'),
  article(4, '2020-01-02'),
  article(5, '2021-07-30'),
  article(6, '2019-01-02'),
];
const root = join(tmp.dir, 'fixed');
const at = (name: string): string => join(root, name);
const base = { indexVersion: 'v1', partBytes: 100 } as const;

beforeAll(async () => {
  mkdirSync(root);
  const a = writeJsonl(at('a.jsonl'), records);
  const b = writeJsonl(
    at('b.jsonl'),
    records.map((r, i) => (i === 4 ? { ...r, title: 'changed' } : r)),
  );
  await buildRelease({ ...base, inputs: [a], out: at('single') });
  await Promise.all([
    buildRelease({ ...base, inputs: [a], out: at('p2019'), onlyPeriods: '2019' }),
    buildRelease({ ...base, inputs: [a], out: at('p2020-21'), onlyPeriods: '2020-01..2021-12' }),
    buildRelease({ ...base, inputs: [a], out: at('p2020'), onlyPeriods: '2020' }),
    buildRelease({ ...base, inputs: [b], out: at('b2020-21'), onlyPeriods: '2020..2021' }),
    buildRelease({ ...base, inputs: [a], out: at('v2-2019'), onlyPeriods: '2019', indexVersion: 'v2' }),
    buildRelease({ ...base, inputs: [a], out: at('fm2020-21'), onlyPeriods: '2020..2021', kind: 'compressed' }),
    buildRelease({ ...base, inputs: [a], out: at('m2020a'), onlyPeriods: '2020-01..2020-02,2021' }),
    buildRelease({ ...base, inputs: [a], out: at('m2020b'), onlyPeriods: '2020-03..2020-12' }),
    buildRelease({ ...base, inputs: [a], out: at('m2019-01'), onlyPeriods: '2019-01' }),
    buildRelease({ ...base, inputs: [a], out: at('m2019-rest'), onlyPeriods: '2019-02..2019-12', partBytes: 1000 }),
    buildRelease({ ...base, inputs: [a], out: at('year2020-21'), onlyPeriods: '2020..2021', period: 'year' }),
    buildRelease({
      ...base,
      inputs: [a],
      out: at('cc2020-21'),
      onlyPeriods: '2020..2021',
      countries: writeCountries(at('countries.csv')),
    }),
  ]);
});

function writeCountries(path: string): string {
  writeFileSync(
    path,
    'hostname,country,country_source,country_confidence\nsite-1.synthetic.example,DE,registry,high\n',
  );
  return path;
}

async function refused(input: Partial<AssembleReleaseInput> & { parts: string[] }): Promise<Error> {
  const out = join(fresh(), 'out');
  const e = await assembleRelease({ out, indexVersion: 'v1', ...input }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  // Never a half-written release: nothing at --out, no partial folder beside it.
  expect(existsSync(out)).toBe(false);
  expect(readdirSync(join(out, '..'))).toEqual([]);
  return e as Error;
}

describe('news release assemble', () => {
  it("hard-links the parts' files (no shard data copied) and the result opens with full verification", async () => {
    const out = join(fresh(), 'r');
    const summary = await assembleRelease({ parts: [at('p2019'), at('p2020-21')], out, indexVersion: 'v1' });
    expect(summary).toMatchObject({ parts: 2, years: 3, documents: records.length, copiedBytes: 0 });
    expectSameRelease(at('single'), out);
    const shard = readdirSync(join(out, 'indexes/news/shards'))[0] as string;
    const file = join('indexes/news/shards', shard, 'text.bin');
    expect(statSync(join(out, file)).ino).toBe(statSync(join(at('p2019'), file)).ino);
    const release = await openRelease(out, { verify: 'full', expectedIndexVersion: 'v1' });
    expect(release.indexes.get('news')?.shards.length).toBeGreaterThan(3);
    release.close();
  });

  // /dev/shm is a tmpfs beside the disk that holds the temp folder on Linux; elsewhere this case cannot be made.
  const otherFs = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmp.dir).dev;
  it.skipIf(!otherFs)(
    'copies, with a notice, a part that lies on another file system (/dev/shm), and the result is the same',
    async () => {
      const away = {
        dir: mkdtempSync('/dev/shm/assemble-'),
        cleanup: () => rmSync(away.dir, { recursive: true, force: true }),
      };
      try {
        await buildRelease({ ...base, inputs: [at('a.jsonl')], out: join(away.dir, 'p2019'), onlyPeriods: '2019' });
        const notices: string[] = [];
        const out = join(fresh(), 'r');
        const summary = await assembleRelease({
          parts: [join(away.dir, 'p2019'), at('p2020-21')],
          out,
          indexVersion: 'v1',
          onNotice: (m) => notices.push(m),
        });
        expect(notices).toEqual([
          expect.stringMatching(
            /p2019 cannot be hard-linked into the release \(another file system\); copying its files instead/,
          ),
        ]);
        expect(summary.copiedBytes).toBeGreaterThan(0);
        expectSameRelease(at('single'), out);
      } finally {
        away.cleanup();
      }
    },
  );

  it("assembles months of one year built in different parts; the year's store (written whole by both) is placed once", async () => {
    const out = join(fresh(), 'r');
    const summary = await assembleRelease({
      parts: [at('p2019'), at('m2020b'), at('m2020a')],
      out,
      indexVersion: 'v1',
    });
    expectSameRelease(at('single'), out);
    expect(summary.files).toBe(expectSameRelease(at('single'), out));
  });

  it('refuses parts of one year built with different part sizes (their stores name different shards)', async () => {
    const e = await refused({ parts: [at('m2019-01'), at('m2019-rest'), at('p2020-21')] });
    expect(e.message).toMatch(
      /disagree on the metadata store of 2019: .*build every part of a year with the same --part-bytes/,
    );
  });

  it('refuses overlapping parts, naming the period and both parts', async () => {
    const e = await refused({ parts: [at('p2019'), at('p2020-21'), at('p2020')] });
    expect(e).toMatchObject({ code: 'parts_overlap' });
    expect(e.message).toMatch(
      /crawl period 2020-01 is in two parts, .*p2020-21 and .*p2020; give each period to one part/,
    );
    expect(await refused({ parts: [at('p2019'), at('p2019')] })).toMatchObject({
      code: 'parts_overlap',
      message: expect.stringMatching(/given twice/),
    });
  });

  it('refuses parts built from different inputs', async () => {
    const e = await refused({ parts: [at('p2019'), at('b2020-21')] });
    expect(e).toMatchObject({ code: 'parts_mismatch' });
    expect(e.message).toMatch(/disagree on the input .*build every part from the same --input files in the same order/);
  });

  it('refuses missing periods, naming them with their article counts and the command that builds them', async () => {
    const e = await refused({ parts: [at('p2019'), at('m2020a')] });
    expect(e).toMatchObject({ code: 'periods_missing' });
    expect(e.message).toMatch(
      /no part holds: 2020-03 \(1 articles\); build them with news build … --only-periods 2020-03 --out PART_DIR/,
    );
  });

  it("refuses parts of different index versions, and an --index-version other than the parts'", async () => {
    const e = await refused({ parts: [at('v2-2019'), at('p2020-21')] });
    expect(e.message).toMatch(
      /disagree on the release identity \(index version\): .* has "v2", .* has "v1"; build every part with the same --index-version/,
    );
    const f = await refused({ parts: [at('p2019'), at('p2020-21')], indexVersion: 'v9' });
    expect(f.message).toMatch(/--index-version "v9" does not match the parts, built as "v1" .*pass --index-version v1/);
    expect(await refused({ parts: [at('p2019')], indexVersion: 'has space' })).toMatchObject({
      code: 'invalid_option',
    });
  });

  it('refuses parts of different index kinds', async () => {
    const e = await refused({ parts: [at('p2019'), at('fm2020-21')] });
    expect(e.message).toMatch(
      /disagree on the index kind: .* has "sa", .* has "compressed"; build every part with the same --kind/,
    );
  });

  it('refuses parts of different shard periods or country tables', async () => {
    expect((await refused({ parts: [at('p2019'), at('year2020-21')] })).message).toMatch(
      /disagree on the shard period: .* has "month", .* has "year"; build every part with the same --period/,
    );
    expect((await refused({ parts: [at('p2019'), at('cc2020-21')] })).message).toMatch(
      /disagree on the country table: .* has null, .* has "[0-9a-f]{64}"; build every part with the same --countries file/,
    );
  });

  it('refuses a folder that is not a part, and a part with a file missing, before writing anything', async () => {
    const e = await refused({ parts: [at('single'), at('p2020-21')] });
    expect(e).toBeInstanceOf(ReleaseVerificationError);
    expect(e.message).toMatch(/has no part-manifest\.json; pass folders written by news build --only-periods/);
    const broken = join(fresh(), 'p2019');
    await buildRelease({ ...base, inputs: [at('a.jsonl')], out: broken, onlyPeriods: '2019' });
    rmSync(join(broken, 'indexes/news/metadata/2019.sqlite'));
    expect(await refused({ parts: [broken, at('p2020-21')] })).toMatchObject({ code: 'file_missing' });
  });

  it('an interrupted assembly (Ctrl-C: the signal) removes its partial folder and says to run it again', async () => {
    const e = await refused({ parts: [at('p2019'), at('p2020-21')], signal: AbortSignal.abort() });
    expect(e).toMatchObject({
      code: 'aborted',
      message: expect.stringMatching(/nothing was written, run news release assemble again/),
    });
  });

  it('refuses an existing non-empty --out unless --force, which replaces it', async () => {
    const out = join(fresh(), 'r');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.txt'), 'x');
    const e = await assembleRelease({ parts: [at('p2019'), at('p2020-21')], out, indexVersion: 'v1' }).catch(
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(BuildError);
    expect(existsSync(join(out, 'keep.txt'))).toBe(true);
    await assembleRelease({ parts: [at('p2019'), at('p2020-21')], out, indexVersion: 'v1', force: true });
    expectSameRelease(at('single'), out);
  });

  it('news build --only-periods refuses a selection without articles, naming the years the input has', async () => {
    const e = await buildRelease({
      ...base,
      inputs: [at('a.jsonl')],
      out: join(fresh(), 'p'),
      onlyPeriods: '2030',
    }).catch((err: unknown) => err);
    expect(e).toMatchObject({
      code: 'no_articles',
      message: expect.stringMatching(/selects no article: the input holds crawl years 2019, 2020, 2021/),
    });
  });
});
