import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config/index.ts';
import { type Store } from './db/index.ts';
import { createHttpApp } from './http/app.ts';
import { compileRoutes, type CompiledRoute } from './http/route.ts';
import { createSite, linkedRoutes, NAMESPACE, WriteGeneration } from './post/index.ts';
import { termRoutes } from './term/index.ts';
import { EVENT_FIELD_SHAPES, eventListArgs, eventRoutes } from './event/index.ts';
import { feedPages } from './ical/index.ts';
import { attemptBuckets, storeAttemptCounter } from './user/index.ts';
import { discoveryRoutes, describeRoute, namespaceIndexRoute } from './discovery/index.ts';
import { csvImportRoutes, SERVICE_NAMESPACE, startSubscriptionRunner } from './import/index.ts';
import { apiRootRoutes, WP_NAMESPACE, wpV2Routes, type WpCoreDeps } from './wp-core/index.ts';
import { serveUploads, UPLOADS_PATH } from './media/index.ts';
import { composeServices } from './services.ts';
import type { Clock } from './time/index.ts';
import { TEC_NAMESPACE, tecRoutes } from './tec-v1/index.ts';
import { defaultDeliveryOptions, startDeliveryRunner, webhookRoutes } from './webhook/index.ts';

/** The most events one iCalendar feed holds (README, "iCalendar feeds"). */
const FEED_MAX_EVENTS = 1000;

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
}

/**
 * The composition root: builds services over the store and mounts every route: the API root, `tribe/events/v1`,
 * `tec/v1`, `wp/v2` and our own `events-service/v1`.
 * @example const app = createEventsApp({ config, store, clock: Date.now, logger }); await app.listen({ port: 8787 })
 */
export function createEventsApp(deps: AppDeps): FastifyInstance {
  const { config, store, clock, logger } = deps;
  const db = store.db;
  const site = createSite(config);
  const generation = new WriteGeneration(store.changes);
  const services = composeServices(db, site, generation, config, {
    itemCacheBytes: config.itemCacheBytes,
    changes: store.changes,
  });
  const { users, terms, venues, organizers, posts, isEvent, userExists, imageArg, events, eventArgDeps } = services;
  const send = { allowPrivateHosts: config.mediaAllowPrivateHosts, timeoutMs: config.webhookTimeoutMs };
  const feeds = feedPages({
    events,
    terms,
    site,
    listArgs: eventListArgs(eventArgDeps),
    maxEvents: FEED_MAX_EVENTS,
    refreshMinutes: 60,
  });
  let compiled: CompiledRoute[] = [];
  const wpCore: WpCoreDeps = {
    site,
    tagline: config.siteDescription,
    routes: () => compiled,
    findUser: (id) => users.findById(id),
    listUsers: () => users.list(),
    withPublishedPosts: () => users.withPublishedPosts(),
    adminEmail: async () => config.adminEmail || ((await users.firstAdministrator())?.email ?? ''),
  };
  // The route registry: `/wp-json/` lists its namespaces and routes in this order.
  compiled = [
    ...compileRoutes('', apiRootRoutes(wpCore)),
    ...compileRoutes(NAMESPACE, [
      ...discoveryRoutes(site, () => compiled, EVENT_FIELD_SHAPES.docs),
      ...eventRoutes({ ...eventArgDeps, events, site }),
      ...linkedRoutes({ service: venues, site, isEvent, userExists, imageArg }),
      ...linkedRoutes({ service: organizers, site, isEvent, userExists, imageArg }),
      ...termRoutes('tribe_events_cat', { terms, site, isEvent }),
      ...termRoutes('post_tag', { terms, site, isEvent }),
    ]),
    ...compileRoutes(
      TEC_NAMESPACE,
      tecRoutes(
        { site, events, terms, venues, organizers, findPost: (id) => posts.findById(id), userExists },
        () => compiled,
      ),
    ),
    ...compileRoutes(WP_NAMESPACE, wpV2Routes(wpCore)),
    ...compileRoutes(SERVICE_NAMESPACE, [
      namespaceIndexRoute(site, SERVICE_NAMESPACE, () => compiled),
      ...csvImportRoutes({ db, site, config, afterWrite: () => generation.bump() }),
      ...webhookRoutes({ db, send }),
    ]),
  ];

  const app = createHttpApp({
    siteUrl: site.home,
    bodyLimitBytes: config.bodyLimitBytes,
    routes: compiled,
    optionsReply: (route, now) => describeRoute(site, route, now),
    authenticate: { credentials: users, attempts: storeAttemptCounter(db, store.changes), bucketsOf: attemptBuckets },
    clock,
    logger,
    generation,
    consistency: store.changes,
    cacheTtlMs: config.cacheTtlMs,
    validatorTtlMs: config.validatorTtlMs,
    isUnavailable: store.isUnavailable,
    files: { path: UPLOADS_PATH, handler: serveUploads(config.uploadsDir) },
    pages: feeds,
  });
  // iCalendar subscriptions run inside the service, on their schedule (README, "iCalendar import").
  if (config.icalPollMs > 0) {
    const runner = startSubscriptionRunner(
      { db, site, config, clock, logger, afterWrite: () => generation.bump() },
      config.icalPollMs,
    );
    app.addHook('onClose', () => runner.stop());
  }
  // Webhook deliveries run in every instance; the outbox claim keeps them from sending a message twice.
  if (config.webhookPollMs > 0) {
    const delivery = startDeliveryRunner(
      { db, services, clock, logger },
      {
        ...defaultDeliveryOptions,
        ...send,
        pollMs: config.webhookPollMs,
        retryBaseMs: config.webhookRetryBaseMs,
        logKeepMs: config.webhookLogDays * 24 * 3_600_000,
      },
    );
    app.addHook('onClose', () => delivery.stop());
  }
  return app;
}
