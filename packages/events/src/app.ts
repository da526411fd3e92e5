import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config/index.ts';
import { isDatabaseUnavailable, type Store } from './db/index.ts';
import { createHttpApp } from './http/app.ts';
import { compileRoutes, type CompiledRoute } from './http/route.ts';
import { createSite, linkedRoutes, linkedService, linkedWriteArgs, NAMESPACE, postRepository, WriteGeneration } from './post/index.ts';
import { venueKind } from './venue/index.ts';
import { organizerKind } from './organizer/index.ts';
import { termRoutes, termService } from './term/index.ts';
import { eventListArgs, eventRoutes, eventService } from './event/index.ts';
import { feedPages } from './ical/index.ts';
import { attemptBuckets, storeAttemptCounter, userService } from './user/index.ts';
import { discoveryRoutes, describeRoute } from './discovery/index.ts';
import { apiRootRoutes, WP_NAMESPACE, wpV2Routes, type WpCoreDeps } from './wp-core/index.ts';
import { imageValidator, mediaDepsFromConfig, mediaService, serveUploads, UPLOADS_PATH } from './media/index.ts';
import type { Clock } from './time/index.ts';
import { TEC_NAMESPACE, tecRoutes } from './tec-v1/index.ts';

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
 * `tec/v1` and `wp/v2`.
 * @example const app = createEventsApp({ config, store, clock: Date.now, logger }); await app.listen({ port: 8787 })
 */
export function createEventsApp(deps: AppDeps): FastifyInstance {
  const { config, store, clock, logger } = deps;
  const db = store.db;
  const site = createSite(config);
  const generation = new WriteGeneration(store.changes);
  const users = userService(db, store.changes);
  const terms = termService(db, generation);
  const media = mediaService(mediaDepsFromConfig(db, site, config));
  const imageArg = imageValidator(media.isImage);
  const venues = linkedService(db, venueKind, site, generation, media);
  const organizers = linkedService(db, organizerKind, site, generation, media);
  const posts = postRepository(db);
  const isEvent = async (id: number) => (await posts.findById(id))?.type === 'tribe_events';
  const isPost = async (id: number) => (await posts.findById(id)) !== undefined;
  const userExists = (id: number) => users.userExists(id);
  const venueCreateArgs = linkedWriteArgs({ service: venues, userExists, imageArg }, true);
  const organizerCreateArgs = linkedWriteArgs({ service: organizers, userExists, imageArg }, true);
  const events = eventService({ db, site, generation, terms, venues, organizers, media, venueCreateArgs, organizerCreateArgs,
    itemCacheBytes: config.itemCacheBytes, recurrence: { maxOccurrences: config.recurrenceMaxOccurrences } });

  const eventArgDeps = { terms, venues, organizers, venueCreateArgs, organizerCreateArgs, isEvent, isPost, userExists, imageArg };
  const feeds = feedPages({ events, terms, site, listArgs: eventListArgs(eventArgDeps), maxEvents: FEED_MAX_EVENTS, refreshMinutes: 60 });
  let compiled: CompiledRoute[] = [];
  const wpCore: WpCoreDeps = {
    site, tagline: config.siteDescription, routes: () => compiled, findUser: (id) => users.findById(id),
    adminEmail: async () => config.adminEmail || ((await users.firstAdministrator())?.email ?? ''),
  };
  // The route registry: `/wp-json/` lists its namespaces and routes in this order.
  compiled = [...compileRoutes('', apiRootRoutes(wpCore)), ...compileRoutes(NAMESPACE, [
    ...discoveryRoutes(site, () => compiled),
    ...eventRoutes({ events, terms, site, venues, organizers, venueCreateArgs, organizerCreateArgs, isEvent, isPost, userExists, imageArg }),
    ...linkedRoutes({ service: venues, site, isEvent, userExists, imageArg }),
    ...linkedRoutes({ service: organizers, site, isEvent, userExists, imageArg }),
    ...termRoutes('tribe_events_cat', { terms, site, isEvent }),
    ...termRoutes('post_tag', { terms, site, isEvent }),
  ]), ...compileRoutes(TEC_NAMESPACE, tecRoutes({ site, events, terms, venues, organizers, findPost: (id) => posts.findById(id), userExists }, () => compiled)),
  ...compileRoutes(WP_NAMESPACE, wpV2Routes(wpCore))];

  return createHttpApp({
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
    isUnavailable: isDatabaseUnavailable,
    files: { path: UPLOADS_PATH, handler: serveUploads(config.uploadsDir) },
    pages: feeds,
  });
}
