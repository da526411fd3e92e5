/**
 * What a call costs the worker, declared where its route is registered (`config: { cost }` on every `/api/` route,
 * `cost` on every `V2Route`). Measured (BENCHMARKS.md "News fairness"): counts, finds, get_doc, info and metadata
 * take a few ms; estimate, timeline, contexts, documents and occurrences, and any case-insensitive or whole-word
 * query, take tens to hundreds.
 */
export type RouteCost =
  /** Always cheap: admitted at once, never queued behind expensive work. */
  | 'cheap'
  /** Always expensive: counted against the client's budget and run in the expensive lane. */
  | 'expensive'
  /** Cheap unless the body asks for case-insensitive or whole-word matching (count, find: one backward search per spelling or a scan of candidates). */
  | 'by_matching';

export type CostClass = 'cheap' | 'expensive';

/** Everything `whole_word` may be that does not turn it on; anything else (true, 1, "true", …) is treated as on. */
const WHOLE_WORD_OFF = new Set<unknown>([undefined, null, false]);

/**
 * The cost class of one request. A body that is not a JSON object is cheap here: validation refuses it next.
 * @example costClass('by_matching', Buffer.from('{"query":"a","case":"insensitive"}')) // 'expensive'
 */
export function costClass(cost: RouteCost, body: unknown): CostClass {
  if (cost !== 'by_matching') return cost;
  if (!(body instanceof Buffer) || body.length === 0) return 'cheap';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'cheap';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'cheap';
  const { case: matchCase, whole_word: wholeWord } = parsed as { case?: unknown; whole_word?: unknown };
  const insensitive = matchCase !== undefined && matchCase !== null && matchCase !== 'sensitive';
  return insensitive || !WHOLE_WORD_OFF.has(wholeWord) ? 'expensive' : 'cheap';
}
