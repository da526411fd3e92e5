import type { Kysely } from 'kysely';
import { reusableByIds, type AttachmentsTable, type Database } from '../db/index.ts';

/** SQL for attachments: the detail rows of `attachment` posts. */
export function mediaRepository(db: Kysely<Database>) {
  const byIds = reusableByIds<AttachmentsTable>(db, (ids) =>
    db.selectFrom('attachments').selectAll().where('post_id', 'in', ids),
  );
  return {
    findById: (id: number): Promise<AttachmentsTable | undefined> =>
      db.selectFrom('attachments').selectAll().where('post_id', '=', id).executeTakeFirst(),
    /** All attachments of one page (events, their venues and organizers) in one query. */
    async findMany(ids: readonly number[]): Promise<Map<number, AttachmentsTable>> {
      if (ids.length === 0) return new Map();
      return new Map((await byIds([...new Set(ids)])).map((a) => [a.post_id, a]));
    },
    findBySource: (url: string): Promise<AttachmentsTable | undefined> =>
      db.selectFrom('attachments').selectAll().where('source_url', '=', url).orderBy('post_id').executeTakeFirst(),
    findByFile: (file: string): Promise<AttachmentsTable | undefined> =>
      db.selectFrom('attachments').selectAll().where('file', '=', file).executeTakeFirst(),
    async insert(row: AttachmentsTable): Promise<void> {
      await db.insertInto('attachments').values(row).execute();
    },
  };
}
