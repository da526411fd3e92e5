import type { Wall } from '../time/index.ts';

// The plugin's `tribe_events_event_schedule_details` (full and short), as `tec/v1` returns them: dates "F j, Y"
// (the year left out in the current year, as the plugin does), times "g:i a".

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const day = (w: Wall, currentYear: number) => `${MONTHS[w.mo - 1]} ${w.d}${w.y === currentYear ? '' : `, ${w.y}`}`;
const time = (w: Wall) =>
  `${w.h % 12 === 0 ? 12 : w.h % 12}:${String(w.mi).padStart(2, '0')} ${w.h < 12 ? 'am' : 'pm'}`;
const span = (cls: string, text: string) => `<span class="tribe-event-${cls}">${text}</span>`;
const sameDay = (a: Wall, b: Wall) => a.y === b.y && a.mo === b.mo && a.d === b.d;

export interface Schedule {
  full: string;
  short: string;
}

/** `start`/`end` are the event's local wall times. */
export function scheduleDetails(start: Wall, end: Wall, allDay: boolean, currentYear: number): Schedule {
  if (allDay) {
    const first = span('date-start', day(start, currentYear));
    if (sameDay(start, end)) return { full: first, short: 'All day' };
    const both = `${first} - ${span('date-end', day(end, currentYear))}`;
    return { full: both, short: both };
  }
  if (sameDay(start, end)) {
    const until = span('time', time(end));
    return {
      full: `${span('date-start', `${day(start, currentYear)} @ ${time(start)}`)} - ${until}`,
      short: `${span('date-start', time(start))} - ${until}`,
    };
  }
  const both = `${span('date-start', `${day(start, currentYear)} @ ${time(start)}`)} - ${span('date-end', `${day(end, currentYear)} @ ${time(end)}`)}`;
  return { full: both, short: both };
}

/** Calendar days a local span touches (`multiday`: false for one day, else the count). */
export function daysSpanned(start: Wall, end: Wall): number {
  const index = (w: Wall) => Date.UTC(w.y, w.mo - 1, w.d) / 86_400_000;
  return index(end) - index(start) + 1;
}
