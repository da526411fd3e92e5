import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';

/** Why a fetch was refused or failed; the service answers every one of them with a 400 on `image`. */
export class FetchError extends Error {
  /** The HTTP status that refused the fetch, when the server answered (a 401 is not a network failure). */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  readonly maxBytes: number;
  /** Loopback, private and link-local addresses on any port (intranets and tests); off in production. */
  readonly allowPrivateHosts: boolean;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  /** The `Accept` header and the noun of the messages ('image' unless said: an iCalendar feed says 'feed'). */
  readonly accept?: string;
  readonly what?: string;
  /** More request headers (an import's `Authorization`): sent only to the first URL's origin, never after a redirect elsewhere. */
  readonly headers?: Readonly<Record<string, string>>;
}

export const defaultSafeFetchOptions: SafeFetchOptions = {
  maxBytes: 10 * 2 ** 20,
  allowPrivateHosts: false,
  timeoutMs: 10_000,
  maxRedirects: 5,
};

// What wp_http_validate_url refuses, plus link-local, CGNAT, multicast and reserved ranges. IPv4-mapped IPv6
// addresses are checked against the IPv4 rules by BlockList itself.
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv6');

export const isPublicAddress = (ip: string): boolean => !BLOCKED.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');

const ALLOWED_PORTS = new Set([80, 443, 8080]);

/** Checks scheme, port and (for a literal) the address of one hop before it is requested. */
export function checkUrl(url: URL, opts: SafeFetchOptions): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchError('only http and https URLs are fetched');
  if (url.username || url.password) throw new FetchError('URLs with credentials are not fetched');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (opts.allowPrivateHosts) return;
  if (!ALLOWED_PORTS.has(port)) throw new FetchError('only ports 80, 443 and 8080 are fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) throw new FetchError('the address is not public');
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup that refuses non-public answers, so the address checked is the address connected to (no rebinding). */
export function guardedLookup(opts: SafeFetchOptions) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      if (!opts.allowPrivateHosts && (list.length === 0 || list.some((a) => !isPublicAddress(a.address)))) {
        return callback(
          Object.assign(new FetchError('the host resolves to a non-public address'), { code: 'EADDRNOTPUBLIC' }),
          '',
        );
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

interface Hop {
  status: number;
  location?: string;
  body?: Buffer;
}

function requestOnce(url: URL, opts: SafeFetchOptions, signal: AbortSignal, origin: string): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const get = url.protocol === 'https:' ? https.get : http.get;
    const req = get(
      url,
      {
        lookup: guardedLookup(opts) as never,
        signal,
        headers: {
          ...(url.origin === origin ? opts.headers : undefined),
          'user-agent': 'events-media/1.0',
          accept: opts.accept ?? 'image/*',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ status, location: res.headers.location });
        }
        if (status !== 200) {
          res.resume();
          return reject(new FetchError(`the server answered ${status}`, status));
        }
        const declared = Number(res.headers['content-length'] ?? NaN);
        if (declared > opts.maxBytes) {
          res.destroy();
          return reject(
            new FetchError(`the ${opts.what ?? 'image'} is larger than the limit (${opts.maxBytes} bytes)`),
          );
        }
        // Read at most maxBytes: a server that lies about (or omits) its length cannot make us buffer more.
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            res.destroy();
            reject(new FetchError(`the ${opts.what ?? 'image'} is larger than the limit (${opts.maxBytes} bytes)`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
        res.on('error', reject);
        // A connection cut mid-body may end without 'end' or 'error'; settling twice is harmless.
        res.on('close', () => {
          if (!res.complete)
            reject(new FetchError(`the connection closed before the whole ${opts.what ?? 'image'} arrived`));
        });
      },
    );
    req.on('error', (err) =>
      reject(err instanceof FetchError ? err : new FetchError(`the URL could not be fetched: ${err.message}`)),
    );
  });
}

/**
 * Downloads a client-chosen URL as WordPress's wp_safe_remote_get does: http(s) only, ports 80/443/8080, public
 * addresses only (checked on the resolved address of every hop), at most `maxRedirects` redirects, a time limit for
 * the whole exchange and at most `maxBytes` read.
 * @example const bytes = await safeFetch('https://example.com/a.jpg', defaultSafeFetchOptions)
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<Buffer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    let url = new URL(rawUrl);
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
      checkUrl(url, opts);
      const res = await requestOnce(url, opts, controller.signal, origin);
      if (res.body) return res.body;
      if (hop >= opts.maxRedirects) throw new FetchError('too many redirects');
      url = new URL(res.location!, url);
    }
  } catch (err) {
    if (controller.signal.aborted) throw new FetchError('the URL did not answer in time');
    if (err instanceof FetchError) throw err;
    throw new FetchError(`the URL could not be fetched: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
