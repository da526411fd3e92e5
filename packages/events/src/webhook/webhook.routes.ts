import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { invalid, type Validator } from '../http/args.ts';
import { ApiError } from '../http/errors.ts';
import { endpoint, type Reply, type RequestContext, type RouteDef } from '../http/route.ts';
import { RowIdType } from '../http/row-id.ts';
import { checkUrl, defaultSafeFetchOptions, FetchError } from '../media/index.ts';
import { WEBHOOK_EVENT_TYPES } from './event-types.ts';
import { newSecret } from './signature.ts';
import { sendLeaseMs, sendMessage, type SendOptions } from './send.ts';
import { TEST_EVENT_TYPE, webhookRepository, type OutboxRow, type Subscription } from './webhook.repository.ts';

export interface WebhookRouteDeps {
  readonly db: Kysely<Database>;
  readonly send: SendOptions;
}

/** The longest URL a subscription may have. */
const MAX_URL_LENGTH = 2048;
/** How many deliveries `GET /webhooks/{id}/deliveries` lists, newest first. */
const DELIVERIES_SHOWN = 100;

const adminOnly = (ctx: RequestContext) => ctx.caller?.role === 'administrator';

const shown = (s: Subscription) => ({
  id: s.id,
  url: s.url,
  event_types: s.eventTypes,
  paused: s.paused,
  failing_since: s.failingSinceMs === null ? null : new Date(s.failingSinceMs).toISOString(),
  created: new Date(s.createdMs).toISOString(),
});
const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const shownDelivery = (d: OutboxRow) => ({
  id: Number(d.id),
  webhook_id: d.msg_id,
  event_type: d.event_type,
  entity: { kind: d.entity_kind, id: d.entity_id },
  status: d.status,
  attempts: d.attempts,
  last_error: d.last_error,
  created: iso(d.created_ms),
  first_attempt: iso(d.first_attempt_ms),
  next_attempt: d.status === 'pending' ? iso(d.next_attempt_ms) : null,
  delivered: iso(d.delivered_ms),
});

const notFound = (what: string) => new ApiError('webhook_not_found', `No ${what} has that ID.`);

/**
 * Administrators' webhook subscriptions under `/wp-json/events-service/v1/webhooks` (README, "Webhooks"): add
 * (the secret is shown once), list, pause, resume, delete, send a test message, list and redeliver deliveries.
 */
export function webhookRoutes(deps: WebhookRouteDeps): RouteDef[] {
  const repo = webhookRepository(deps.db);
  const isUrl: Validator = (v) => {
    if (typeof v !== 'string' || v.length > MAX_URL_LENGTH)
      return invalid(`url must be at most ${MAX_URL_LENGTH} characters.`);
    try {
      checkUrl(new URL(v), { ...defaultSafeFetchOptions, allowPrivateHosts: deps.send.allowPrivateHosts });
      return true;
    } catch (err) {
      return invalid(
        err instanceof FetchError ? `url is refused: ${err.message}.` : 'url must be an absolute http(s) URL.',
      );
    }
  };
  const isEventTypes: Validator = (v) =>
    Array.isArray(v) && v.length > 0 && v.every((t) => WEBHOOK_EVENT_TYPES.includes(String(t)))
      ? true
      : invalid(`event_types must be a non-empty list of: ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
  const existing = async (id: number) => (await repo.find(id)) ?? Promise.reject(notFound('webhook subscription'));
  /** One administrator-only endpoint on a path that names a subscription (or a delivery) by `id`. */
  const byId = (
    path: string,
    method: 'GET' | 'POST' | 'DELETE',
    handler: (ctx: RequestContext, id: number) => Promise<Reply>,
    what = 'subscription',
  ): RouteDef => ({
    pattern: path.replace('{id}', '(?P<id>\\d+)'),
    endpoints: [
      endpoint<{ id: number }>({
        methods: [method],
        args: { schema: Type.Object({ id: RowIdType({ description: `the ${what} ID` }) }) },
        permission: adminOnly,
        handler: (ctx, p) => handler(ctx, p.id),
      }),
    ],
  });
  const setPaused = (paused: boolean) => async (_ctx: RequestContext, id: number) => {
    if (!(await repo.setPaused(id, paused))) throw notFound('webhook subscription');
    return { body: shown((await repo.find(id))!) };
  };
  /**
   * Sent now, and logged like any delivery (event type `webhook.test`): the answer says what the receiver said and
   * gives the log row's `id`, which can be redelivered.
   */
  const sendTest = async (ctx: RequestContext, subscriptionId: number) => {
    const s = await existing(subscriptionId);
    const id = `msg_${randomBytes(16).toString('hex')}`;
    const body = JSON.stringify({
      type: TEST_EVENT_TYPE,
      timestamp: new Date(ctx.now).toISOString(),
      data: { subscription_id: s.id },
    });
    const logId = await repo.addTest(s.id, id, body, ctx.now, sendLeaseMs(deps.send));
    const msg = { id, secret: s.secret, body, timestampS: Math.floor(ctx.now / 1000) };
    const outcome = await sendMessage(s.url, msg, deps.send).then(
      (status) =>
        status >= 200 && status < 300
          ? { delivered: true, status, error: '' }
          : { delivered: false, status, error: `the receiver answered ${status}` },
      (err: unknown) => ({ delivered: false, status: 0, error: err instanceof Error ? err.message : String(err) }),
    );
    await repo.settleTest(logId, outcome, ctx.now);
    return { body: { id: logId, webhook_id: id, ...outcome } };
  };

  return [
    {
      pattern: '/webhooks',
      endpoints: [
        endpoint<Record<string, never>>({
          methods: ['GET'],
          args: { schema: Type.Object({}) },
          permission: adminOnly,
          handler: async () => ({ body: (await repo.list()).map(shown) }),
        }),
        endpoint<{ url: string; event_types: string[] }>({
          methods: ['POST'],
          args: {
            schema: Type.Object({
              url: Type.String({ description: 'Where messages are POSTed (http or https)' }),
              event_types: Type.Array(Type.String(), { description: 'The event types to send, e.g. event.created' }),
            }),
            validators: { url: isUrl, event_types: isEventTypes },
          },
          permission: adminOnly,
          async handler(ctx, p) {
            const s = await repo.add(p.url, newSecret(), p.event_types, ctx.now);
            // The only time the secret is shown: receivers keep it to verify signatures.
            return { status: 201, body: { ...shown(s), secret: s.secret } };
          },
        }),
      ],
    },
    byId('/webhooks/{id}', 'DELETE', async (_ctx, id) => {
      const s = await existing(id);
      await repo.remove(id);
      return { body: { deleted: true, previous: shown(s) } };
    }),
    byId('/webhooks/{id}/pause', 'POST', setPaused(true)),
    byId('/webhooks/{id}/resume', 'POST', setPaused(false)),
    byId('/webhooks/{id}/test', 'POST', sendTest),
    byId('/webhooks/{id}/deliveries', 'GET', async (_ctx, id) => {
      await existing(id);
      return { body: (await repo.deliveries(id, DELIVERIES_SHOWN)).map(shownDelivery) };
    }),
    byId(
      '/webhooks/deliveries/{id}/redeliver',
      'POST',
      async (_ctx, id) => {
        if (!(await repo.redeliver(id))) throw notFound('webhook delivery');
        return { status: 202, body: { id, status: 'pending' } };
      },
      'delivery',
    ),
  ];
}
