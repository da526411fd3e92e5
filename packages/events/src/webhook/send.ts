import http from 'node:http';
import https from 'node:https';
import { checkUrl, defaultSafeFetchOptions, guardedLookup } from '../media/index.ts';
import { signMessage } from './signature.ts';

export interface SendOptions {
  /** Loopback and private receivers (config `mediaAllowPrivateHosts`: the safe fetch rules, tests only). */
  readonly allowPrivateHosts: boolean;
  readonly timeoutMs: number;
}

export const defaultSendOptions: SendOptions = { allowPrivateHosts: false, timeoutMs: 10_000 };

/** How long a message being sent is kept from other senders: past it, its sender is taken for dead. */
export const sendLeaseMs = (opts: SendOptions): number => opts.timeoutMs * 3;

/**
 * POSTs one signed message (Standard Webhooks headers); resolves with the receiver's status, rejects when it could
 * not be reached. The address rules are the safe fetch's: public addresses on ports 80/443/8080, checked on the
 * resolved address, unless private hosts are allowed. Redirects are not followed (a 3xx is a failed attempt).
 */
export function sendMessage(
  url: string,
  msg: { id: string; secret: string; body: string; timestampS: number },
  opts: SendOptions,
): Promise<number> {
  const safe = { ...defaultSafeFetchOptions, allowPrivateHosts: opts.allowPrivateHosts };
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    checkUrl(target, safe);
    const request = target.protocol === 'https:' ? https.request : http.request;
    const req = request(
      target,
      {
        method: 'POST',
        lookup: guardedLookup(safe) as never,
        timeout: opts.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'events-webhooks/1.0',
          'webhook-id': msg.id,
          'webhook-timestamp': String(msg.timestampS),
          'webhook-signature': signMessage(msg.secret, msg.id, msg.timestampS, msg.body),
        },
      },
      (res) => {
        // The answer's body is not needed: read it away so the connection can be reused.
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(msg.body);
  });
}
