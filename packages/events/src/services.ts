import type { Kysely } from 'kysely';
import type { Config } from './config/index.ts';
import type { ChangeSignal, Database } from './db/index.ts';
import { linkedService, linkedWriteArgs, postRepository, type Site, type WriteGeneration } from './post/index.ts';
import { venueKind } from './venue/index.ts';
import { organizerKind } from './organizer/index.ts';
import { termService } from './term/index.ts';
import { eventService } from './event/index.ts';
import { userService } from './user/index.ts';
import { imageValidator, mediaDepsFromConfig, mediaService } from './media/index.ts';

export interface ServiceOptions {
  /** Memory for events read by id (0: none, as for a one-off import inside a transaction). */
  readonly itemCacheBytes: number;
  /** Tells user caches about changes committed elsewhere (the running service's store). */
  readonly changes?: ChangeSignal;
}

/**
 * The domain services over one database handle: the running service's store, or one transaction (an import, where
 * every read must see the rows written before it). The write rules live in these services and their argument sets,
 * so every way in (REST, `tec/v1`, CSV import) applies the same ones.
 * @example const s = composeServices(store.db, site, new WriteGeneration(), config, { itemCacheBytes: 0 })
 */
export function composeServices(
  db: Kysely<Database>,
  site: Site,
  generation: WriteGeneration,
  config: Config,
  opts: ServiceOptions,
) {
  const users = userService(db, opts.changes);
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
  const events = eventService({
    db,
    site,
    generation,
    terms,
    venues,
    organizers,
    media,
    venueCreateArgs,
    organizerCreateArgs,
    itemCacheBytes: opts.itemCacheBytes,
    recurrence: { maxOccurrences: config.recurrenceMaxOccurrences },
  });
  const eventArgDeps = {
    terms,
    venues,
    organizers,
    venueCreateArgs,
    organizerCreateArgs,
    isEvent,
    isPost,
    userExists,
    imageArg,
  };
  return {
    site,
    generation,
    users,
    terms,
    media,
    imageArg,
    venues,
    organizers,
    posts,
    isEvent,
    isPost,
    userExists,
    events,
    eventArgDeps,
  };
}

export type Services = ReturnType<typeof composeServices>;
