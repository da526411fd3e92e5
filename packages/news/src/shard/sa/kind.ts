import { SORT_BYTES_PER_TEXT_BYTE } from '../../suffix-array/index.ts';
import type { IndexKind } from '../index-kind.ts';
import { readShardHeader, SHARD_FORMAT_VERSION } from './format.ts';
import { indexShard } from './indexer.ts';
import { openSaShard } from './open.ts';

/** The suffix-array kind (DESIGN.md): the text and its 4-byte suffix array, searched by binary search. */
export const saKind = {
  name: 'sa',
  summary: 'suffix array (fastest, ~5× text)',
  filesNoun: 'the suffix arrays',
  formatVersion: SHARD_FORMAT_VERSION,
  readableFormatVersions: [SHARD_FORMAT_VERSION],
  cost: {
    // The sort is the peak: the text and its suffix array (5 bytes per text byte with libdivsufsort, 5.5 with SA-IS).
    peakBytesPerTextByte: (sorter) => SORT_BYTES_PER_TEXT_BYTE[sorter],
    // A 4-byte suffix array per text byte, kept beside the text, 2 % for the filesystem.
    diskBytesPerTextByte: 4 * 1.02,
    replacesText: false,
  },
  index: indexShard,
  open: openSaShard,
  readHeader: readShardHeader,
} as const satisfies IndexKind<'sa'>;
