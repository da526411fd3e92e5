import { sql, type Migration } from 'kysely';
import type { DbKind } from '../connection.ts';

/** The entity kind of a post type or taxonomy, as webhook event types name it (`event.created`, `tag.deleted`). */
const POST_KIND = `CASE {r}.type WHEN 'tribe_events' THEN 'event' WHEN 'tribe_venue' THEN 'venue' ELSE 'organizer' END`;
const TERM_KIND = `CASE {r}.taxonomy WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END`;
const POST_TYPES = `('tribe_events', 'tribe_venue', 'tribe_organizer')`;

/** One message per active subscription that asked for `<kind>.<action>`, in the writer's own statement. */
function enqueue(kind: DbKind, kindExpr: string, row: 'new' | 'old', action: string, when = 'TRUE'): string {
  const k = kindExpr.replaceAll('{r}', row);
  const now =
    kind === 'postgres'
      ? `(extract(epoch from clock_timestamp()) * 1000)::bigint`
      : `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;
  const msgId =
    kind === 'postgres'
      ? `'msg_' || md5(random()::text || clock_timestamp()::text)`
      : `'msg_' || lower(hex(randomblob(16)))`;
  return `INSERT INTO webhook_outbox (msg_id, subscription_id, entity_kind, entity_id, event_type, created_ms, next_attempt_ms)
    SELECT ${msgId}, s.id, ${k}, ${row}.id, ${k} || '.${action}', ${now}, 0
    FROM webhook_subscriptions s
    WHERE s.paused = 0 AND s.event_types LIKE '%,' || ${k} || '.${action},%' AND (${when});`;
}

/** The statements each trigger runs: a post or term row's change as webhook messages (README, "Webhooks"). */
function triggerBodies(kind: DbKind): Record<string, { table: string; op: string; when: string; body: string[] }> {
  return {
    posts_webhook_insert: {
      table: 'posts',
      op: 'INSERT',
      when: `new.type IN ${POST_TYPES}`,
      body: [
        enqueue(kind, POST_KIND, 'new', 'created'),
        enqueue(kind, POST_KIND, 'new', 'published', `new.status = 'publish'`),
      ],
    },
    posts_webhook_update: {
      table: 'posts',
      op: 'UPDATE',
      when: `new.type IN ${POST_TYPES}`,
      body: [
        // Moving to the trash is what REST DELETE does: subscribers see it as a deletion.
        enqueue(kind, POST_KIND, 'new', 'deleted', `new.status = 'trash' AND old.status <> 'trash'`),
        enqueue(kind, POST_KIND, 'new', 'updated', `new.status <> 'trash'`),
        enqueue(kind, POST_KIND, 'new', 'published', `new.status = 'publish' AND old.status <> 'publish'`),
      ],
    },
    posts_webhook_delete: {
      table: 'posts',
      op: 'DELETE',
      // A trashed post was announced as deleted when it was trashed.
      when: `old.type IN ${POST_TYPES} AND old.status <> 'trash'`,
      body: [enqueue(kind, POST_KIND, 'old', 'deleted')],
    },
    ...Object.fromEntries(
      (
        [
          ['insert', 'INSERT', 'new', 'created'],
          // Not `count`: writes of events recount their terms, which is no change of the term.
          ['update', 'UPDATE OF name, slug, description, parent', 'new', 'updated'],
          ['delete', 'DELETE', 'old', 'deleted'],
        ] as const
      ).map(([name, op, row, action]) => [
        `terms_webhook_${name}`,
        { table: 'terms', op, when: 'TRUE', body: [enqueue(kind, TERM_KIND, row, action)] },
      ]),
    ),
  };
}

/**
 * Schema version 17 (issue 30 item 5): webhook subscriptions and their transactional outbox. Row triggers on `posts`
 * and `terms` write the outbox rows, so every way a change is made (REST, `tec/v1`, CSV and iCalendar imports, a
 * series' occurrences) enqueues its messages in the transaction that makes it, on both stores.
 */
export function webhooksMigration(kind: DbKind): Migration {
  const id = kind === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db) {
      await db.schema
        .createTable('webhook_subscriptions')
        .addColumn('id', kind === 'postgres' ? 'serial' : 'integer', (c) =>
          kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('url', 'text', (c) => c.notNull())
        // `whsec_<base64>`: the decoded bytes are the HMAC key (Standard Webhooks).
        .addColumn('secret', 'text', (c) => c.notNull())
        // The subscribed event types between commas (`,event.created,tag.deleted,`), so a trigger matches with LIKE.
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
        // Milliseconds since the epoch of the first failure since the last success; null while deliveries succeed.
        .addColumn('failing_since_ms', 'bigint')
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_outbox')
        .addColumn('id', id, (c) => (kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        // The Standard Webhooks `webhook-id`: the same on every attempt and redelivery.
        .addColumn('msg_id', 'text', (c) => c.notNull())
        .addColumn('subscription_id', 'integer', (c) =>
          c.notNull().references('webhook_subscriptions.id').onDelete('cascade'),
        )
        .addColumn('entity_kind', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'integer', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        // The body sent, fixed at the first attempt (the entity's REST GET then), so a retry repeats it byte for byte.
        .addColumn('payload', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // 0: due at once (a new message). The first attempt starts the 24-hour retry window.
        .addColumn('next_attempt_ms', 'bigint', (c) => c.notNull())
        .addColumn('first_attempt_ms', 'bigint')
        // 'pending', 'delivered' or 'failed'.
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .addColumn('delivered_ms', 'bigint')
        .execute();
      await db.schema
        .createIndex('webhook_outbox_due')
        .on('webhook_outbox')
        .columns(['status', 'next_attempt_ms'])
        .execute();
      await db.schema
        .createIndex('webhook_outbox_entity')
        .on('webhook_outbox')
        .columns(['subscription_id', 'entity_kind', 'entity_id', 'status', 'id'])
        .execute();
      for (const [name, t] of Object.entries(triggerBodies(kind))) {
        if (kind === 'postgres') {
          await sql
            .raw(
              `create function ${name}() returns trigger language plpgsql as $$ begin
              ${t.body.join('\n')}
              return null; end $$`,
            )
            .execute(db);
          await sql
            .raw(
              `create trigger ${name} after ${t.op} on ${t.table} for each row when (${t.when}) execute function ${name}()`,
            )
            .execute(db);
        } else {
          await sql
            .raw(
              `create trigger ${name} after ${t.op} on ${t.table} for each row when ${t.when} begin
              ${t.body.join('\n')}
            end`,
            )
            .execute(db);
        }
      }
    },
  };
}
