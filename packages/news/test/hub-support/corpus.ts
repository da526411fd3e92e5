/** The real corpora the hub and client tests build releases from (read from ../shared/corpora, never copied). */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const CORPORA = fileURLToPath(new URL('../../../../../shared/corpora', import.meta.url));
/** 258 real article pages from 181 publishers, crawled 2023-2026, in about 20 languages. */
export const FUNDUS = join(CORPORA, 'fundus-testdata-multi', 'fundus-testdata-multi.jsonl.gz');
