import type { MergedArticle } from './article-merge.ts';
import type { SearchSession } from './search-session.ts';

export interface AutoExamineOptions {
  /** Stop once this many matching articles are loaded. */
  readonly wanted: number;
  /** Whether more matching articles may exist (false once the estimate says all were found). */
  readonly mayFindMore: () => boolean;
  /** False once the reader started another search: stop without another request. */
  readonly alive: () => boolean;
  /** Called before each automatic step, to say how far the scan got. */
  readonly progress: () => void;
  readonly maxSteps: number;
  readonly maxMs: number;
}

/** Bounds of one automatic scan: about 500,000 occurrences or 20 s, whichever comes first; then the reader decides. */
export const defaultAutoExamineOptions = { maxSteps: 500, maxMs: 20_000 } as const;

/**
 * Examines further steps by itself while filters leave fewer than `wanted` matching articles loaded (issue 13
 * bug 6: "the" with language `ja` took 142 clicks before the first card). Returns the articles every step added.
 */
export async function examineUntilEnough(
  s: SearchSession,
  opts: AutoExamineOptions,
  now: () => number = () => Date.now(),
): Promise<MergedArticle[]> {
  const added: MergedArticle[] = [];
  const start = now();
  for (let step = 0; step < opts.maxSteps && now() - start < opts.maxMs; step++) {
    if (s.done || !opts.alive() || s.articles.totals().matchingArticles >= opts.wanted || !opts.mayFindMore()) break;
    opts.progress();
    added.push(...(await s.examineNext()));
  }
  return added;
}
