import { describe, expect, it } from 'vitest';
import { parseWall, wallToUtc } from '../time/index.ts';
import type { FeedEvent } from './feed-event.ts';
import { feedSeriesOf, ruleOf } from './feed-series.ts';
import { rruleValue } from './series.ts';

const ZONE = 'America/New_York';
const event = (id: number, start: string, summary = 'Yoga'): FeedEvent => ({
  id,
  url: '',
  summary,
  description: '',
  allDay: false,
  startLocal: start,
  endLocal: start.replace(/ 18:/, ' 19:'),
  startUtc: wallToUtc(parseWall(start), ZONE),
  endUtc: wallToUtc(parseWall(start), ZONE) + 3_600_000,
  timezone: ZONE,
  modifiedUtc: 0,
  categories: [],
});
const occurrence = (post_id: number, recurrence_id: string, status = 'publish', overridden = 0) => ({
  post_id,
  series_id: 1,
  recurrence_id,
  overridden,
  status,
  slug: '',
});

describe('a stored series as the feed exports it', () => {
  it('reads every stored rule part, a UTC UNTIL as a wall time and a date UNTIL as the end of that day', () => {
    expect(ruleOf('FREQ=MONTHLY;INTERVAL=2;BYDAY=1TU,-1FR;BYSETPOS=1;WKST=SU;UNTIL=20180701T000000Z', ZONE)).toEqual({
      freq: 'MONTHLY',
      interval: 2,
      byDay: ['1TU', '-1FR'],
      bySetPos: [1],
      wkst: 'SU',
      until: '2018-06-30 20:00:00',
    });
    expect(ruleOf('FREQ=YEARLY;BYWEEKNO=20;BYYEARDAY=1,-1;COUNT=3', ZONE)).toEqual({
      freq: 'YEARLY',
      byWeekNo: [20],
      byYearDay: [1, -1],
      count: 3,
    });
    const first = event(1, '2018-03-01 18:00:00');
    const series = { first, rule: ruleOf('FREQ=DAILY;UNTIL=20180304', ZONE)!, rdates: [], exdates: [], overrides: [] };
    // 23:59:59 New York on 4 March (EST) is 04:59:59 UTC the next day.
    expect(rruleValue(series, series.rule)).toBe('FREQ=DAILY;UNTIL=20180305T045959Z');
  });

  it('places date-only EXDATE and RDATE at the series time, adds unlistable occurrences as EXDATEs, keeps listed overrides', () => {
    const first = event(1, '2018-03-01 18:00:00');
    const moved = event(4, '2018-03-04 20:00:00', 'Yoga (moved)');
    const stored = {
      spec: { rrule: 'FREQ=DAILY;COUNT=6', exdates: ['20180302', '20180303T230000Z'], rdates: ['20180310'] },
      occurrences: [
        occurrence(4, '2018-03-04 18:00:00', 'publish', 1),
        occurrence(5, '2018-03-05 18:00:00', 'trash'),
        occurrence(6, '2018-03-06 18:00:00', 'publish', 1),
      ],
    };
    const s = feedSeriesOf(stored, first, new Map([[4, moved]]), (status) => status === 'publish');
    // Occurrence 6 is edited alone and listable by status but not shown (hidden from listings): an EXDATE too.
    expect(s.exdates).toEqual([
      '2018-03-02 18:00:00',
      '2018-03-03 18:00:00',
      '2018-03-05 18:00:00',
      '2018-03-06 18:00:00',
    ]);
    expect(s.rdates).toEqual(['2018-03-10 18:00:00']);
    expect(s.overrides).toEqual([{ recurrenceId: '2018-03-04 18:00:00', event: moved }]);
  });

  it('exports a stored rule that is not RFC 5545 as its stored occurrences (RDATEs), never as an RRULE', () => {
    expect(ruleOf('FREQ=WEEKLY;WKST=XX;COUNT=3', ZONE)).toBeUndefined();
    const first = event(1, '2018-03-01 18:00:00');
    const stored = {
      spec: { rrule: 'FREQ=WEEKLY;WKST=XX;COUNT=3', exdates: [], rdates: [] },
      occurrences: [occurrence(2, '2018-03-08 18:00:00'), occurrence(3, '2018-03-15 18:00:00', 'trash')],
    };
    const s = feedSeriesOf(stored, first, new Map(), (status) => status === 'publish');
    expect(s.rule).toBeUndefined();
    expect(s.rdates).toEqual(['2018-03-01 18:00:00', '2018-03-08 18:00:00', '2018-03-15 18:00:00']);
    // The trashed occurrence stays removed: an EXDATE wins over an RDATE (RFC 5545 §3.8.5.1).
    expect(s.exdates).toEqual(['2018-03-15 18:00:00']);
  });
});
