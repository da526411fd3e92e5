import type { ArticleMetadata, MetadataStore, OpenRelease } from '../release/types.ts';
import { V2Error } from './errors.ts';
import { V2_LIMITS } from './limits.ts';
import { assertIndexVersion, lookupIndex, lookupYearStore } from './release-lookup.ts';
import type { MetadataRequest, MetadataResult } from './types.ts';

/** Checks every reference, then reads the rows, grouped by year. */
function resolveMetadata(release: OpenRelease, request: MetadataRequest): MetadataResult {
  assertIndexVersion(release, request.expected_index_version);
  const index = lookupIndex(release, request.index);
  const refs = request.documents;
  if (refs.length > V2_LIMITS.metadataReferences) {
    throw new V2Error(
      'too_many_references',
      `at most ${V2_LIMITS.metadataReferences} document references per call; split the list`,
      {
        limit: V2_LIMITS.metadataReferences,
        references: refs.length,
      },
    );
  }

  // Group by year so each store answers one batched read.
  const byYear = new Map<string, { store: MetadataStore; positions: number[]; docIxs: number[] }>();
  refs.forEach((ref, position) => {
    let group = byYear.get(ref.year);
    if (group === undefined) {
      group = { store: lookupYearStore(index, ref.year), positions: [], docIxs: [] };
      byYear.set(ref.year, group);
    }
    if (!Number.isSafeInteger(ref.doc_ix) || ref.doc_ix < 0 || ref.doc_ix >= group.store.docCount) {
      throw new V2Error(
        'invalid_doc_ix',
        `documents[${position}].doc_ix must be an integer in [0, ${group.store.docCount}) for year ${ref.year}`,
        {
          position,
          year: ref.year,
          doc_ix: ref.doc_ix,
          doc_count: group.store.docCount,
        },
      );
    }
    group.positions.push(position);
    group.docIxs.push(ref.doc_ix);
  });

  const entries: { year: string; doc_ix: number; metadata: ArticleMetadata }[] = new Array(refs.length);
  for (const [year, { store, positions, docIxs }] of byYear) {
    const rows = store.getMany(docIxs);
    positions.forEach((position, i) => {
      const row = rows[i];
      const docIx = docIxs[i] ?? -1;
      if (row === undefined)
        throw new Error(`metadata store ${year} has no row for doc_ix ${docIx} below its docCount`);
      entries[position] = { year, doc_ix: docIx, metadata: row };
    });
  }

  return { index_version: release.indexVersion, documents: entries };
}

/** The encoded response, refused with `response_too_large` over 16 MiB: measured on the very text that is sent. */
function encodeCapped(result: MetadataResult): string {
  const json = JSON.stringify(result);
  // UTF-8 bytes ≤ 3 × UTF-16 length: count bytes only when the cheap bound cannot decide.
  if (json.length * 3 <= V2_LIMITS.metadataResponseBytes) return json;
  const bytes = Buffer.byteLength(json);
  if (bytes > V2_LIMITS.metadataResponseBytes) {
    throw new V2Error(
      'response_too_large',
      `the response would be ${bytes} bytes, over the ${V2_LIMITS.metadataResponseBytes}-byte limit; retry with fewer references`,
      {
        limit: V2_LIMITS.metadataResponseBytes,
        bytes,
      },
    );
  }
  return json;
}

/**
 * v2 metadata: the full metadata of up to 1,000 document references, one entry per reference in request order
 * (repeats allowed). Every reference is checked before any row is read; the encoded response is capped at 16 MiB
 * (`response_too_large`, the client retries with fewer references).
 */
export function metadata(release: OpenRelease, request: MetadataRequest): MetadataResult {
  const result = resolveMetadata(release, request);
  encodeCapped(result);
  return result;
}

/** `metadata` as the JSON text of the response, encoded once (the worker sends this text as it is). */
export function metadataJson(release: OpenRelease, request: MetadataRequest): string {
  return encodeCapped(resolveMetadata(release, request));
}
