import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newSecret, signMessage } from './signature.ts';
import { retryDelayMs } from './delivery-runner.ts';

describe('signMessage', () => {
  it('signs as the standardwebhooks reference does, and its verifier accepts the headers', () => {
    const secret = newSecret();
    const ts = Math.floor(Date.now() / 1000);
    const body = '{"type":"event.created","data":{"id":7,"title":"Å \\u2028"}}';
    const ours = signMessage(secret, 'msg_1', ts, body);
    expect(ours).toBe(new Webhook(secret).sign('msg_1', new Date(ts * 1000), body));
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': ours };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });

  it('makes 32-byte secrets, a new one each time', () => {
    const a = newSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
  });
});

describe('retryDelayMs', () => {
  it('doubles from the base with jitter in the upper half, capped at an hour', () => {
    for (let attempt = 1; attempt <= 40; attempt++) {
      const full = Math.min(1000 * 2 ** (attempt - 1), 3_600_000);
      for (let i = 0; i < 50; i++) {
        const d = retryDelayMs(attempt, 1000);
        expect(d).toBeGreaterThanOrEqual(Math.floor(full / 2));
        expect(d).toBeLessThanOrEqual(full);
      }
    }
  });
});
