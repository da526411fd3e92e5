import Database from 'better-sqlite3';
import type { ArticleMetadata } from './types.ts';
import { encodeArticle } from './doc-encoding.ts';
import { CREATE_STORE_V2_SQL, DOC_COLUMNS, PROFILE_COLUMNS } from './schema-v2.ts';

/**
 * Writes a store as the format-2 writer left it (profiles by first use, one `docs` row per article, one shard, meta),
 * for the tests and the benchmark that read format 2 beside the current format.
 */
export function writeStoreV2(
  path: string,
  articles: readonly ArticleMetadata[],
  year: string,
  indexVersion: string,
): void {
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.exec(CREATE_STORE_V2_SQL);
  const profiles = new Map<string, number>();
  const insertProfile = db.prepare(
    `INSERT INTO profiles (id, ${PROFILE_COLUMNS.join(', ')}) VALUES (${['?', ...PROFILE_COLUMNS.map(() => '?')].join(', ')})`,
  );
  const insertDoc = db.prepare(
    `INSERT INTO docs (doc_ix, ${DOC_COLUMNS.join(', ')}) VALUES (${['?', ...DOC_COLUMNS.map(() => '?')].join(', ')})`,
  );
  db.transaction(() => {
    articles.forEach((a, i) => {
      const { profile, doc } = encodeArticle(a);
      const key = JSON.stringify(profile);
      if (!profiles.has(key)) {
        insertProfile.run(profiles.size, ...profile);
        profiles.set(key, profiles.size);
      }
      insertDoc.run(i, profiles.get(key), ...doc);
    });
    db.prepare('INSERT INTO shards VALUES (0, ?, ?)').run(articles.length, `${year}-03`);
    const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    for (const [k, v] of [
      ['format', 'news-metadata-store'],
      ['format_version', '2'],
      ['year', year],
      ['doc_count', String(articles.length)],
      ['index_version', indexVersion],
    ])
      meta.run(k, v);
  })();
  db.close();
}
