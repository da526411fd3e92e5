import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';

const MANIFESTS = new Set(['index-manifest.json', 'metadata-manifest.json']);

/** Every file under `dir`, relative, with `/`. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** A manifest's content: everything but the moment it was written. */
export function manifestContent(dir: string, file: string): unknown {
  const { created_at: _createdAt, ...content } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<
    string,
    unknown
  >;
  return content;
}

/**
 * The assembled release holds exactly the single build's files, each byte-identical, and both manifests say the same
 * but for `created_at`. Returns how many data files were compared.
 */
export function expectSameRelease(single: string, assembled: string): number {
  const files = filesUnder(single);
  expect(filesUnder(assembled)).toEqual(files);
  let compared = 0;
  for (const f of files) {
    if (MANIFESTS.has(f)) {
      expect(manifestContent(assembled, f), f).toEqual(manifestContent(single, f));
      continue;
    }
    expect(statSync(join(assembled, f)).size, f).toBe(statSync(join(single, f)).size);
    expect(readFileSync(join(assembled, f)).equals(readFileSync(join(single, f))), `${f} differs`).toBe(true);
    compared++;
  }
  return compared;
}
