import type { RankInterval, ShardReader } from '../shard/types.ts';
import { charactersFoldingTo, foldedCodePoints, MAX_FOLD_LENGTH } from './case-folding.ts';
import { MatchingError } from './errors.ts';

/** One spelling of the query that occurs in the shard, with its rank interval. */
export interface VariantInterval extends RankInterval {
  /** The spelling's UTF-8 bytes (what the text holds at every rank of the interval). */
  readonly bytes: Uint8Array;
}

/** Work allowed for one request, shared by all its shards: one step is one narrowing of an interval by a byte. */
export interface StepBudget {
  remaining: number;
  readonly limit: number;
}

export const DEFAULT_CASE_STEPS = 100_000;

export function stepBudget(limit = DEFAULT_CASE_STEPS): StepBudget {
  return { remaining: limit, limit };
}

const utf8 = new TextEncoder();

/** Narrowing by one byte: the reader's own when it has one, else a search for the whole prefix (any index kind). */
function narrower(reader: ShardReader): (iv: RankInterval, prefix: Uint8Array, depth: number) => RankInterval {
  if (reader.narrow !== undefined) {
    const narrow = reader.narrow.bind(reader);
    return (iv, prefix, depth) => narrow(iv, depth, prefix[depth] as number);
  }
  return (_iv, prefix, depth) => reader.find(prefix.subarray(0, depth + 1));
}

/**
 * Case-insensitive search: every spelling of the text that equals the query under full Unicode case folding, as
 * disjoint rank intervals in rank order. Walks the spellings as a tree, character by character of the folded
 * query, narrowing the rank interval byte by byte and pruning each branch as soon as its interval is empty, so the
 * work follows the spellings that really occur. Two spellings never nest: both fold to the whole query, so one
 * cannot be a proper prefix of the other.
 *
 * @example findCaseVariants(reader, 'strasse', stepBudget()) // STRASSE, Straße, strasse … where they occur
 */
export function findCaseVariants(reader: ShardReader, query: string, budget: StepBudget): VariantInterval[] {
  const folded = foldedCodePoints(query);
  const narrow = narrower(reader);
  const out: VariantInterval[] = [];
  // A folded code point comes from a character of at most 4 UTF-8 bytes.
  const path = new Uint8Array(folded.length * 4 + 4);

  const walk = (i: number, iv: RankInterval, depth: number): void => {
    if (i === folded.length) {
      out.push({ lo: iv.lo, hi: iv.hi, bytes: path.slice(0, depth) });
      return;
    }
    for (let k = 1; k <= MAX_FOLD_LENGTH && i + k <= folded.length; k++) {
      for (const ch of charactersFoldingTo(String.fromCodePoint(...folded.slice(i, i + k)))) {
        const bytes = utf8.encode(ch);
        let next = iv;
        let d = depth;
        for (const b of bytes) {
          if (--budget.remaining < 0) {
            throw new MatchingError('query_too_complex',
              `the case-insensitive search for this query needs more than ${budget.limit} steps (it has too many spellings that occur); ` +
              'search case-sensitively or with a longer phrase', budget.limit);
          }
          path[d] = b;
          next = narrow(next, path, d);
          d++;
          if (next.lo >= next.hi) break;
        }
        if (next.lo < next.hi && d === depth + bytes.length) walk(i + k, next, d);
      }
    }
  };
  if (folded.length > 0) walk(0, { lo: 0, hi: reader.stats.textBytes }, 0);
  return out.sort((a, b) => a.lo - b.lo);
}
