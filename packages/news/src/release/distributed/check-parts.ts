import { isShardKind, type ShardKind } from '../../shard/index.ts';
import { BuildError } from '../errors.ts';
import type { IndexManifest, MetadataManifest } from '../manifest.ts';
import type { ReleaseContents } from '../write-manifests.ts';
import { assembleStories } from './assemble-stories.ts';
import type { PartManifest } from './part-manifest.ts';

/** One part folder as read from disk: its part manifest and its two release manifests (already agreeing). */
export interface LoadedPart {
  readonly dir: string;
  readonly part: PartManifest;
  readonly index: IndexManifest['indexes'][number];
  readonly metadata: MetadataManifest['indexes'][number];
}

const q = JSON.stringify;

/**
 * Checks that the parts make up exactly one release: same identity, same input, same index name, period, kind,
 * formats and country table; disjoint crawl periods; every period of the input in some part; one store per year,
 * the same in every part that touches the year, with the input's article count.
 * Cheap (manifests only). Throws a BuildError whose message names the parts and says what to do; else returns the
 * merged manifest contents.
 */
export function checkParts(parts: readonly LoadedPart[], indexVersion: string): ReleaseContents {
  const first = parts[0];
  if (!first)
    throw new BuildError(
      'invalid_option',
      'no part folders given; pass the --out folders of news build --only-periods',
    );
  const differ = (what: string, get: (p: LoadedPart) => unknown, fix: string): void => {
    const other = parts.find((p) => q(get(p)) !== q(get(first)));
    if (other) {
      throw new BuildError(
        'parts_mismatch',
        `the parts disagree on ${what}: ${first.dir} has ${q(get(first))}, ${other.dir} has ${q(get(other))}; ${fix}`,
      );
    }
  };
  differ(
    'the release identity (index version)',
    (p) => p.part.index_version,
    'build every part with the same --index-version',
  );
  if (first.part.index_version !== indexVersion) {
    throw new BuildError(
      'parts_mismatch',
      `--index-version ${q(indexVersion)} does not match the parts, built as ${q(first.part.index_version)} (their metadata stores carry it); ` +
        `pass --index-version ${first.part.index_version}, or rebuild the parts with --index-version ${indexVersion}`,
    );
  }
  differ(
    'the input (identity of every accepted record, in order)',
    (p) => ({ records: p.part.input.records, sha256: p.part.input.sha256 }),
    'build every part from the same --input files in the same order (and the same --skip-bad)',
  );
  differ('the skipped bad records', (p) => p.part.input.skipped, 'build every part with the same --skip-bad setting');
  differ('the index name', (p) => p.part.index, 'build every part with the same --index');
  differ('the shard period', (p) => p.part.period, 'build every part with the same --period');
  differ('the index kind', (p) => p.part.kind, 'build every part with the same --kind');
  differ(
    'the shard format version',
    (p) => p.index.shard_format_version,
    'build every part with the same version of news',
  );
  differ(
    'the metadata store format version',
    (p) => p.metadata.store_format_version,
    'build every part with the same version of news',
  );
  differ(
    'the country table',
    (p) => p.metadata.countries?.sha256 ?? null,
    'build every part with the same --countries file (or none)',
  );
  const kind = first.part.kind;
  if (!isShardKind(kind))
    throw new BuildError(
      'parts_mismatch',
      `${first.dir} holds index kind ${q(kind)}, which this news does not know; rebuild the parts with this version`,
    );

  // The unit a part owns: a crawl month (monthly shards) or a whole year (yearly shards), as its shards' crawl_period.
  const yearly = first.part.period === 'year';
  const unitsOf = (p: LoadedPart): readonly string[] => (yearly ? p.part.years : p.part.months);
  const inputUnits = yearly
    ? first.part.input.years.map((y) => ({ id: y.year, documents: y.documents }))
    : first.part.input.months.map((m) => ({ id: m.month, documents: m.documents }));
  const owner = new Map<string, string>();
  for (const p of parts) {
    for (const unit of unitsOf(p)) {
      const before = owner.get(unit);
      if (before !== undefined) {
        throw new BuildError(
          'parts_overlap',
          `crawl period ${unit} is in two parts, ${before} and ${p.dir}; give each period to one part (--only-periods) and pass each part once`,
        );
      }
      owner.set(unit, p.dir);
    }
    const outside = p.index.shards.find((s) => !unitsOf(p).includes(s.crawl_period));
    if (outside)
      throw new BuildError(
        'parts_mismatch',
        `${p.dir} holds shard ${outside.shard_id} outside its periods (${p.part.only_periods}); rebuild that part with news build --only-periods`,
      );
  }
  const missing = inputUnits.filter((u) => !owner.has(u.id));
  if (missing.length > 0) {
    const listed =
      missing
        .slice(0, 12)
        .map((u) => `${u.id} (${u.documents} articles)`)
        .join(', ') + (missing.length > 12 ? ` and ${missing.length - 12} more` : '');
    throw new BuildError(
      'periods_missing',
      `the input has crawl periods that no part holds: ${listed}; ` +
        `build them with news build … --only-periods ${missing.map((u) => u.id).join(',')} --out PART_DIR and pass that part too`,
    );
  }
  // Every part that touches a year wrote that whole year's store; they must be the same file.
  for (const y of first.part.input.years) {
    const holders = parts.flatMap((p) =>
      p.metadata.years.filter((s) => s.year === y.year).map((store) => ({ p, store })),
    );
    const [one, other] = [holders[0], holders.find((h) => h.store.sha256 !== holders[0]?.store.sha256)];
    if (one && other) {
      throw new BuildError(
        'parts_mismatch',
        `the parts disagree on the metadata store of ${y.year}: ${one.p.dir} and ${other.p.dir} wrote different files; ` +
          `build every part of a year with the same --part-bytes (the store names each article's shard), input and --countries`,
      );
    }
    if (one && one.store.doc_count !== y.documents) {
      throw new BuildError(
        'parts_mismatch',
        `${one.p.dir} holds ${one.store.doc_count} articles of ${y.year}, the input has ${y.documents}; rebuild that part from the same input`,
      );
    }
  }
  const ordered = [...parts].sort((a, b) => ((a.part.years[0] ?? '') < (b.part.years[0] ?? '') ? -1 : 1));
  return {
    indexVersion,
    indexName: first.part.index,
    period: first.part.period,
    kind: kind satisfies ShardKind,
    shards: ordered.flatMap((p) => p.index.shards).sort((a, b) => (a.shard_id < b.shard_id ? -1 : 1)),
    years: [...new Map(ordered.flatMap((p) => p.metadata.years).map((y) => [y.year, y])).values()].sort((a, b) =>
      a.year < b.year ? -1 : 1,
    ),
    countries: first.metadata.countries,
    stories: assembleStories(parts),
  };
}
