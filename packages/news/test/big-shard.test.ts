/**
 * A shard whose suffix array passes 2^31 bytes (> 512 MiB of text): before issue 10 the build died after the whole
 * sort, because one Hash.update call over the suffix array is refused by Node at 2^31 bytes. Takes minutes and
 * ~3 GB of RAM, so it runs only with NEWS_BIG_TESTS=1 (e.g. `NEWS_BIG_TESTS=1 npx vitest run --project news
 * test/big-shard.test.ts`). Data goes to BIG_TEST_DIR (default: the OS temp folder) and is removed afterwards.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createShardWriter, indexShard, openShard, verifyShardFiles } from '../src/shard/index.ts';
import { bruteCount, seededRandom } from './support/corpora.ts';

const BIG = process.env['NEWS_BIG_TESTS'] === '1';
const TEXT_BYTES = 540 * 2 ** 20; // 540 MiB: the suffix array is 2.11 GiB, past 2^31 bytes
const dir = BIG ? mkdtempSync(join(process.env['BIG_TEST_DIR'] ?? tmpdir(), 'big-shard-')) : '';
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Articles of made-up words from a small vocabulary (like text: many repeats), deterministic. */
function* articles(total: number): Generator<Buffer> {
  const random = seededRandom(7);
  const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
  let produced = 0;
  while (produced < total) {
    const parts: string[] = [];
    const n = 50 + Math.floor(random() * 400);
    for (let w = 0; w < n; w++) parts.push(words[Math.floor(random() ** 2 * words.length)] as string);
    const doc = Buffer.from(parts.join(' '));
    produced += doc.length + 1;
    yield doc;
  }
}

describe.skipIf(!BIG)('a shard past 2^31 bytes of suffix array (NEWS_BIG_TESTS=1)', () => {
  it('builds, hashes, verifies and answers counts equal to a brute-force scan', async () => {
    const started = Date.now();
    const writer = createShardWriter(dir);
    for (const doc of articles(TEXT_BYTES)) writer.append(doc);
    await writer.finish();
    const files = await indexShard(dir);
    const seconds = (Date.now() - started) / 1000;
    process.stderr.write(`big shard: ${files.textBytes} text bytes indexed in ${seconds.toFixed(1)} s\n`);
    const sa = files.files.find((f) => f.name === 'sa.u32');
    expect(sa?.bytes).toBe(4 * files.textBytes);
    expect(sa?.bytes).toBeGreaterThan(2 ** 31);
    expect(statSync(join(dir, 'sa.u32')).size).toBe(sa?.bytes);
    await verifyShardFiles(dir, files); // streamed re-hash of every file equals what the build recorded
    const reader = openShard(dir, 'disk');
    const text = readFileSync(join(dir, 'text.bin'));
    for (const q of ['w0a', 'w1e w0a', 'w2i', 'absent-word', 'w3o w3o']) {
      expect(reader.count(Buffer.from(q)), q).toBe(bruteCount(text, Buffer.from(q)));
    }
    reader.close();
  }, 3_600_000);
});
