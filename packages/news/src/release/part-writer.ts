import { join } from 'node:path';
import { createShardWriter, type ShardWriter } from '../shard/index.ts';
import { TITLES_DIR } from './layout.ts';

/**
 * One part's two shards, written in step: the article texts, and in `titles/` inside its folder (layout.ts) the
 * articles' headlines, so article `d` of the part is headline `d` of its headline index (an article without a
 * title has an empty headline). Sizes (`textBytes`) are the article texts': they decide where parts are cut.
 */
export interface PartWriter {
  append(text: Uint8Array, title: Uint8Array): number;
  readonly textBytes: number;
  readonly docCount: number;
  finish(): Promise<void>;
}

export function createPartWriter(dir: string): PartWriter {
  const body: ShardWriter = createShardWriter(dir);
  const titles: ShardWriter = createShardWriter(join(dir, TITLES_DIR));
  return {
    append(text, title) {
      titles.append(title);
      return body.append(text);
    },
    get textBytes() {
      return body.textBytes;
    },
    get docCount() {
      return body.docCount;
    },
    async finish() {
      await body.finish();
      await titles.finish();
    },
  };
}

/** The UTF-8 bytes of an article's headline: empty without one. */
export const headlineBytes = (title: string | null | undefined): Buffer => Buffer.from(title ?? '', 'utf8');
