import { readSync } from 'node:fs';
import { countWords } from '../../words/index.ts';

/** Articles in a shard text file are preceded by this byte (shard/format.ts SEPARATOR; not UTF-8). */
const SEPARATOR = 0xff;
const CHUNK = 4 << 20;

/** Adds the case-sensitive words of `text` to `counts` (the words of `wordsOf`, counted by `countWords`). */
export function addWords(counts: Map<string, number>, text: string): void {
  countWords(counts, text);
}

/**
 * The count of every case-sensitive word of a shard's text file (`text.bin`: each article's UTF-8 after one 0xFF),
 * read from the open `fd` 4 MiB at a time so memory is the table, not the text. The caller owns `fd`.
 */
export function countShardText(fd: number): Map<string, number> {
  const counts = new Map<string, number>();
  const decoder = new TextDecoder();
  let carry: Buffer = Buffer.alloc(0);
  {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let pos = 0; ;) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) break;
      pos += n;
      const data = carry.length > 0 ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (let sep = data.indexOf(SEPARATOR); sep !== -1; sep = data.indexOf(SEPARATOR, start)) {
        if (sep > start) addWords(counts, decoder.decode(data.subarray(start, sep)));
        start = sep + 1;
      }
      // The article still open at the chunk's end waits for the rest (a copy: `buf` is reused).
      carry = Buffer.from(data.subarray(start));
    }
    if (carry.length > 0) addWords(counts, decoder.decode(carry));
  }
  return counts;
}
