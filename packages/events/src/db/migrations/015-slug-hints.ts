import type { Migration } from 'kysely';
import { sql } from 'kysely';
import type { DbKind } from '../connection.ts';

/**
 * Schema version 15: `slug_hints`, where the next free numeric slug suffix of a base is looked for (issue 25: with
 * 10,000 events sharing a title, counting their suffixes made every create read 10,000 index entries).
 *
 * A row (type, base, hint) promises that `base-2` … `base-(hint-1)` are all taken, so WordPress's first free suffix
 * (`wp_unique_post_slug`) is found by probing from `hint` up; `post.repository.ts` raises it as it probes. Only a
 * slug leaving (a post deleted, or its slug changed) can break the promise, so a trigger lowers the hint of that
 * slug's base to its suffix — whatever writes the posts, SQL typed by hand included. A missing row means "unknown"
 * and is rebuilt from the posts on the next create. No back-fill: the rows are a cache of what `posts` says.
 */
export function slugHintsMigration(kind: DbKind): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('slug_hints')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('base', 'text', (c) => c.notNull())
        .addColumn('hint', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('slug_hints_pk', ['type', 'base'])
        .execute();
      if (kind === 'postgres') {
        await sql
          .raw(
            `create function posts_slug_left() returns trigger language plpgsql as $$
          declare m text[];
          begin
            m := regexp_match(old.slug, '^(.*)-([0-9]{1,15})$');
            if m is not null then
              update slug_hints set hint = greatest(2, m[2]::bigint)
                where type = old.type and base = m[1] and hint > greatest(2, m[2]::bigint);
            end if;
            return null;
          end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger posts_slug_left_delete after delete on posts
          for each row execute function posts_slug_left()`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger posts_slug_left_update after update of slug on posts
          for each row when (old.slug is distinct from new.slug) execute function posts_slug_left()`,
          )
          .execute(db);
      } else {
        // SQLite has no regular expressions: rtrim strips the trailing digits, leaving `base-` when the slug is
        // `base-N`; N is then what rtrim took away (at most 15 digits, so it is an exact integer).
        const body = (when: string) => `
          when ${when} and rtrim(old.slug, '0123456789') like '%-'
            and length(old.slug) - length(rtrim(old.slug, '0123456789')) between 1 and 15
          begin
            update slug_hints
              set hint = max(2, cast(substr(old.slug, length(rtrim(old.slug, '0123456789')) + 1) as integer))
              where type = old.type
                and base = substr(rtrim(old.slug, '0123456789'), 1, length(rtrim(old.slug, '0123456789')) - 1)
                and hint > max(2, cast(substr(old.slug, length(rtrim(old.slug, '0123456789')) + 1) as integer));
          end`;
        await sql.raw(`create trigger posts_slug_left_delete after delete on posts ${body('1')}`).execute(db);
        await sql
          .raw(
            `create trigger posts_slug_left_update after update of slug on posts ${body('old.slug is not new.slug')}`,
          )
          .execute(db);
      }
    },
  };
}
