# Reads an iCalendar text on stdin with Debian's python3-icalendar and expands every recurring VEVENT with
# python-dateutil's RFC 5545 rrule (both independent of the service), applying EXDATE, RDATE and RECURRENCE-ID
# overrides. Prints the occurrences as JSON: UID, summary, start/end as UTC instants, TZID, sorted by start.
import json, sys
from datetime import datetime, timezone
from dateutil.rrule import rrulestr, rruleset
from icalendar import Calendar

def utc(v):
    return v.astimezone(timezone.utc).strftime('%Y-%m-%d %H:%M:%S')

def dates(ev, name):
    out = []
    props = ev.get(name)
    if props is None:
        return out
    for p in props if isinstance(props, list) else [props]:
        out.extend(d.dt for d in p.dts)
    return out

cal = Calendar.from_ical(sys.stdin.buffer.read())
events = list(cal.walk('VEVENT'))
overrides = {}
for ev in events:
    if ev.get('RECURRENCE-ID') is not None:
        overrides[(str(ev.get('UID')), utc(ev.get('RECURRENCE-ID').dt))] = ev
out = []
def emit(ev, start, end):
    out.append({'uid': str(ev.get('UID')), 'summary': str(ev.get('SUMMARY')), 'start': utc(start), 'end': utc(end),
                'tzid': ev.get('DTSTART').params.get('TZID')})
for ev in events:
    if ev.get('RECURRENCE-ID') is not None:
        continue
    start = ev.get('DTSTART').dt
    length = ev.get('DTEND').dt - start
    if ev.get('RRULE') is None and ev.get('RDATE') is None:
        emit(ev, start, start + length)
        continue
    # RFC 5545 repeats the wall time in DTSTART's zone: expand naive wall times, then place each in the zone
    # (dateutil would keep a pytz zone's first offset across a DST change).
    tz = start.tzinfo
    wall = lambda d: d.astimezone(tz).replace(tzinfo=None)
    place = lambda d: tz.localize(d) if hasattr(tz, 'localize') else d.replace(tzinfo=tz)
    rs = rruleset()
    until_utc = ev.get('RRULE') and ev.get('RRULE').get('UNTIL')
    rule = ev.get('RRULE') and ev.get('RRULE').to_ical().decode()
    if until_utc:
        # A naive DTSTART takes a naive UNTIL: the UTC UNTIL as a wall time of the zone.
        u = until_utc[0]
        rule = ';'.join(p for p in rule.split(';') if not p.startswith('UNTIL='))
        rs.rrule(rrulestr(rule, dtstart=wall(start), until=wall(u) if isinstance(u, datetime) else datetime(u.year, u.month, u.day, 23, 59, 59)))
    elif ev.get('RRULE') is not None:
        rs.rrule(rrulestr(rule, dtstart=wall(start)))
    else:
        # RDATEs without a rule: DTSTART is the first instance (RFC 5545 §3.8.5.2).
        rs.rdate(wall(start))
    for d in dates(ev, 'RDATE'):
        rs.rdate(wall(d))
    for d in dates(ev, 'EXDATE'):
        rs.exdate(wall(d))
    for naive in rs:
        occ = place(naive)
        o = overrides.get((str(ev.get('UID')), utc(occ)))
        if o is None:
            emit(ev, occ, occ + length)
        else:
            emit(o, o.get('DTSTART').dt, o.get('DTEND').dt)
out.sort(key=lambda o: (o['start'], o['uid']))
print(json.dumps(out))
