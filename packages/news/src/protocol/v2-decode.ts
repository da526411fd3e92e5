import { V2_KINDS, type V2Kind, type V2WorkerRequest } from './v2-messages.ts';

/** Thrown for a v2 message that does not follow the protocol; decode.ts turns it into its ProtocolError. */
export class V2DecodeError extends Error {}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function obj(v: unknown, what: string): Json {
  if (!isObject(v)) throw new V2DecodeError(`${what} must be an object`);
  return v;
}
function str(o: Json, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new V2DecodeError(`${key} must be a string`);
  return v;
}
function optStr(o: Json, key: string): string | null {
  return o[key] === undefined || o[key] === null ? null : str(o, key);
}
function int(o: Json, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new V2DecodeError(`${key} must be an integer`);
  return v;
}
function optInt(o: Json, key: string): number | null {
  return o[key] === undefined || o[key] === null ? null : int(o, key);
}
function optStrings(o: Json, key: string): string[] | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new V2DecodeError(`${key} must be a list of strings`);
  return v as string[];
}

function matching(b: Json): { case: 'sensitive' | 'insensitive' | null; whole_word: boolean | null } {
  const c = b.case;
  if (c !== undefined && c !== null && c !== 'sensitive' && c !== 'insensitive') throw new V2DecodeError('case must be sensitive or insensitive');
  const w = b.whole_word;
  if (w !== undefined && w !== null && typeof w !== 'boolean') throw new V2DecodeError('whole_word must be a boolean');
  return { case: c ?? null, whole_word: w ?? null };
}
const selection = (b: Json) => ({
  index: str(b, 'index'), query: str(b, 'query'), year_min: optInt(b, 'year_min'), year_max: optInt(b, 'year_max'), ...matching(b),
});
const rankRange = (b: Json) => ({
  index: str(b, 'index'), expected_index_version: str(b, 'expected_index_version'), shard_id: str(b, 'shard_id'),
  rank_from: int(b, 'rank_from'), rank_to: int(b, 'rank_to'), query: optStr(b, 'query'), ...matching(b),
});

const filters = (b: Json) => ({
  languages: optStrings(b, 'languages'), commonlingua_languages: optStrings(b, 'commonlingua_languages'),
  topics: optStrings(b, 'topics'), sources: optStrings(b, 'sources'), countries: optStrings(b, 'countries'),
});

const estimateBody = (b: Json) => ({ ...selection(b), ...filters(b), sample_size: optInt(b, 'sample_size'), seed: optInt(b, 'seed') });

/**
 * Checks the body of a v2 request at the process boundary. The gateway validated the public request already;
 * this only guarantees the types the domain relies on (its own range and limit checks follow).
 */
export function decodeV2Request(kind: V2Kind, raw: unknown): V2WorkerRequest {
  const b = obj(raw, 'body');
  switch (kind) {
    case 'v2_find':
    case 'v2_count':
    case 'v2_timeline':
      return { kind, body: selection(b) };
    case 'v2_contexts':
      return { kind, body: { ...rankRange(b), query: str(b, 'query'), context_bytes: optInt(b, 'context_bytes') } };
    case 'v2_estimate':
    case 'v2_estimate_intervals':
      return { kind, body: estimateBody(b) };
    case 'v2_search': {
      // The query comes as text or as its JSON form; the domain validates the tree (its own 422s).
      const body = {
        index: str(b, 'index'), query: optStr(b, 'query'), query_tree: b.query_tree ?? null, year_min: optInt(b, 'year_min'),
        year_max: optInt(b, 'year_max'), ...matching(b), ...filters(b), page_size: optInt(b, 'page_size'), cursor: optStr(b, 'cursor'),
      };
      return { kind, body };
    }
    case 'v2_estimate_resolve': {
      const draws = b.draws;
      if (draws !== null && (!Array.isArray(draws) || !draws.every((d) => Array.isArray(d) && d.length === 2 && typeof d[0] === 'string' && Number.isSafeInteger(d[1])))) {
        throw new V2DecodeError('draws must be null or a list of [shard_id, rank]');
      }
      return { kind, body: { request: estimateBody(obj(b.request, 'request')), draws: draws as [string, number][] | null } };
    }
    case 'v2_get_doc': {
      const fullText = b.full_text;
      if (fullText !== undefined && fullText !== null && typeof fullText !== 'boolean') throw new V2DecodeError('full_text must be a boolean');
      return {
        kind,
        body: {
          index: str(b, 'index'), expected_index_version: str(b, 'expected_index_version'), query: str(b, 'query'),
          shard_id: str(b, 'shard_id'), rank: int(b, 'rank'), max_ctx_len: optInt(b, 'max_ctx_len'), full_text: fullText ?? null,
          ...matching(b),
        },
      };
    }
    case 'v2_occurrences':
      return { kind, body: rankRange(b) };
    case 'v2_documents':
      return {
        kind,
        body: {
          ...rankRange(b),
          ...filters(b),
        },
      };
    case 'v2_metadata': {
      const docs = b.documents;
      if (!Array.isArray(docs)) throw new V2DecodeError('documents must be a list');
      return {
        kind,
        body: {
          index: str(b, 'index'), expected_index_version: str(b, 'expected_index_version'),
          documents: docs.map((d: unknown, i) => {
            const ref = obj(d, `documents[${i}]`);
            return { year: str(ref, 'year'), doc_ix: int(ref, 'doc_ix') };
          }),
        },
      };
    }
    case 'v2_info':
      return { kind, body: { index: optStr(b, 'index') } };
    default: {
      const never: never = kind;
      throw new V2DecodeError(`unknown v2 kind ${String(never)}`);
    }
  }
}

export function isV2Kind(kind: unknown): kind is V2Kind {
  return typeof kind === 'string' && (V2_KINDS as readonly string[]).includes(kind);
}
