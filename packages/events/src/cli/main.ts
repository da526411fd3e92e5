import { Command, InvalidArgumentError } from 'commander';
import { pino } from 'pino';
import { ConfigError, DEFAULT_PORT, parseConfig } from '../config/index.ts';
import { openStore, type Store } from '../db/index.ts';
import { createEventsApp } from '../app.ts';
import { systemClock, useZoneinfoDir } from '../time/index.ts';
import { ROLES, UserError, isRole, userService } from '../user/index.ts';
import { createSite, postRepository } from '../post/index.ts';
import { mediaDepsFromConfig, mediaService } from '../media/index.ts';
import { reportBadStoredDates } from '../event/index.ts';
import { csvImportCommand } from './csv.command.ts';
import { dumpCommands } from './dump.command.ts';
import { icsImportCommand, subscriptionCommands } from './ics.command.ts';
import { tecImportCommand } from './tec.command.ts';

const DEFAULT_DB = 'sqlite:./data/events.sqlite';
const program = new Command()
  .name('events')
  .description('REST service compatible with The Events Calendar (tribe/events/v1)');

const portOption = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port number 0-65535');
  return n;
};

program
  .command('serve')
  .description('serve {site}/wp-json/tribe/events/v1')
  .option('--port <n>', `port to listen on (default ${DEFAULT_PORT}, or EVENTS_PORT)`, portOption)
  .option('--host <host>', 'address to bind (default 127.0.0.1, or EVENTS_HOST)')
  .option('--db <url>', `sqlite:PATH, a .sqlite file path, or postgres://… (default ${DEFAULT_DB}, or EVENTS_DB)`)
  .option('--site-url <url>', 'public home URL used in links (default http://localhost:PORT, or EVENTS_SITE_URL)')
  .option('--timezone <zone>', 'site time zone (default UTC, or EVENTS_TIMEZONE)')
  .action(async (opts: { port?: number; host?: string; db?: string; siteUrl?: string; timezone?: string }) => {
    const config = parseConfig(
      { port: opts.port, host: opts.host, db: opts.db, siteUrl: opts.siteUrl, timezone: opts.timezone },
      process.env,
    );
    const logger = pino({ level: config.logLevel, redact: ['req.headers.authorization'] });
    useZoneinfoDir(config.zoneinfoDir);
    const store = await openStore(config.db, {
      slowQueryMs: config.slowQueryMs,
      sqliteSync: config.sqliteSync,
      onChangeListenerError: (err) =>
        logger.warn({ err: err.message }, 'PostgreSQL change listener lost; caches are bypassed until it reconnects'),
    });
    // Rows with broken dates are served safely; the operator learns about them here, with how to repair them.
    await reportBadStoredDates(store.db, logger);
    const app = createEventsApp({ config, store, clock: systemClock, logger });
    const shutdown = async (signal: string) => {
      logger.info({ signal }, 'shutting down');
      // Keep-alive clients can hold the server open; never hang a deploy on them.
      setTimeout(() => process.exit(1), 5000).unref();
      await app.close();
      await store.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    const address = await app.listen({ port: config.port, host: config.host });
    logger.info(
      { address, db: config.db.replace(/\/\/[^@]*@/, '//***@'), store: store.kind },
      'events service listening',
    );
  });

/** Opens the store of `--db` (or EVENTS_DB, or the default) for one operator command and closes it after. */
const withStore = async <T>(db: string | undefined, fn: (store: Store) => Promise<T>): Promise<T> => {
  const config = parseConfig({ db }, process.env);
  useZoneinfoDir(config.zoneinfoDir);
  const store = await openStore(config.db, { slowQueryMs: config.slowQueryMs, sqliteSync: config.sqliteSync });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
};
const withUsers = <T>(db: string | undefined, fn: (users: ReturnType<typeof userService>) => Promise<T>): Promise<T> =>
  withStore(db, (store) => fn(userService(store.db)));

const user = program.command('user').description('manage users and application passwords');
user
  .command('add <login>')
  .description('create a user; prints the application password when generated')
  .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
  .option('--app-password <pw>', 'use this application password instead of generating one')
  .option('--email <email>', 'e-mail address (its Gravatar is the avatar in /wp/v2/users/me)')
  .option(
    '--url <url>',
    "website (`url` in /wp/v2/users/me; WordPress sets the installing administrator's to the site URL)",
  )
  .option('--db <url>', `sqlite:PATH or postgres://… (default ${DEFAULT_DB})`)
  .action(
    async (login: string, opts: { role: string; appPassword?: string; email?: string; url?: string; db?: string }) => {
      await withUsers(opts.db, async (users) => {
        const r = await users.add(login, opts.role, {
          appPassword: opts.appPassword,
          email: opts.email,
          url: opts.url,
        });
        console.log(`created user ${login} (id ${r.id}, ${opts.role})`);
        if (r.generated) console.log(`application password: ${r.password}`);
      });
    },
  );
user
  .command('list')
  .description('list users')
  .option('--db <url>', 'database URL')
  .action(async (opts: { db?: string }) => {
    await withUsers(opts.db, async (users) => {
      for (const u of await users.list()) console.log(`${u.id}\t${u.login}\t${u.role}\t${u.created_gmt}\t${u.email}`);
    });
  });
user
  .command('remove <login>')
  .description('remove a user and their application passwords')
  .option('--db <url>', 'database URL')
  .action(async (login: string, opts: { db?: string }) => {
    await withUsers(opts.db, async (users) => {
      await users.remove(login);
      console.log(`removed user ${login}`);
    });
  });
user
  .command('set-role <login> <role>')
  .description('change a user role')
  .option('--db <url>', 'database URL')
  .action(async (login: string, role: string, opts: { db?: string }) => {
    if (!isRole(role)) throw new UserError(`role must be one of ${ROLES.join(', ')}`);
    await withUsers(opts.db, async (users) => {
      await users.setRole(login, role);
      console.log(`${login} is now ${role}`);
    });
  });
user
  .command('add-password <login>')
  .description('add an application password to a user')
  .option('--name <name>', 'label', 'cli')
  .option('--app-password <pw>', 'use this password instead of generating one')
  .option('--db <url>', 'database URL')
  .action(async (login: string, opts: { name: string; appPassword?: string; db?: string }) => {
    await withUsers(opts.db, async (users) => {
      console.log(`application password: ${await users.addPassword(login, opts.name, opts.appPassword)}`);
    });
  });

// Viewing passwords are set by the site's operators, as in WordPress's editor: the plugin's API has no such field.
const setPassword = async (id: string, password: string, db: string | undefined): Promise<void> => {
  if (!/^[1-9]\d*$/.test(id)) throw new UserError(`the id must be a positive integer, got ${id}`);
  await withStore(db, async (store) => {
    if (!(await postRepository(store.db).setPassword(Number(id), password)))
      throw new UserError(`no event, venue or organizer has id ${id}`);
  });
};
program
  .command('protect <id> <password>')
  .description(
    'password-protect an event, venue or organizer: readers then need ?password=… (running servers see it at once)',
  )
  .option('--db <url>', 'database URL')
  .action(async (id: string, password: string, opts: { db?: string }) => {
    if (password === '')
      throw new UserError('the password must not be empty (use `events unprotect ID` to remove one)');
    await setPassword(id, password, opts.db);
    console.log(`post ${id} is now password-protected`);
  });
program
  .command('unprotect <id>')
  .description('remove the viewing password of an event, venue or organizer')
  .option('--db <url>', 'database URL')
  .action(async (id: string, opts: { db?: string }) => {
    await setPassword(id, '', opts.db);
    console.log(`post ${id} is no longer password-protected`);
  });

// The operator imports images so their ids exist for clients; site URL, uploads folder and limits come from EVENTS_*.
program
  .command('media')
  .description('manage the media library')
  .command('add <source>')
  .description('import an image file or URL (jpeg, png, gif, webp); prints its attachment id and URL')
  .option('--db <url>', `sqlite:PATH or postgres://… (default ${DEFAULT_DB})`)
  .action(async (source: string, opts: { db?: string }) => {
    const config = parseConfig({ db: opts.db }, process.env);
    await withStore(config.db, async (store) => {
      const media = mediaService(mediaDepsFromConfig(store.db, createSite(config), config));
      const operator = { id: 0, login: 'cli', role: 'administrator', can: () => true };
      const { id, url } = await media.importSource(source, operator, systemClock()).catch((err: unknown) => {
        throw new UserError(`could not import ${source}: ${err instanceof Error ? err.message : String(err)}`);
      });
      console.log(`attachment ${id}\t${url}`);
    });
  });

const imports = program
  .command('import')
  .description(
    'import data: a CSV file of events, venues or organizers, an iCalendar feed, a site running the plugin, or a dump',
  );
csvImportCommand(imports, withStore);
icsImportCommand(imports, withStore);
tecImportCommand(imports, withStore);
subscriptionCommands(program, withStore);
dumpCommands(program, imports, withStore, DEFAULT_DB);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof ConfigError || err instanceof UserError) {
    console.error(`events: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
