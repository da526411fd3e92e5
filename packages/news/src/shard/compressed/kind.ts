import { SORT_BYTES_PER_TEXT_BYTE } from '../../suffix-array/index.ts';
import type { IndexKind } from '../index-kind.ts';
import { defaultReadWholeFileOptions } from '../whole-file.ts';
import {
  COMPRESSED_FORMAT_VERSION,
  COMPRESSED_KIND,
  COMPRESSED_READABLE_VERSIONS,
  readCompressedHeader,
} from './format.ts';
import { indexCompressedShard } from './indexer.ts';
import { openCompressedShard } from './open.ts';

/**
 * What the compressed kind holds beyond the sort, per text byte: the compressed text blocks (≈ 0.38, compressed on
 * the pool while the sort runs), the wavelet bits and SA samples (≈ 0.35) built while the suffix array is still alive
 * (the BWT is written over the suffix array, so it adds nothing). Measured peak on the 1 GB synthetic shard: 5.79
 * bytes per text byte with libdivsufsort, overhead included (BENCHMARKS.md); 0.75 keeps the plan above it.
 */
export const COMPRESSED_EXTRA_BYTES_PER_TEXT_BYTE = 0.75;

/**
 * Index files per text byte, with room to spare: 0.743 measured on the 20 GB synthetic month (1 GB parts; format v2
 * at rate 48, v3 at rate 36) (BENCHMARKS.md), the real corpora less.
 */
export const COMPRESSED_DISK_BYTES_PER_TEXT_BYTE = 0.8;

/** The compressed FM-index kind (DESIGN.md): wavelet-tree BWT, sampled suffix array, text in compressed blocks. */
export const compressedKind = {
  name: COMPRESSED_KIND,
  summary: 'compressed FM-index (~0.8× text)',
  filesNoun: 'the compressed index files',
  formatVersion: COMPRESSED_FORMAT_VERSION,
  readableFormatVersions: COMPRESSED_READABLE_VERSIONS,
  cost: {
    peakBytesPerTextByte: (sorter) => SORT_BYTES_PER_TEXT_BYTE[sorter] + COMPRESSED_EXTRA_BYTES_PER_TEXT_BYTE,
    diskBytesPerTextByte: COMPRESSED_DISK_BYTES_PER_TEXT_BYTE,
    // indexCompressedShard removes text.bin once its files are written.
    replacesText: true,
  },
  index: (dir, opts) => indexCompressedShard(dir, opts),
  // Its files are read, not mapped: its native walk gives the arrays huge pages, which a file mapping cannot take.
  open: (dir, mode, read) => openCompressedShard(dir, mode, { ...defaultReadWholeFileOptions, ...read }),
  readHeader: readCompressedHeader,
} as const satisfies IndexKind<typeof COMPRESSED_KIND>;
