import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** The shared real corpora (absent on a machine without them: the tests that use them are skipped). */
export const CORPORA = fileURLToPath(new URL('../../../../../shared/corpora', import.meta.url));
export const hasCorpora = (): boolean => existsSync(CORPORA);

/** The text and the title of the first `articles` articles of each file of each real corpus. */
export function* realCorpusTexts(articles: number): Generator<string> {
  for (const corpus of readdirSync(CORPORA).filter((c) => !c.includes('.'))) {
    for (const file of readdirSync(`${CORPORA}/${corpus}`).filter((f) => f.endsWith('.jsonl.gz'))) {
      const lines = gunzipSync(readFileSync(`${CORPORA}/${corpus}/${file}`))
        .toString('utf8')
        .split('\n', articles)
        .filter((l) => l.trim() !== '');
      for (const line of lines) {
        const { text, title } = JSON.parse(line) as { text: string; title?: string | null };
        yield text;
        yield title ?? '';
      }
    }
  }
}
