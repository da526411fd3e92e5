/**
 * `npm run bench:events:ical-import`: iCalendar import of a 10,000-VEVENT feed (issue 30, target ≤ 10 s). Builds a
 * feed (EVENTS_BENCH_EVENTS VEVENTs, default 10,000: three zones and UTC, one in ten all-day, 40 LOCATIONs, 25 ORGANIZERs, 12 CATEGORIES reused), imports it into a fresh store in-process
 * through `importIcs` (the CLI's and the subscriptions' path), then imports it again (every VEVENT unchanged: a
 * re-sync) and prints seconds for each whole call: parse, per-VEVENT REST validation, writes and commit.
 * EVENTS_BENCH_STORES=sqlite,postgres picks the stores; TMPDIR places the SQLite file. No series: their expansion
 * runs in a worker thread with a 1.5 s budget that a machine at load 30 can exceed (recurrence/DESIGN.md), which
 * would measure the machine, not the import; series imports are tested in test/ical-import.test.ts.
 */
import { defaultIcsImportOptions, importIcs } from '../src/import/index.ts';
import { benchStores, loadLine, withImportStore } from './import-setup.ts';

const EVENTS = Number(process.env.EVENTS_BENCH_EVENTS ?? 10_000);
const STORES = benchStores();
const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC'];

const pad = (n: number) => String(n).padStart(2, '0');
/** The bench feed: deterministic, so every run imports the same text. */
function benchFeed(n: number): Buffer {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//bench//ical import//EN'];
  for (let i = 0; i < n; i++) {
    const day = new Date(Date.UTC(2027, 0, 1) + (i % 700) * 86_400_000);
    const date = `${day.getUTCFullYear()}${pad(day.getUTCMonth() + 1)}${pad(day.getUTCDate())}`;
    const zone = ZONES[i % ZONES.length]!;
    const hour = pad(8 + (i % 12));
    lines.push('BEGIN:VEVENT', `UID:bench-${i}@feed.test`, 'DTSTAMP:20260101T000000Z');
    if (i % 10 === 9) lines.push(`DTSTART;VALUE=DATE:${date}`);
    else if (zone === 'UTC') lines.push(`DTSTART:${date}T${hour}0000Z`, 'DURATION:PT2H');
    else lines.push(`DTSTART;TZID=${zone}:${date}T${hour}0000`, `DTEND;TZID=${zone}:${date}T${hour}4500`);
    lines.push(
      `SUMMARY:Bench event ${i}`,
      `DESCRIPTION:Event number ${i} of the benchmark feed.\\nSecond line\\, with a comma.`,
      `LOCATION:Venue ${i % 40}\\, ${i % 40} Main Street\\, Springfield`,
      `ORGANIZER;CN=Organizer ${i % 25}:mailto:org${i % 25}@feed.test`,
      `CATEGORIES:Category ${i % 12},Category ${(i + 5) % 12}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR', '');
  return Buffer.from(lines.join('\r\n'));
}

const feed = benchFeed(EVENTS);
console.log(
  `iCalendar import, ${EVENTS} VEVENTs (${(feed.length / 1e6).toFixed(1)} MB); load average before ${loadLine()}`,
);
console.log('| store | first import (s) | created | VEVENTs/s | re-sync (s) | unchanged |');
console.log('|---|---|---|---|---|---|');
for (const kind of STORES) {
  await withImportStore(kind, 'events_ical_import', Date.UTC(2026, 5, 1), async (deps) => {
    let t = performance.now();
    const first = await importIcs(deps, feed, 'bench:feed', defaultIcsImportOptions);
    const firstS = (performance.now() - t) / 1000;
    t = performance.now();
    const again = await importIcs(deps, feed, 'bench:feed', defaultIcsImportOptions);
    const againS = (performance.now() - t) / 1000;
    if (first.refused.length > 0) throw new Error(`refused: ${JSON.stringify(first.refused.slice(0, 3))}`);
    console.log(
      `| ${kind} | ${firstS.toFixed(2)} | ${first.created} | ${(EVENTS / firstS).toFixed(0)} | ${againS.toFixed(2)} | ${again.unchanged} |`,
    );
  });
}
console.log(`load average after ${loadLine()}`);
