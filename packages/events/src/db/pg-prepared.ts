import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

// PostgreSQL plans every unnamed statement again, which costs as much as running this service's small queries
// (about 0.5–1.5 ms of planning against 0.1–3 ms of execution). Naming a statement makes the pg client prepare it
// once per connection and afterwards send only the parameters. Kysely sends SQL text, so the pool handed to it
// names statements by their text.
const MAX_NAMED_PER_CONNECTION = 300;
const DML = /^\s*(select|insert|update|delete|with)\b/i;

export interface PreparingPool extends PostgresPool {
  /** Off while migrations run: a statement prepared against an old table shape would fail after `alter table`. */
  enabled: boolean;
}

/**
 * Wraps a pg pool so data queries become named (prepared) statements, at most 300 per connection. `onFailure` sees
 * every error of a connect or a query (the pool's and the clients' `error` events miss a connection lost mid-query).
 */
export function preparingPool(pool: pg.Pool, onFailure: (err: unknown) => void = () => {}): PreparingPool {
  const watched = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      onFailure(err);
      throw err;
    });
  const names = new Map<string, string>();
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const state: PreparingPool = {
    enabled: false,
    end: () => pool.end(),
    async connect(): Promise<PostgresPoolClient> {
      const client = await watched(pool.connect());
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        const prepared = new Set<string>();
        wrapper = {
          query: ((text: unknown, parameters?: ReadonlyArray<unknown>) => {
            // A cursor (streamed query) is returned as it is: its errors come through its own reads.
            if (typeof text !== 'string') return client.query(text as never);
            if (
              !state.enabled ||
              !DML.test(text) ||
              (prepared.size >= MAX_NAMED_PER_CONNECTION && !prepared.has(text))
            ) {
              return watched(client.query(text, parameters as unknown[]));
            }
            let name = names.get(text);
            if (name === undefined) names.set(text, (name = `k${names.size}`));
            prepared.add(text);
            return watched(client.query({ name, text, values: parameters as unknown[] }));
          }) as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
  };
  return state;
}
