import { addonWith } from '../../suffix-array/index.ts';
import type { FmIndex } from './fm-index.ts';
import type { SaSamples } from './sa-samples.ts';

/** An opaque handle from the addon's fmOpenRrr: pointers into the arrays it keeps alive. */
type FmHandle = { readonly __fmHandle: unique symbol };

/** The locate walk in `native/fm_locate.c` (see the comment at its top). */
interface FmLocateAddon {
  fmOpenRrr(
    blockInfo: Int32Array,
    nodes: Int32Array,
    dir: Uint32Array,
    stream: Uint8Array,
    occ: Uint32Array,
    below: Float64Array,
    sampleChunks: Uint32Array,
    sampleRows: Uint8Array,
    sampleValues: Uint32Array,
    lens: Uint8Array,
    paths: Uint32Array,
    totals: Float64Array,
    rows: number,
    logBlock: number,
    dollar: number,
    rate: number,
    valueBits: number,
  ): FmHandle;
  fmSearch(handle: FmHandle, query: Uint8Array, out: Float64Array): void;
  fmCount(handle: FmHandle, query: Uint8Array): number;
  fmLocate(handle: FmHandle, row: number): number;
  fmLocateMany(handle: FmHandle, rows: Float64Array, out: Float64Array): void;
}

function isFmLocateAddon(addon: object): addon is FmLocateAddon {
  // fmOpenRrr (hybrid bits with format 5's RRR chunks; fmOpenHybrid before it knew no RRR chunk, and fmOpen before
  // that walked plain bits): an addon built before it must not be handed these arrays, the reader walks in TypeScript.
  return (
    'fmOpenRrr' in addon &&
    typeof addon.fmOpenRrr === 'function' &&
    'fmSearch' in addon &&
    typeof addon.fmSearch === 'function' &&
    'fmCount' in addon &&
    typeof addon.fmCount === 'function'
  );
}

/**
 * A shard's locate walk and backward search in C over the arrays FmIndex and SaSamples already hold (no copy): one
 * N-API call per locate, per batch, or per search. Results equal `FmIndex.lf` + `SaSamples.at` walked in TypeScript (the reference; see
 * native-locate.test.ts). −1 means the walk left the index's arrays or took more steps than the sample rate allows:
 * a damaged shard.
 */
export class NativeLocator {
  /** The search's answer, reused: one reader answers one search at a time (JavaScript is single-threaded). */
  private readonly interval = new Float64Array(2);

  private constructor(
    private readonly addon: FmLocateAddon,
    private readonly handle: FmHandle,
  ) {}

  /** The locator for this index, or undefined when the addon is unavailable (the caller walks in TypeScript). */
  static open(fm: FmIndex, samples: SaSamples): NativeLocator | undefined {
    const addon = addonWith(isFmLocateAddon); // undefined: not built, readers walk in TypeScript
    if (addon === undefined) return undefined;
    const a = fm.arrays();
    const handle = addon.fmOpenRrr(
      a.blockInfo,
      a.nodes,
      a.dir,
      a.stream,
      a.occ,
      a.below,
      samples.chunkStart,
      samples.rowLow,
      samples.values,
      a.lens,
      a.paths,
      a.totals,
      a.rows,
      a.logBlock,
      a.dollar,
      samples.rate,
      samples.width,
    );
    return new NativeLocator(addon, handle);
  }

  /** Text position of the suffix at FM row `row` (1 ≤ row < rows), or −1 for a damaged index. */
  position(row: number): number {
    return this.addon.fmLocate(this.handle, row);
  }

  /** Backward search of `query` (FmIndex.search in C): FM rows [sp, ep), or undefined for a damaged index. */
  search(query: Uint8Array): { sp: number; ep: number } | undefined {
    const out = this.interval;
    this.addon.fmSearch(this.handle, query, out);
    const sp = out[0] as number;
    return sp < 0 ? undefined : { sp, ep: out[1] as number };
  }

  /** FmIndex.count in C: the rows of suffixes starting with `query`, or −1 for a damaged index. */
  count(query: Uint8Array): number {
    return this.addon.fmCount(this.handle, query);
  }

  /** `position` of every row, in one call. */
  positions(rows: Float64Array): Float64Array {
    const out = new Float64Array(rows.length);
    this.addon.fmLocateMany(this.handle, rows, out);
    return out;
  }
}
