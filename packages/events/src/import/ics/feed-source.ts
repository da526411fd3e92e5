import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defaultSafeFetchOptions, FetchError, safeFetch } from '../../media/index.ts';
import { IcsImportError } from './ics-error.ts';
import type { IcsLimits } from './ics-file.ts';

export interface FeedSourceOptions {
  readonly limits: IcsLimits;
  /** Loopback and private addresses (EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: intranets and tests only). */
  readonly allowPrivateHosts: boolean;
  /** The whole download, redirects included, must finish within this (an endless feed is cut here). */
  readonly timeoutMs: number;
}

/** `webcal://` is `http://` (the feeds' own subscription scheme); any other scheme but http(s) is a file path. */
export const isFeedUrl = (source: string): boolean => /^(https?|webcal):\/\//i.test(source);
export const feedUrl = (source: string): string => source.replace(/^webcal:/i, 'http:');

/**
 * The bytes of a feed and the name its links are kept under: a URL through the safe fetch (public addresses only,
 * at most `maxBytes` read, a time limit), or a file (its absolute path; size checked before reading).
 * @example const { bytes, source } = await readFeedSource('webcal://example.com/cal.ics', options)
 */
export async function readFeedSource(
  source: string,
  opts: FeedSourceOptions,
): Promise<{ bytes: Uint8Array; source: string }> {
  if (isFeedUrl(source)) {
    const url = feedUrl(source);
    try {
      const bytes = await safeFetch(url, {
        ...defaultSafeFetchOptions,
        maxBytes: opts.limits.maxBytes,
        allowPrivateHosts: opts.allowPrivateHosts,
        timeoutMs: opts.timeoutMs,
        accept: 'text/calendar, */*;q=0.1',
        what: 'feed',
      });
      return { bytes, source: url };
    } catch (err) {
      if (err instanceof FetchError) throw new IcsImportError('fetch', `${url}: ${err.message}`);
      throw err;
    }
  }
  const path = resolve(source);
  const size = await stat(path).then(
    (s) => s.size,
    () => {
      throw new IcsImportError('fetch', `cannot read ${source}`);
    },
  );
  if (size > opts.limits.maxBytes)
    throw new IcsImportError('too_large', `${source} has ${size} bytes; at most ${opts.limits.maxBytes} are read`);
  return { bytes: await readFile(path), source: path };
}
