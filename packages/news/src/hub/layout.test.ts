import { describe, expect, it } from 'vitest';
import { checkHubManifest, HubFormatError, partitionPath } from './layout.ts';

const manifest = {
  format: 'news-hub',
  format_version: 1,
  index_version: 'v1',
  index: 'news',
  total_rows: 5,
  shards: [
    { shard_id: '2024-01', year: '2024', first_doc_ix: 0, rows: 3 },
    { shard_id: '2024-02', year: '2024', first_doc_ix: 3, rows: 2 },
  ],
  years: [
    {
      year: '2024',
      rows: 5,
      partitions: [
        { path: partitionPath('news', '2024', 0), first_doc_ix: 0, rows: 4, bytes: 1, sha256: 'x' },
        { path: partitionPath('news', '2024', 1), first_doc_ix: 4, rows: 1, bytes: 1, sha256: 'y' },
      ],
    },
  ],
};

describe('hub manifest', () => {
  it('accepts a manifest whose shards, years and partitions agree', () => {
    expect(checkHubManifest(manifest).total_rows).toBe(5);
    expect(partitionPath('news', '2024', 1)).toBe('data/news/year=2024/part-00001.parquet');
  });

  it('refuses another format version', () => {
    expect(() => checkHubManifest({ ...manifest, format_version: 2 })).toThrow(HubFormatError);
  });

  it('refuses row counts that do not add up', () => {
    expect(() => checkHubManifest({ ...manifest, total_rows: 6 })).toThrow(/row counts disagree/);
  });

  it('refuses partitions with a gap in doc_ix', () => {
    const years = [
      {
        ...manifest.years[0],
        partitions: [{ ...manifest.years[0]!.partitions[0]!, rows: 3 }, manifest.years[0]!.partitions[1]],
      },
    ];
    expect(() => checkHubManifest({ ...manifest, years })).toThrow(/starts at doc_ix 4, expected 3/);
  });
});
