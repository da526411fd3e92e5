/**
 * Read-your-writes across instances. A successful write answers `X-Events-Generation: TOKEN`; a request that sends
 * it back as `X-Events-Min-Generation: TOKEN`, to any instance on the same database, is answered only once that
 * instance has seen every change committed before the token was handed out (db/change-signal.ts), so neither its
 * caches nor a 304 can hide the write. The token is opaque to clients (PostgreSQL's WAL position; `0` on SQLite,
 * where every read already sees every commit).
 */
export const GENERATION_HEADER = 'X-Events-Generation';
/** Lower case: how Node hands request headers over. */
export const MIN_GENERATION_HEADER = 'x-events-min-generation';

export interface ReadYourWrites {
  writeToken(): Promise<string | undefined>;
  catchUp(token: string): Promise<void>;
}

/** Waits, when the request asks for it, until this instance has caught up with the client's last write. */
export async function catchUpWith(
  consistency: ReadYourWrites | undefined,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Promise<void> {
  const token = headers[MIN_GENERATION_HEADER];
  if (consistency !== undefined && typeof token === 'string') await consistency.catchUp(token);
}
