// Issue 23 item 3: how long and how large the iCalendar text of one event spanning 1000-01-02 … 9999-12-30 is, per
// zone, rendered cold (a fresh process: no zone caches); and the p95 render time of an ordinary feed (50 events,
// 2024-2027, five zones) rendered again and again as the feed route does. Prints a Markdown table.
import { performance } from 'node:perf_hooks';
import { renderCalendar, type FeedEvent } from '../src/ical/index.ts';

const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Tokyo', 'UTC'];
const OPTIONS = { name: 'Events', host: 'example.org', refreshMinutes: 60 };

function event(id: number, zone: string, start: number, end: number): FeedEvent {
  const local = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  return {
    id,
    url: `https://example.org/event/${id}/`,
    summary: `Event ${id}`,
    description: '',
    allDay: false,
    startLocal: local(start),
    endLocal: local(end),
    startUtc: start,
    endUtc: end,
    timezone: zone,
    modifiedUtc: Date.UTC(2024, 0, 1),
    categories: [],
  };
}

console.log('| zone | 1000-9999 event: cold render ms | feed bytes | VTIMEZONE observances |\n|---|---|---|---|');
for (const zone of ZONES) {
  const t0 = performance.now();
  const text = renderCalendar([event(1, zone, Date.UTC(1000, 0, 2, 12), Date.UTC(9999, 11, 30, 12))], [], OPTIONS);
  const ms = performance.now() - t0;
  const observances = (text.match(/BEGIN:(STANDARD|DAYLIGHT)/g) ?? []).length;
  console.log(`| ${zone} | ${ms.toFixed(1)} | ${Buffer.byteLength(text)} | ${observances} |`);
}

const times: number[] = [];
for (let round = 0; round < 300; round++) {
  const events = Array.from({ length: 50 }, (_, i) => {
    const start = Date.UTC(2024 + (i % 4), i % 12, 1 + (i % 28), 9);
    return event(i, ZONES[i % ZONES.length]!, start, start + 2 * 3_600_000);
  });
  const t0 = performance.now();
  renderCalendar(events, [], OPTIONS);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
console.log(
  `\nordinary feed (50 events, 2024-2027, 5 zones), 300 renders: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, first ${times.length ? '' : ''}${at(1)} ms max`,
);
