import type { Command } from 'commander';
import { parseConfig } from '../config/index.ts';
import type { Store } from '../db/index.ts';
import { createSite } from '../post/index.ts';
import { systemClock } from '../time/index.ts';
import { UserError } from '../user/index.ts';
import {
  defaultIcsImportOptions,
  feedUrl,
  formatEvery,
  IcsImportError,
  importIcs,
  isFeedUrl,
  parseEvery,
  readFeedSource,
  subscriptionRepository,
} from '../import/index.ts';
import { operator } from './csv.command.ts';

type WithStore = <T>(db: string | undefined, fn: (store: Store) => Promise<T>) => Promise<T>;
const DB_HELP = 'database URL (default EVENTS_DB or sqlite:./data/events.sqlite)';

/** `events import ics FILE|URL`: one import of an iCalendar feed (README, "iCalendar import"). */
export function icsImportCommand(imports: Command, withStore: WithStore): void {
  imports
    .command('ics <source>')
    .description('import the VEVENTs of an iCalendar file or URL (keyed by UID: importing again updates); all or none')
    .option('--db <url>', DB_HELP)
    .option('--dry-run', 'check every VEVENT and report what would change; write nothing')
    .option('--skip-bad', 'import the good VEVENTs and list the bad ones instead of refusing the feed')
    .option(
      '--keep-vanished',
      'keep events imported from this source before that it no longer has (default: trash them)',
    )
    .option('--author <login>', 'the user who writes (default: the first administrator)')
    .action(
      async (
        source: string,
        opts: { db?: string; dryRun?: boolean; skipBad?: boolean; keepVanished?: boolean; author?: string },
      ) => {
        const config = parseConfig({ db: opts.db }, process.env);
        const options = {
          ...defaultIcsImportOptions,
          dryRun: opts.dryRun === true,
          skipBad: opts.skipBad === true,
          trashVanished: opts.keepVanished !== true,
        };
        await withStore(config.db, async (store) => {
          const caller = await operator(store, opts.author);
          try {
            const feed = await readFeedSource(source, {
              limits: options.limits,
              allowPrivateHosts: config.mediaAllowPrivateHosts,
              timeoutMs: 60_000,
            });
            const r = await importIcs(
              { db: store.db, site: createSite(config), config, caller, now: systemClock() },
              feed.bytes,
              feed.source,
              options,
            );
            console.log(
              `${r.dryRun ? 'dry run: would import' : 'imported'} ${r.vevents} VEVENTs: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${r.trashed} trashed, ${r.refused.length} refused`,
            );
            for (const p of r.refused)
              console.log(`${p.uid}${p.recurrenceId ? ` (${p.recurrenceId})` : ''}: ${p.reason}`);
          } catch (err) {
            if (!(err instanceof IcsImportError)) throw err;
            for (const p of err.problems)
              console.error(`${p.uid}${p.recurrenceId ? ` (${p.recurrenceId})` : ''}: ${p.reason}`);
            throw new UserError(
              err.problems.length > 0
                ? `${err.problems.length} VEVENT(s) refused; nothing imported (--skip-bad imports the others)`
                : err.message,
            );
          }
        });
      },
    );
}

const isoOf = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString().slice(0, 19) + 'Z');

/** `events subscribe URL --every 1h` and `events subscriptions list|remove`: feeds the service imports on schedule. */
export function subscriptionCommands(program: Command, withStore: WithStore): void {
  program
    .command('subscribe <url>')
    .description('import an iCalendar URL now and then on a schedule, in the service (again: changes the schedule)')
    .requiredOption('--every <interval>', 'how often: 30m, 1h, 1d (5 minutes to 7 days)')
    .option('--keep-vanished', 'keep events that leave the feed (default: trash them)')
    .option('--author <login>', 'the user who writes (default: the first administrator at each run)')
    .option('--db <url>', DB_HELP)
    .action(async (url: string, opts: { every: string; keepVanished?: boolean; author?: string; db?: string }) => {
      if (!isFeedUrl(url)) throw new UserError(`a subscription is an http(s) or webcal URL, got ${url}`);
      const everySeconds = parseEvery(opts.every);
      if (everySeconds === undefined)
        throw new UserError(`--every takes minutes, hours or days from 5m to 7d (30m, 1h, 1d), got ${opts.every}`);
      await withStore(opts.db, async (store) => {
        const authorId = opts.author === undefined ? null : (await operator(store, opts.author)).id;
        const repo = subscriptionRepository(store.db);
        const added = await repo.add(
          { url: feedUrl(url), everySeconds, trashVanished: opts.keepVanished !== true, authorId },
          systemClock(),
        );
        console.log(
          `${added ? 'subscribed to' : 'updated'} ${feedUrl(url)}: every ${formatEvery(everySeconds)}, first run at the service's next check`,
        );
      });
    });
  const subs = program.command('subscriptions').description('list or remove iCalendar subscriptions');
  subs
    .command('list')
    .description('list subscriptions: URL, interval, next run, last run and its outcome')
    .option('--db <url>', DB_HELP)
    .action(async (opts: { db?: string }) => {
      await withStore(opts.db, async (store) => {
        for (const s of await subscriptionRepository(store.db).list())
          console.log(
            [
              s.url,
              `every ${formatEvery(s.everySeconds)}`,
              s.trashVanished ? 'trash-vanished' : 'keep-vanished',
              `next ${isoOf(s.nextRunMs)}`,
              `last ${isoOf(s.lastRunMs)}`,
              s.lastStatus || 'never ran',
              s.lastMessage,
            ].join('\t'),
          );
      });
    });
  subs
    .command('remove <url>')
    .description('stop importing a feed (its events stay)')
    .option('--db <url>', DB_HELP)
    .action(async (url: string, opts: { db?: string }) => {
      await withStore(opts.db, async (store) => {
        if (!(await subscriptionRepository(store.db).remove(feedUrl(url))))
          throw new UserError(`no subscription to ${url}`);
        console.log(`removed ${feedUrl(url)}`);
      });
    });
}
