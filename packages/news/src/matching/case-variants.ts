import { caseFold } from 'unicode-case-folding';
import type { RankInterval, ShardReader } from '../shard/types.ts';
import { charactersFoldingTo, foldedCodePoints, MAX_FOLD_LENGTH } from './case-folding.ts';
import { MatchingError } from './errors.ts';
import { WorkBudget } from '../work-budget/index.ts';

/** One spelling of the query that occurs in the shard, with its rank interval. */
export interface VariantInterval extends RankInterval {
  /** The spelling's UTF-8 bytes (what the text holds at every rank of the interval). */
  readonly bytes: Uint8Array;
}

/** The ranks the intervals hold: a shard's candidate occurrences of a query (before the whole-word rule). */
export const ranksIn = (intervals: readonly RankInterval[]): number =>
  intervals.reduce((n, iv) => n + iv.hi - iv.lo, 0);

/** Work allowed for one request, shared by all its shards: one step is one narrowing of an interval by a byte. */
export interface StepBudget {
  remaining: number;
  readonly limit: number;
  /** The request's deadline, cancel and CPU limit: the walk is synchronous, so it checks them without pausing. */
  readonly work: WorkBudget;
}

export const DEFAULT_CASE_STEPS = 100_000;

export function stepBudget(limit = DEFAULT_CASE_STEPS, work: WorkBudget = WorkBudget.unlimited()): StepBudget {
  return { remaining: limit, limit, work };
}

/** Below this many ranks the walk reads each suffix and compares it with the folded query directly. */
const SCAN_RANKS = 16;

const utf8 = new TextEncoder();

/** The folded query and, per position, the spellings that can stand there: (folded code points used, bytes). */
interface CasePlan {
  readonly folded: readonly number[];
  readonly options: readonly (readonly { readonly k: number; readonly bytes: Uint8Array }[])[];
  /** The folded query from each position on, as a string (for the direct comparison of small intervals). */
  readonly rests: readonly string[];
}

const plans = new Map<string, CasePlan>();

/** The walk's plan for a query, made once per query (shards and requests share it). */
function planFor(query: string): CasePlan {
  let plan = plans.get(query);
  if (plan !== undefined) return plan;
  const folded = foldedCodePoints(query);
  const options = folded.map((_, i) => {
    const out: { k: number; bytes: Uint8Array }[] = [];
    for (let k = 1; k <= MAX_FOLD_LENGTH && i + k <= folded.length; k++) {
      for (const ch of charactersFoldingTo(String.fromCodePoint(...folded.slice(i, i + k))))
        out.push({ k, bytes: utf8.encode(ch) });
    }
    return out;
  });
  const rests = folded.map((_, i) => String.fromCodePoint(...folded.slice(i)));
  plan = { folded, options, rests };
  if (plans.size >= 1024) plans.clear();
  plans.set(query, plan);
  return plan;
}

/** Narrowing by one byte: the reader's own when it has one, else a search for the whole prefix (any index kind). */
function narrower(reader: ShardReader): (iv: RankInterval, prefix: Uint8Array, depth: number) => RankInterval {
  if (reader.narrow !== undefined) {
    const narrow = reader.narrow.bind(reader);
    return (iv, prefix, depth) => narrow(iv, depth, prefix[depth] as number);
  }
  return (_iv, prefix, depth) => reader.find(prefix.subarray(0, depth + 1));
}

/**
 * Bytes of `text` from its start that spell the folded query's code points from `i` on, character by character
 * (each character's whole folding must fit), or -1.
 */
function spelledLength(text: Uint8Array, plan: CasePlan, i: number): number {
  const rest = plan.rests[i] as string;
  let at = 0;
  let bytes = 0;
  // ASCII fast path: an ASCII byte folds to itself or, for A–Z, to a–z.
  while (at < rest.length && bytes < text.length) {
    const b = text[bytes] as number;
    if (b >= 0x80) break;
    const f = b >= 0x41 && b <= 0x5a ? b | 0x20 : b;
    if (rest.charCodeAt(at) !== f) return -1;
    at++;
    bytes++;
  }
  if (at === rest.length) return bytes;
  const s = Buffer.from(text.buffer, text.byteOffset + bytes, text.length - bytes).toString('utf8');
  for (const ch of s) {
    if (at === rest.length) break;
    if (ch === '\ufffd') return -1;
    const f = caseFold(ch);
    if (!rest.startsWith(f, at)) return -1;
    at += f.length;
    bytes += Buffer.byteLength(ch);
  }
  return at === rest.length ? bytes : -1;
}

/**
 * Case-insensitive search: every spelling of the text that equals the query under full Unicode case folding, as
 * disjoint rank intervals in rank order. Walks the spellings as a tree, character by character of the folded
 * query, narrowing the rank interval byte by byte and pruning each branch as soon as its interval is empty, so the
 * work follows the spellings that really occur; once an interval is small, its few suffixes are read and compared
 * directly. Two spellings never nest: both fold to the whole query, so one cannot be a proper prefix of the other.
 *
 * @example findCaseVariants(reader, 'strasse', stepBudget()) // STRASSE, Straße, strasse … where they occur
 */
export function findCaseVariants(reader: ShardReader, query: string, budget: StepBudget): VariantInterval[] {
  const plan = planFor(query);
  const { folded } = plan;
  const narrow = narrower(reader);
  const out: VariantInterval[] = [];
  // A folded code point comes from a character of at most 4 UTF-8 bytes.
  const path = new Uint8Array(folded.length * 4 + 4);
  const spend = (n: number): void => {
    budget.work.check();
    budget.remaining -= n;
    if (budget.remaining < 0) {
      throw new MatchingError(
        'query_too_complex',
        `the case-insensitive search for this query needs more than ${budget.limit} steps (it has too many spellings that occur); ` +
          'search case-sensitively or with a longer phrase',
        budget.limit,
      );
    }
  };

  // Few ranks left: read each suffix's next bytes and keep those that spell the rest; equal spellings are adjacent.
  const scan = (i: number, iv: RankInterval, depth: number, read: (s: number, e: number) => Uint8Array): void => {
    const need = (folded.length - i) * 4;
    let run: { lo: number; hi: number; bytes: Uint8Array } | undefined;
    for (let r = iv.lo; r < iv.hi; r++) {
      spend(1);
      const pos = reader.locate(r).pos + depth;
      const text = read(pos, pos + need);
      const len = spelledLength(text, plan, i);
      if (len < 0) {
        if (run) {
          out.push(run);
          run = undefined;
        }
        continue;
      }
      const bytes = new Uint8Array(depth + len);
      bytes.set(path.subarray(0, depth));
      bytes.set(text.subarray(0, len), depth);
      if (run !== undefined && Buffer.compare(run.bytes, bytes) === 0) run.hi = r + 1;
      else {
        if (run) out.push(run);
        run = { lo: r, hi: r + 1, bytes };
      }
    }
    if (run) out.push(run);
  };

  const walk = (i: number, iv: RankInterval, depth: number): void => {
    if (i === folded.length) {
      out.push({ lo: iv.lo, hi: iv.hi, bytes: path.slice(0, depth) });
      return;
    }
    if (iv.hi - iv.lo <= SCAN_RANKS && reader.readText !== undefined) {
      scan(i, iv, depth, reader.readText.bind(reader));
      return;
    }
    for (const { k, bytes } of plan.options[i] as readonly { k: number; bytes: Uint8Array }[]) {
      let next = iv;
      let d = depth;
      for (const b of bytes) {
        spend(1);
        path[d] = b;
        next = narrow(next, path, d);
        d++;
        if (next.lo >= next.hi) break;
      }
      if (next.lo < next.hi && d === depth + bytes.length) walk(i + k, next, d);
    }
  };
  if (folded.length > 0) walk(0, { lo: 0, hi: reader.stats.textBytes }, 0);
  return out.sort((a, b) => a.lo - b.lo);
}
