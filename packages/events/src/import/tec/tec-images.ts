import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import { ApiError } from '../../http/errors.ts';
import type { Services } from '../../services.ts';
import { reasonOf, type CsvImportDeps } from '../csv/csv-import.ts';
import { writeItems } from '../item-writes.ts';
import type { TecItem } from './tec-items.ts';

/** One featured image to set: the post written for a source item and the URL of the source's image. */
export interface ImageWrite {
  readonly kind: 'venues' | 'organizers' | 'events';
  readonly item: TecItem;
  readonly postId: number;
  readonly url: string;
}

export interface ImageReport {
  imported: number;
  /** Images that could not be read or are not images: their posts are imported without one. */
  failed: Array<{ item: string; url: string; reason: string }>;
}

/** The source's featured image URL of an item (`image: false` when it has none). */
export function imageUrl(item: TecItem): string | undefined {
  const image = item.json.image;
  if (image === null || typeof image !== 'object') return undefined;
  const url = (image as { url?: unknown }).url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/**
 * Sets the featured images after every post is written, so their attachment posts take ids after the kept ones.
 * Each is downloaded through the media library (its safe fetch and limits; one URL imported once, so a re-run reuses
 * it). A post that has an image already is left alone. An image that fails is reported, and its post stays without
 * one (a savepoint each): a lost image should not stop a calendar's migration. A dry run counts and downloads nothing
 * (its rollback would leave the files behind).
 */
export async function writeImages(
  db: Kysely<Database>,
  s: Services,
  deps: CsvImportDeps,
  writes: readonly ImageWrite[],
  dryRun: boolean,
): Promise<ImageReport> {
  const report: ImageReport = { imported: 0, failed: [] };
  const sent = new Set(['image']);
  const pending: ImageWrite[] = [];
  for (const w of writes) {
    const row = w.kind === 'events' ? await s.events.findById(w.postId) : await s[w.kind].get(w.postId);
    if (row !== undefined && row.thumbnail_id === null) pending.push(w);
  }
  if (dryRun) return { imported: pending.length, failed: [] };
  report.imported = await writeItems(
    db,
    pending,
    async (w) => {
      const p = { image: w.url };
      if (w.kind !== 'events') return s[w.kind].update(deps.caller, w.postId, p, sent, deps.now);
      await s.events.update(deps.caller, (await s.events.findById(w.postId))!, p, sent, deps.now);
    },
    {
      skipBad: true,
      reasonOf: (err) => (err instanceof ApiError ? reasonOf(err) : undefined),
      refuseAll: (_, reason) => new Error(reason),
      skipped: (w, reason) =>
        report.failed.push({ item: `${w.kind} ${w.item.id} (${w.item.slug})`, url: w.url, reason }),
    },
  );
  return report;
}
