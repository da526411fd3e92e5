// Two readers of the service's iCalendar feeds, independent of it: ical.js in this process, and python3-icalendar
// with dateutil's rrule (expand-ics.py). Tests compare what they expand with what the API lists.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';

const EXPAND_ICS = fileURLToPath(new URL('./expand-ics.py', import.meta.url));

export interface Occurrence {
  uid: string;
  summary: string;
  start: string;
  end: string;
  tzid: string | null;
}
const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** Every occurrence of every VEVENT as python-dateutil expands it, overrides applied, sorted by start. */
export const expandWithPython = (ics: string): Occurrence[] =>
  JSON.parse(execFileSync('/usr/bin/python3', [EXPAND_ICS], { input: ics }).toString()) as Occurrence[];

/** Every occurrence of every VEVENT as ical.js expands it, overrides applied, sorted by start. */
export function expandWithIcalJs(ics: string): Occurrence[] {
  const comp = new ICAL.Component(ICAL.parse(ics));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevents = comp.getAllSubcomponents('vevent');
  const out: Occurrence[] = [];
  for (const v of vevents.filter((c) => !c.hasProperty('recurrence-id'))) {
    const master = new ICAL.Event(v);
    for (const o of vevents)
      if (o.hasProperty('recurrence-id') && o.getFirstPropertyValue('uid') === master.uid) master.relateException(o);
    const it = master.iterator();
    for (let next = it.next(); next && out.length < 500; next = it.next()) {
      const d = master.getOccurrenceDetails(next);
      out.push({
        uid: master.uid,
        summary: d.item.summary,
        start: utc(d.startDate.toJSDate()),
        end: utc(d.endDate.toJSDate()),
        tzid: d.startDate.zone.tzid,
      });
    }
  }
  return out.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.uid < b.uid ? -1 : 1));
}
