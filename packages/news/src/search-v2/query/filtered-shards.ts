import type { MetadataStore, OpenRelease, ReleaseIndex, ShardHandle } from '../../release/types.ts';
import { V2Error } from '../errors.ts';
import { compileFilters, hasNoFilter } from '../filters.ts';
import { shardsInYears } from '../find.ts';
import { lookupIndex } from '../release-lookup.ts';
import type { SearchRequest } from './types.ts';

/** The shards a query-language call reads and which of their articles pass its metadata filters. */
export interface FilteredShards {
  readonly index: ReleaseIndex;
  readonly shards: readonly ShardHandle[];
  /** Per shard (same index), its year's metadata store; undefined when missing and no filter needs it. */
  readonly stores: readonly (MetadataStore | undefined)[];
  /** Whether article `doc` (shard-local) of `shards[i]` passes the filters. */
  keep(i: number, doc: number): boolean;
}

/**
 * The selected years' shards of the request's index (narrowed by `only`, e.g. to a story's span) with their
 * metadata stores and the filter predicate; 503 `year_store_missing` when a filter needs a year's missing store.
 */
export function filteredShards(
  release: OpenRelease,
  request: SearchRequest,
  only: (shard: ShardHandle) => boolean = () => true,
): FilteredShards {
  const index = lookupIndex(release, request.index);
  const shards = shardsInYears(release, { ...request, query: '' }).filter(only);
  const filtered = !hasNoFilter(request);
  const predicate = compileFilters(request, index);
  const stores = shards.map((shard) => {
    const store = index.metadata(shard.year);
    if (filtered && store === undefined) {
      throw new V2Error(
        'year_store_missing',
        `the metadata of ${shard.year} is not available, so the filters cannot be applied`,
        { year: shard.year },
      );
    }
    return store;
  });
  const keep = (i: number, doc: number): boolean => {
    if (!filtered) return true;
    // Only the filterable fields: store format 3 answers them without decompressing the article's row.
    const m = stores[i]?.filterFields((shards[i] as ShardHandle).docBase + doc);
    return m !== undefined && predicate(m);
  };
  return { index, shards, stores, keep };
}
