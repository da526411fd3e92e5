import { V2Error } from '../errors.ts';
import type { SearchRequest, SearchResult } from '../query/types.ts';

/**
 * Stories cannot be counted from several workers' answers: a story's copies may lie in years another worker holds,
 * and the answers carry counts, not story ids. Until they do, dedupe over split years is refused, not approximated.
 */
export function refuseSplitDedupe(parts: readonly SearchResult[], body: SearchRequest): void {
  if (parts.length > 1 && body.dedupe !== undefined && body.dedupe !== null && body.dedupe !== 'none') {
    throw new V2Error(
      'stories_unavailable',
      `dedupe ${body.dedupe} needs one worker holding every selected year; this cluster splits them (select fewer years or serve them from one worker)`,
      { dedupe: body.dedupe },
    );
  }
}
