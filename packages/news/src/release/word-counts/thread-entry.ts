/**
 * The word-count thread's code (bundled by word-count-thread.ts: the thread cannot load TypeScript itself). Counts a
 * shard's words, writes its table and answers with the file's size, sha256 and totals.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { countShardText } from './count-text.ts';
import { encodeWordCounts, tableOfCounts } from './format.ts';
import type { CountJob, CountReply } from './word-count-thread.ts';

parentPort?.on('message', (job: CountJob) => {
  let reply: CountReply;
  const started = performance.now();
  try {
    const table = tableOfCounts(countShardText(job.fd), job.floor);
    const bytes = encodeWordCounts(table);
    writeFileSync(job.outPath, bytes);
    reply = {
      id: job.id,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      tokens: table.tokens,
      types: table.types,
      countMs: performance.now() - started,
    };
  } catch (e) {
    reply = { id: job.id, error: (e as Error).message };
  }
  parentPort?.postMessage(reply);
});
