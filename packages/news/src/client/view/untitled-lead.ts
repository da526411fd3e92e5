import type { GetDocResponse } from '../api/types.ts';
import { LEAD_FETCH_MAX_BYTES, leadSentence } from '../search/lead-sentence.ts';
import type { SnippetCuts } from '../search/snippet.ts';

/**
 * The heading of an untitled article: its lead sentence when the snippet window holds the article's start and
 * that sentence's end; else, for an article of at most 20 KB, the lead of its full text; else null (the caller
 * keeps the context's opening words). A failed full-text read also gives null: the heading is a nicety.
 */
export async function untitledLead(
  doc: GetDocResponse,
  cuts: SnippetCuts,
  fullText: () => Promise<GetDocResponse>,
): Promise<string | null> {
  if (!cuts.cutStart) {
    const lead = leadSentence(doc.text);
    const whole = doc.text.replace(/\s+/g, ' ').trim();
    if (!cuts.cutEnd || lead.length < whole.length) return lead;
  }
  if (doc.doc_len > LEAD_FETCH_MAX_BYTES) return null;
  try {
    return leadSentence((await fullText()).text);
  } catch {
    return null;
  }
}
