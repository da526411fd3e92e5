import { addonWith } from '../../suffix-array/index.ts';

/** The build passes in `native/fm_build.c` (see the comment at its top for what each writes). */
export interface FmBuildAddon {
  fmBwtRows(
    text: Uint8Array,
    sa: Int32Array,
    bwt: Uint8Array,
    from: number,
    to: number,
    rate: number,
    width: number,
    chunkStart: Uint32Array,
    rowLow: Uint8Array,
    values: Uint32Array,
    state: Float64Array,
  ): void;
  fmBlockCounts(
    bwt: Uint8Array,
    rows: number,
    blockSymbols: number,
    fromBlock: number,
    toBlock: number,
    counts: Uint16Array,
  ): void;
  fmFillBlock(
    bwt: Uint8Array,
    from: number,
    to: number,
    lengths: Uint8Array,
    path: Uint32Array,
    child0: Int32Array,
    child1: Int32Array,
    cursor: Uint32Array,
    words: Uint32Array,
    base: number,
  ): void;
}

function isFmBuildAddon(addon: object): addon is FmBuildAddon {
  return 'fmBwtRows' in addon && typeof addon.fmBwtRows === 'function';
}

/**
 * The addon's build passes, or undefined when the addon is not built or predates them (the build then runs the
 * TypeScript passes, ~5× slower: the reference the property test compares the C passes against).
 */
export function loadFmBuild(): FmBuildAddon | undefined {
  return addonWith(isFmBuildAddon);
}
