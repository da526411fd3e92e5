import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { readVersionedJson } from '../manifest.ts';
import type { InputIdentity } from './input-census.ts';

/** Written by `news build --only-periods` beside the two release manifests; read by `news release assemble`. */
export const PART_MANIFEST_FILE = 'part-manifest.json';
export const PART_MANIFEST_FORMAT = 'news-release-part';
/** Bump on any incompatible change; assemble refuses other versions. */
export const PART_MANIFEST_FORMAT_VERSION = 1;

export const PartManifestSchema = Type.Object({
  format: Type.Literal(PART_MANIFEST_FORMAT),
  format_version: Type.Literal(PART_MANIFEST_FORMAT_VERSION),
  index_version: Type.String(),
  index: Type.String(),
  period: Type.Union([Type.Literal('month'), Type.Literal('year')]),
  kind: Type.String(),
  /** `--only-periods` as given, the crawl months it selects, and their years (whose whole metadata stores the part holds). */
  only_periods: Type.String(),
  years: Type.Array(Type.String({ pattern: '^\\d{4}$' })),
  months: Type.Array(Type.String({ pattern: '^\\d{4}-\\d{2}$' })),
  input: Type.Object({
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    records: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0 }),
    years: Type.Array(
      Type.Object({ year: Type.String({ pattern: '^\\d{4}$' }), documents: Type.Integer({ minimum: 0 }) }),
    ),
    months: Type.Array(
      Type.Object({ month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }), documents: Type.Integer({ minimum: 0 }) }),
    ),
  }),
  created_at: Type.String(),
});
export type PartManifest = Static<typeof PartManifestSchema>;

export interface PartManifestInput {
  readonly indexVersion: string;
  readonly indexName: string;
  readonly period: 'month' | 'year';
  readonly kind: string;
  readonly onlyPeriods: string;
  readonly years: readonly string[];
  readonly months: readonly string[];
  readonly input: InputIdentity;
}

export async function writePartManifest(dir: string, p: PartManifestInput): Promise<void> {
  const manifest: PartManifest = {
    format: PART_MANIFEST_FORMAT,
    format_version: PART_MANIFEST_FORMAT_VERSION,
    index_version: p.indexVersion,
    index: p.indexName,
    period: p.period,
    kind: p.kind,
    only_periods: p.onlyPeriods,
    years: [...p.years],
    months: [...p.months],
    input: {
      sha256: p.input.sha256,
      records: p.input.records,
      skipped: p.input.skipped,
      years: p.input.years.map((y) => ({ ...y })),
      months: p.input.months.map((m) => ({ ...m })),
    },
    created_at: new Date().toISOString(),
  };
  await writeFile(join(dir, PART_MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
}

/** Reads a part's manifest; missing, foreign or another version is a ReleaseVerificationError saying what to do. */
export const readPartManifest = (dir: string): Promise<PartManifest> =>
  readVersionedJson(
    dir,
    PART_MANIFEST_FILE,
    PartManifestSchema,
    PART_MANIFEST_FORMAT_VERSION,
    `pass folders written by news build --only-periods … --out PART_DIR`,
  );
