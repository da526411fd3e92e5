import { realpath, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { BuildError, ReleaseVerificationError } from '../errors.ts';
import { INDEX_MANIFEST_FILE, INDEX_VERSION_PATTERN, METADATA_MANIFEST_FILE, resolveRel } from '../layout.ts';
import { IndexManifestSchema, MetadataManifestSchema, readManifest, type StoriesEntry } from '../manifest.ts';
import { createPartialDir, putInPlace, refuseExistingOutput } from '../output-dir.ts';
import { checkManifestsAgree } from '../verify-manifests.ts';
import { composeManifests, saveManifests } from '../write-manifests.ts';
import { checkParts, type LoadedPart } from './check-parts.ts';
import { readPartManifest } from './part-manifest.ts';
import { checkPartPaths, confinedPartFile, refuseOutputOverlap, type PartFileRef } from './part-paths.ts';
import { placeFiles, type PlaceProgress } from './place-files.ts';

export interface AssembleReleaseOptions {
  /** Folders written by `news build --only-periods … --out PART_DIR`. */
  readonly parts: readonly string[];
  readonly out: string;
  /** Must equal the parts' index version (it is written into their metadata stores). */
  readonly indexVersion: string;
  /** Replace an existing non-empty `out`. */
  readonly force: boolean;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: AssembleProgress) => void) | undefined;
  /** Things the operator should know that are not errors (a part copied because it cannot be hard-linked). */
  readonly onNotice?: ((message: string) => void) | undefined;
}

export const defaultAssembleOptions = { force: false } as const satisfies Partial<AssembleReleaseOptions>;
export type AssembleReleaseInput = Omit<AssembleReleaseOptions, keyof typeof defaultAssembleOptions> &
  Partial<AssembleReleaseOptions>;

export type AssemblePhase = 'check' | 'place' | 'manifest' | 'done';
export interface AssembleProgress extends PlaceProgress {
  readonly phase: AssemblePhase;
}

export interface AssembleSummary {
  readonly out: string;
  readonly indexVersion: string;
  readonly parts: number;
  readonly shards: number;
  readonly years: number;
  readonly documents: number;
  readonly files: number;
  /** Bytes of the placed files (each read once and checked against its sha256). */
  readonly bytes: number;
  /** Bytes copied because a part could not be hard-linked (0 when every part is on the release's file system). */
  readonly copiedBytes: number;
  readonly seconds: number;
}

/**
 * Assembles a release from parts built by `news build --only-periods` (DESIGN.md, "Distributed builds"): checks that
 * they agree and that every path they name is a regular file inside the part, checks each file's sha256 and hard-links
 * it into `<out>.partial-<random>`, writes the two manifests and renames it into place. Nothing is written under `out` unless every check passes; a failure removes the partial folder.
 * @example await assembleRelease({ parts: ['p-1987', 'p-2009'], out: 'release', indexVersion: '2024-06-01' })
 */
export async function assembleRelease(input: AssembleReleaseInput): Promise<AssembleSummary> {
  const options: AssembleReleaseOptions = { ...defaultAssembleOptions, ...input };
  const started = Date.now();
  if (!INDEX_VERSION_PATTERN.test(options.indexVersion)) {
    throw new BuildError(
      'invalid_option',
      `index version ${JSON.stringify(options.indexVersion)} is not allowed; use letters, digits and . _ : + - (e.g. 2024-06-01.1)`,
    );
  }
  const dirs = options.parts.map((p) => resolve(p));
  const twice = dirs.find((d, i) => dirs.indexOf(d) !== i);
  if (twice) throw new BuildError('parts_overlap', `part ${twice} is given twice; pass each part folder once`);
  const out = resolve(options.out);
  refuseOutputOverlap(out, dirs);
  await refuseExistingOutput(out, options.force);

  const report = (phase: AssemblePhase, p: PlaceProgress): void => options.onProgress?.({ phase, ...p });
  const empty: PlaceProgress = {
    filesDone: 0,
    filesTotal: 0,
    bytesDone: 0,
    bytesTotal: 0,
    bytesVerified: 0,
    copiedBytes: 0,
  };
  report('check', empty);
  const parts = await Promise.all(dirs.map(loadPart));
  const contents = checkParts(parts, options.indexVersion);
  const files = await checkFiles(filesOf(parts, contents.stories));
  // The composed manifests must pass the same agreement check a worker runs before any file is placed.
  const { index, metadata } = composeManifests(contents, new Date().toISOString());
  checkManifestsAgree(out, index, metadata, options.indexVersion);

  const partial = await createPartialDir(out);
  try {
    const placed = await placeFiles(
      files.map((f) => ({ ...f, to: resolveRel(partial, f.rel) })),
      {
        signal: options.signal,
        onNotice: options.onNotice,
        onProgress: (p) => report('place', p),
      },
    );
    if (options.signal?.aborted)
      throw new BuildError('aborted', 'assembly interrupted; nothing was written, run news release assemble again');
    report('manifest', placed);
    const totals = await saveManifests(partial, contents);
    await putInPlace(partial, out, options.force);
    report('done', placed);
    return {
      out,
      indexVersion: options.indexVersion,
      parts: parts.length,
      shards: contents.shards.length,
      years: contents.years.length,
      documents: totals.documents,
      files: files.length,
      bytes: placed.bytesTotal,
      copiedBytes: placed.copiedBytes,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (e) {
    await rm(partial, { recursive: true, force: true });
    if (options.signal?.aborted && !(e instanceof BuildError))
      throw new BuildError('aborted', 'assembly interrupted; nothing was written, run news release assemble again');
    throw e;
  }
}

async function loadPart(dir: string): Promise<LoadedPart> {
  const part = await readPartManifest(dir);
  const index = await readManifest(dir, INDEX_MANIFEST_FILE, IndexManifestSchema);
  const metadata = await readManifest(dir, METADATA_MANIFEST_FILE, MetadataManifestSchema);
  checkManifestsAgree(dir, index, metadata, undefined, false);
  const ix = index.indexes.find((i) => i.name === part.index);
  const mx = metadata.indexes.find((i) => i.name === part.index);
  if (!ix || !mx || index.index_version !== part.index_version) {
    throw new ReleaseVerificationError(
      'manifest_mismatch',
      `part ${dir}: its part manifest names index ${part.index} of ${part.index_version}, its release manifests do not; rebuild the part with news build --only-periods`,
    );
  }
  const loaded = { dir, part, index: ix, metadata: mx };
  checkPartPaths(loaded);
  return loaded;
}

/** Every shard file, metadata store and the country table of the parts, with its path inside the part and the release. */
function filesOf(parts: readonly LoadedPart[], stories: StoriesEntry | undefined): PartFileRef[] {
  const files: PartFileRef[] = [];
  const add = (part: string, rel: string, f: { bytes: number; sha256: string }): void => {
    files.push({ part, rel, bytes: f.bytes, sha256: f.sha256 });
  };
  const stores = new Set<string>();
  for (const p of parts) {
    for (const s of p.index.shards) {
      for (const f of s.files) add(p.dir, `${s.dir}/${f.name}`, f);
      for (const f of s.titles?.files ?? []) add(p.dir, `${s.titles?.dir}/${f.name}`, f);
      if (s.word_counts) add(p.dir, s.word_counts.file, s.word_counts);
    }
    // Parts that share a year hold the same whole-year store (checked): place it once.
    for (const y of p.metadata.years) if (!stores.has(y.year)) add(p.dir, y.file, y);
    for (const y of p.metadata.years) stores.add(y.year);
  }
  const countries = parts[0]?.metadata.countries;
  if (parts[0] && countries) add(parts[0].dir, countries.file, countries);
  // Each year's story file from the first part that holds it (the same file in all of them: assemble-stories.ts).
  for (const y of stories?.years ?? []) {
    const holder = parts.find((p) => p.metadata.stories?.years.some((s) => s.year === y.year));
    if (holder) add(holder.dir, y.file, y);
  }
  return files;
}

/**
 * Every file is a regular file inside its part with its manifest size (part-paths.ts), before anything is placed;
 * returns them with the path to read them from. Their sha256 is checked as they are placed.
 */
async function checkFiles(files: readonly PartFileRef[]): Promise<(PartFileRef & { from: string })[]> {
  const roots = new Map<string, Promise<string>>();
  const check = async (f: PartFileRef): Promise<PartFileRef & { from: string }> => {
    let root = roots.get(f.part);
    if (root === undefined) roots.set(f.part, (root = realpath(f.part)));
    return { ...f, from: await confinedPartFile(f, await root) };
  };
  const checked: (PartFileRef & { from: string })[] = [];
  // Batches of lstat calls overlap on the libuv pool; a first failure is reported after its batch settles.
  for (let i = 0; i < files.length; i += 64) {
    const settled = await Promise.allSettled(files.slice(i, i + 64).map(check));
    for (const r of settled) {
      if (r.status === 'rejected') throw r.reason;
      checked.push(r.value);
    }
  }
  return checked;
}
