import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { BuildError, ReleaseVerificationError } from '../errors.ts';
import { countriesRelPath, resolveRel, shardRelDir, titlesRelDir, yearStoreRelPath } from '../layout.ts';
import type { LoadedPart } from './check-parts.ts';

/** One file a part's manifests list, with the path (relative, `/`) it has in the part and in the release. */
export interface PartFileRef {
  readonly part: string;
  readonly rel: string;
  readonly bytes: number;
  readonly sha256: string;
}

const q = JSON.stringify;

/** Why `rel` is not a plain relative path (segments joined by `/`, none empty, `.` or `..`), or null when it is. */
export function plainPathProblem(rel: string): string | null {
  if (rel.includes('\0')) return 'it has a NUL byte';
  if (rel === '') return 'it is empty';
  if (isAbsolute(rel) || rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) return 'it is absolute';
  if (rel.includes('\\')) return 'it has a backslash';
  for (const segment of rel.split('/')) {
    if (segment === '') return 'it has an empty segment';
    if (segment === '.' || segment === '..') return `it has ${q(segment)}`;
  }
  return null;
}

/**
 * Checks every path the part's manifests name before any is opened: each is a plain relative path (no `..`, not
 * absolute, no NUL) and is exactly where news build puts it (`shardRelDir`, `yearStoreRelPath`, `countriesRelPath`),
 * so a part can neither reach outside itself nor make two files land on one path of the release.
 */
export function checkPartPaths(p: LoadedPart): void {
  const refuse = (manifest: string, rel: string, why: string): never => {
    throw new ReleaseVerificationError(
      'manifest_invalid',
      `part ${p.dir}: its ${manifest} manifest names ${q(rel)}, ${why}; rebuild that part with news build --only-periods`,
    );
  };
  const plain = (manifest: string, rel: string): void => {
    const problem = plainPathProblem(rel);
    if (problem !== null) refuse(manifest, rel, `which is not a plain relative path inside the part (${problem})`);
  };
  for (const s of p.index.shards) {
    const expected = shardRelDir(p.index.name, s.shard_id);
    for (const { dir, files, what, want } of shardFolders(s, expected)) {
      plain('index', dir);
      if (dir !== want) refuse('index', dir, `as the folder of ${what}; news build writes it in ${q(want)}`);
      for (const f of files) {
        plain('index', `${dir}/${f.name}`);
        if (f.name.includes('/'))
          refuse(
            'index',
            `${dir}/${f.name}`,
            'which is not a plain relative path inside the part (a file name holds a /)',
          );
      }
    }
  }
  for (const y of p.metadata.years) {
    plain('metadata', y.file);
    if (y.file !== yearStoreRelPath(p.metadata.name, y.year))
      refuse(
        'metadata',
        y.file,
        `as the store of ${y.year}; news build writes it as ${q(yearStoreRelPath(p.metadata.name, y.year))}`,
      );
  }
  const countries = p.metadata.countries;
  if (countries) {
    plain('metadata', countries.file);
    if (countries.file !== countriesRelPath(p.metadata.name))
      refuse(
        'metadata',
        countries.file,
        `as the country table; news build writes it as ${q(countriesRelPath(p.metadata.name))}`,
      );
  }
  const names = new Set<string>();
  for (const s of p.index.shards) {
    for (const { dir, files } of shardFolders(s, s.dir)) {
      for (const f of files) {
        if (names.has(`${dir}/${f.name}`)) refuse('index', `${dir}/${f.name}`, 'twice');
        names.add(`${dir}/${f.name}`);
      }
    }
  }
}

/** A shard's folder and, when it has one, its headline index's folder, with where news build writes each. */
function shardFolders(
  s: LoadedPart['index']['shards'][number],
  expected: string,
): { dir: string; files: readonly { name: string }[]; what: string; want: string }[] {
  const folders = [{ dir: s.dir, files: s.files, what: `shard ${s.shard_id}`, want: expected }];
  if (s.titles)
    folders.push({
      dir: s.titles.dir,
      files: s.titles.files,
      what: `the headlines of shard ${s.shard_id}`,
      want: titlesRelDir(expected),
    });
  return folders;
}

/**
 * `out` must not lie inside a part, nor a part inside `out`: the release is assembled from the parts' files, and
 * `--force` removes the old `out`, so either would read or delete what is being assembled.
 */
export function refuseOutputOverlap(out: string, parts: readonly string[]): void {
  const inside = (child: string, parent: string): boolean => {
    const r = relative(parent, child);
    return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
  };
  for (const part of parts) {
    if (inside(out, part))
      throw new BuildError(
        'invalid_option',
        `--out ${out} lies inside part ${part}; choose an --out outside every part folder`,
      );
    if (inside(part, out))
      throw new BuildError(
        'invalid_option',
        `part ${part} lies inside --out ${out}, which assembly writes (and --force replaces); choose an --out outside every part folder`,
      );
  }
}

/**
 * The file is a regular file (not a symbolic link) where the manifest says, and no folder on its way inside the part
 * is a link that leads elsewhere: its real path is the part's real path plus `rel`. Returns its absolute path.
 * (`rootReal` is the part folder's real path; the part folder itself may be reached through a link.)
 */
export async function confinedPartFile(f: PartFileRef, rootReal: string): Promise<string> {
  const path = resolveRel(f.part, f.rel);
  const st = await lstat(path).catch(() => undefined);
  if (!st)
    throw new ReleaseVerificationError(
      'file_missing',
      `part ${f.part} is missing ${f.rel}; rebuild that part with news build --only-periods`,
    );
  if (st.isSymbolicLink()) {
    throw new ReleaseVerificationError(
      'file_corrupt',
      `part ${f.part}: ${f.rel} is a symbolic link, not a regular file; assembly links only a part's own files: replace the link by the file itself or rebuild that part`,
    );
  }
  if (!st.isFile())
    throw new ReleaseVerificationError(
      'file_corrupt',
      `part ${f.part}: ${f.rel} is not a regular file; rebuild that part`,
    );
  const parentReal = await realpath(dirname(path));
  if (parentReal !== dirname(resolveRel(rootReal, f.rel))) {
    throw new ReleaseVerificationError(
      'file_corrupt',
      `part ${f.part}: ${f.rel} lies outside the part (a folder on its path is a symbolic link, to ${parentReal}); ` +
        "assembly links only a part's own files: replace the link by the folder itself or rebuild that part",
    );
  }
  if (st.size !== f.bytes)
    throw new ReleaseVerificationError(
      'file_corrupt',
      `part ${f.part}: ${f.rel} has ${st.size} bytes, its manifest says ${f.bytes}; rebuild that part`,
    );
  return join(rootReal, ...f.rel.split('/'));
}
