import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The suffix sorters the addon can hold: our SA-IS always, libdivsufsort when it was found at build time. */
export type SuffixSorter = 'divsufsort' | 'sais';

/** The suffix-sorting addon built from `packages/news/native` (see DESIGN.md in src/shard). */
export interface DivsufsortAddon {
  /** Sorts off the main thread; writes int32 LE pointers into `out` (exactly 4 × text.length bytes, 4-aligned). */
  sortSuffixes(text: Uint8Array, out: Uint8Array, sorter?: SuffixSorter): Promise<void>;
  /** The sorters compiled in, the default first. */
  readonly sorters: readonly SuffixSorter[];
}

/** Thrown when the native addon is missing or cannot be loaded; the message says what to run. */
export class NativeAddonMissingError extends Error {
  override readonly name = 'NativeAddonMissingError';
}

/** Where `packages/news/native/build.mjs` (the root postinstall) puts the addon. */
export const ADDON_FILE = fileURLToPath(new URL('../../native/build/Release/divsufsort_addon.node', import.meta.url));
const FIX =
  'Build it from the repository root with: npm run postinstall (runs node packages/news/native/build.mjs; ' +
  'needs only a C compiler, and uses libdivsufsort-dev as a faster sorter when installed).';

let cached: DivsufsortAddon | undefined;

/** Loads the addon once; throws NativeAddonMissingError with the fix when it is not built. */
export function loadDivsufsort(file: string = ADDON_FILE): DivsufsortAddon {
  if (cached && file === ADDON_FILE) return cached;
  if (!existsSync(file)) {
    throw new NativeAddonMissingError(`The suffix-array addon ${file} is not built. ${FIX}`);
  }
  let addon: DivsufsortAddon;
  try {
    addon = createRequire(import.meta.url)(file) as DivsufsortAddon;
  } catch (err) {
    throw new NativeAddonMissingError(`The suffix-array addon ${file} failed to load (${String(err)}). ${FIX}`);
  }
  if (file === ADDON_FILE) cached = addon;
  return addon;
}
