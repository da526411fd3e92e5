import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  readonly id: string;
  readonly timestamp: number;
  /** The parsed body, verified with the subscription's secret by the `standardwebhooks` package. */
  readonly body: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A webhook receiver on 127.0.0.1 that verifies every message with an independent Standard Webhooks
 * implementation. `answer` decides each status (200 unless set); a message whose signature does not verify is
 * answered 401 and counted in `rejected`, never in `received`.
 */
export async function startReceiver() {
  let secret = '';
  const received: Received[] = [];
  const rejected: string[] = [];
  /** Gets the attempt number of this `webhook-id` (1 for its first request). */
  let answer: (attempt: number) => number = () => 200;
  const attemptsOf = new Map<string, number>();
  let delayMs = 0;
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        const body = new Webhook(secret).verify(text, headers) as Received['body'];
        const id = headers['webhook-id']!;
        attemptsOf.set(id, (attemptsOf.get(id) ?? 0) + 1);
        const status = answer(attemptsOf.get(id)!);
        inFlight++;
        setTimeout(() => {
          inFlight--;
          // Counted when answered: a message whose answer never left (the sender died) is not received.
          if (status >= 200 && status < 300)
            received.push({ id, timestamp: Number(headers['webhook-timestamp']), body });
          res.writeHead(status).end();
        }, delayMs);
      } catch (err) {
        rejected.push(String(err));
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    rejected,
    /** Requests that verified per `webhook-id`, whatever they were answered. */
    attemptsOf,
    useSecret(s: string) {
      secret = s;
    },
    answerWith(f: (attempt: number) => number) {
      answer = f;
    },
    /** Requests verified and not yet answered. */
    get inFlight() {
      return inFlight;
    },
    /** Answers each request this much later (deliveries stay in flight). */
    delayAnswers(ms: number) {
      delayMs = ms;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls `check` every 20 ms until it holds or `ms` pass. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
