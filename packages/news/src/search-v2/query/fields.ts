import type { ShardHandle } from '../../release/types.ts';
import type { ShardReader } from '../../shard/index.ts';
import { V2Error } from '../errors.ts';
import type { TermField } from './ast.ts';

/**
 * The reader holding a field's text in one shard: the articles, or their headlines (the shard's headline index,
 * where document d is the headline of article d). 422 `headlines_not_indexed` for `title:` on a release built
 * before headlines were indexed: never a silent fallback to the article text.
 */
export function fieldReader(shard: ShardHandle, field: TermField): ShardReader {
  if (field === 'body') return shard.reader;
  if (shard.titles === undefined) {
    throw new V2Error(
      'headlines_not_indexed',
      `this release was built without a headline index (shard ${shard.shardId}), so title: terms cannot be answered; rebuild it with this version of news build`,
    );
  }
  return shard.titles;
}
