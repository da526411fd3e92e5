import autocannon from 'autocannon';

/** The benches' administrator (`events user add bench --role administrator --app-password bench-password-0001`). */
export const BENCH_AUTH = `Basic ${Buffer.from('bench:bench-password-0001').toString('base64')}`;

const body = (title: string) =>
  `title=${encodeURIComponent(title)}&start_date=tomorrow+9am&end_date=tomorrow+11am&cost=10`;

/** Event creates through REST with 4 connections, titled `title(i)`, for a duration or an amount. */
export function createLoad(base: string, title: (i: number) => string, opts: { duration?: number; amount?: number }) {
  let i = 0;
  return autocannon({
    url: base,
    connections: 4,
    ...opts,
    requests: [
      {
        method: 'POST',
        path: '/wp-json/tribe/events/v1/events',
        headers: { authorization: BENCH_AUTH, 'content-type': 'application/x-www-form-urlencoded' },
        setupRequest: (req) => ({ ...req, body: body(title(i++)) }),
      },
    ],
  });
}
