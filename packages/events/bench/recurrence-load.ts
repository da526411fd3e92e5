// Issue 23's two measurements, through the real server on loopback (the test harness's service, both stores):
// anonymous GET latency while 10 posts of a rule that never occurs arrive at once, and while a 730-occurrence
// series is written. `node --import tsx bench/recurrence-load.ts` (EVENTS_BENCH_STORE=sqlite for one store).
import { STORES, createEvent, startService, type Service } from '../test/support/harness.ts';

const IMPOSSIBLE = 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;UNTIL=21260101';

/** Runs `work` while one reader GETs an event in a loop; latency of those GETs. */
async function readsDuring(svc: Service, id: number, work: () => Promise<unknown>): Promise<string> {
  const gets: number[] = [];
  let busy = true;
  const reads = (async () => {
    while (busy) {
      const t = performance.now();
      await svc.get(`/events/${id}`);
      gets.push(performance.now() - t);
    }
  })();
  const t0 = performance.now();
  await work();
  const took = performance.now() - t0;
  busy = false;
  await reads;
  gets.sort((a, b) => a - b);
  const q = (p: number) => gets[Math.min(gets.length - 1, Math.floor(p * gets.length))]!.toFixed(1);
  return `work ${took.toFixed(0)} ms; ${gets.length} GETs: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms`;
}

async function main(): Promise<void> {
  for (const factory of STORES.filter(
    (s) => !process.env.EVENTS_BENCH_STORE || s.name === process.env.EVENTS_BENCH_STORE,
  )) {
    const svc = await startService(factory);
    const plain = await createEvent(svc, { title: 'Read', status: 'publish' });
    const post = (as: 'administrator' | 'contributor', recurrence: string) =>
      svc.request('POST', '/events', {
        as,
        json: {
          title: 'Series',
          start_date: '2026-01-05 10:00',
          end_date: '2026-01-05 11:00',
          recurrence,
        },
      });
    await post('contributor', IMPOSSIBLE); // the credential's first check (scrypt) is not what is measured
    console.log(
      factory.name,
      '10 impossible posts:',
      await readsDuring(svc, plain.id, () =>
        Promise.all(Array.from({ length: 10 }, () => post('contributor', IMPOSSIBLE))),
      ),
    );
    for (const round of [1, 2]) {
      console.log(
        factory.name,
        `730-occurrence write #${round}:`,
        await readsDuring(svc, plain.id, () => post('administrator', 'FREQ=DAILY;COUNT=730')),
      );
    }
    await svc.close();
  }
}

void main().then(() => process.exit(0));
