import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { wallToUtc, parseWall } from '../time/index.ts';
import { renderCalendar } from './calendar.ts';
import type { FeedEvent } from './feed-event.ts';
import type { FeedSeries } from './series.ts';

const ZONE = 'Europe/Paris';
const at = (wall: string) => wallToUtc(parseWall(wall), ZONE);
const occurrence = (id: number, start: string, end: string, summary = 'Weekly meetup'): FeedEvent => ({
  id,
  url: `https://example.org/event/meetup-${id}/`,
  summary,
  description: '',
  allDay: false,
  startLocal: start,
  endLocal: end,
  startUtc: at(start),
  endUtc: at(end),
  timezone: ZONE,
  modifiedUtc: Date.UTC(2032, 0, 5),
  categories: [],
});

/** Occurrence starts (UTC ISO) and summaries as ical.js expands the series, overrides applied. */
function expand(ics: string): Array<{ start: string; summary: string }> {
  const comp = new ICAL.Component(ICAL.parse(ics));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevents = comp.getAllSubcomponents('vevent');
  const master = new ICAL.Event(vevents.find((v) => !v.hasProperty('recurrence-id'))!);
  for (const v of vevents) if (v.hasProperty('recurrence-id')) master.relateException(v);
  const out: Array<{ start: string; summary: string }> = [];
  const it = master.iterator();
  for (let next = it.next(); next && out.length < 50; next = it.next()) {
    const details = master.getOccurrenceDetails(next);
    out.push({ start: details.startDate.toJSDate().toISOString(), summary: details.item.summary });
  }
  return out;
}

describe('series export (RRULE, RDATE, EXDATE, RECURRENCE-ID)', () => {
  const series: FeedSeries = {
    first: occurrence(10, '2032-03-15 18:00:00', '2032-03-15 20:00:00'),
    rule: { freq: 'WEEKLY', byDay: ['MO'], until: '2032-04-26 18:00:00' },
    rdates: ['2032-05-05 18:00:00'],
    exdates: ['2032-03-29 18:00:00'],
    overrides: [
      {
        recurrenceId: '2032-04-12 18:00:00',
        event: occurrence(14, '2032-04-12 19:00:00', '2032-04-12 21:00:00', 'Weekly meetup (moved)'),
      },
    ],
  };
  const ics = renderCalendar([], [series], { name: 'Test', host: 'example.org', refreshMinutes: 60 });

  it('writes one master VEVENT and overrides sharing its UID', () => {
    expect(ics).toContain('RRULE:FREQ=WEEKLY;UNTIL=20320426T160000Z;BYDAY=MO');
    expect(ics).toContain('EXDATE;TZID=Europe/Paris:20320329T180000');
    expect(ics).toContain('RDATE;TZID=Europe/Paris:20320505T180000');
    expect(ics).toContain('RECURRENCE-ID;TZID=Europe/Paris:20320412T180000');
    expect(ics.match(/UID:10@example.org/g)).toHaveLength(2);
  });

  it('expands in ical.js to the intended occurrences, keeping 18:00 Paris time across the DST change', () => {
    expect(expand(ics)).toEqual([
      { start: '2032-03-15T17:00:00.000Z', summary: 'Weekly meetup' },
      { start: '2032-03-22T17:00:00.000Z', summary: 'Weekly meetup' },
      // 29 March removed; summer time from 28 March: 18:00 is 16:00 UTC.
      { start: '2032-04-05T16:00:00.000Z', summary: 'Weekly meetup' },
      { start: '2032-04-12T17:00:00.000Z', summary: 'Weekly meetup (moved)' },
      { start: '2032-04-19T16:00:00.000Z', summary: 'Weekly meetup' },
      { start: '2032-04-26T16:00:00.000Z', summary: 'Weekly meetup' },
      { start: '2032-05-05T16:00:00.000Z', summary: 'Weekly meetup' },
    ]);
  });

  it('writes an all-day series with DATE values and a DATE UNTIL', () => {
    const day: FeedEvent = { ...occurrence(20, '2032-01-01 00:00:00', '2032-01-01 23:59:59'), allDay: true };
    const text = renderCalendar(
      [],
      [
        {
          first: day,
          rule: { freq: 'YEARLY', until: '2036-01-01 00:00:00' },
          rdates: [],
          exdates: ['2034-01-01 00:00:00'],
          overrides: [],
        },
      ],
      { name: 'T', host: 'example.org', refreshMinutes: 60 },
    );
    expect(text).toContain('DTSTART;VALUE=DATE:20320101');
    expect(text).toContain('RRULE:FREQ=YEARLY;UNTIL=20360101');
    expect(text).toContain('EXDATE;VALUE=DATE:20340101');
    expect(expand(text).map((o) => o.start.slice(0, 10))).toEqual([
      '2032-01-01',
      '2033-01-01',
      '2035-01-01',
      '2036-01-01',
    ]);
  });
});
