import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.ts';
import type { Database } from '../../db/index.ts';
import type { Site } from '../../post/index.ts';
import { singleFlight, type Clock } from '../../time/index.ts';
import { toCaller, userService } from '../../user/index.ts';
import { defaultIcsImportOptions, importIcs, readFeedSource, type IcsImportReport } from '../ics/index.ts';
import { subscriptionRepository, type Subscription } from './subscription.repository.ts';

export interface RunnerDeps {
  readonly db: Kysely<Database>;
  readonly site: Site;
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Drops the service's caches after an import committed (its writes ran on their own services). */
  readonly afterWrite: () => void;
}

/** What a run did, as `events subscriptions list` shows it. */
export const runSummary = (r: IcsImportReport): string =>
  `${r.vevents} VEVENTs: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${r.trashed} trashed, ${r.refused.length} refused` +
  (r.refused.length > 0
    ? ` (${r.refused
        .slice(0, 3)
        .map((p) => `${p.uid}: ${p.reason}`)
        .join('; ')})`
    : '');

/** Imports one subscribed feed now: bad VEVENTs are skipped and listed (a feed we do not control must not stall). */
export async function runSubscription(deps: RunnerDeps, s: Subscription): Promise<IcsImportReport> {
  const users = userService(deps.db);
  const author =
    (s.authorId === null ? undefined : await users.findById(s.authorId)) ?? (await users.firstAdministrator());
  if (author === undefined) throw new Error('no administrator exists to write the import as');
  const opts = { ...defaultIcsImportOptions, skipBad: true, trashVanished: s.trashVanished };
  const { bytes, source } = await readFeedSource(s.url, {
    limits: opts.limits,
    allowPrivateHosts: deps.config.mediaAllowPrivateHosts,
    timeoutMs: 60_000,
  });
  const caller = toCaller(author);
  return importIcs(
    { db: deps.db, site: deps.site, config: deps.config, caller, now: deps.clock() },
    bytes,
    source,
    opts,
  );
}

/**
 * Runs subscriptions when due, every `pollMs`: each due one is claimed (one instance runs it when several share the
 * database), imported, and its outcome recorded. One run at a time per process; `stop` waits for the current one.
 * @example const runner = startSubscriptionRunner(deps, 60_000); …; await runner.stop()
 */
export function startSubscriptionRunner(deps: RunnerDeps, pollMs: number) {
  const repo = subscriptionRepository(deps.db);
  let stopped = false;
  const runDue = async (): Promise<void> => {
    for (const s of await repo.due(deps.clock())) {
      if (stopped) return;
      const started = deps.clock();
      if (!(await repo.claim(s, started + s.everySeconds * 1000))) continue;
      try {
        const report = await runSubscription(deps, s);
        deps.afterWrite();
        await repo.record(s.url, started, 'ok', runSummary(report));
        deps.logger.info({ url: s.url, ...report, refused: report.refused.length }, 'iCalendar subscription imported');
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await repo.record(s.url, started, 'error', message).catch(() => undefined);
        deps.logger.warn({ url: s.url, err: message }, 'iCalendar subscription failed');
      }
    }
  };
  const job = singleFlight(
    runDue,
    (err: unknown) => deps.logger.warn({ err: String(err) }, 'iCalendar subscriptions could not be read'),
    undefined,
  );
  const tick = () => {
    if (!stopped) job.trigger();
  };
  const timer = setInterval(tick, pollMs);
  timer.unref();
  return {
    /** Runs what is due now (tests; the timer does the same every `pollMs`). */
    async runDue(): Promise<void> {
      tick();
      await job.current;
    },
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await job.current;
    },
  };
}
