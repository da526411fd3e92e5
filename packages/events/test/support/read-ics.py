# Reads an iCalendar text on stdin with Debian's python3-icalendar (an independent parser) and prints its VEVENTs
# as JSON: UID, SUMMARY, start/end as UTC ISO instants (or dates), TZID, and the properties the feed tests compare.
import json, sys
from datetime import date, datetime, timezone
from icalendar import Calendar

def when(prop):
    if prop is None:
        return None
    v = prop.dt
    if isinstance(v, datetime):
        tzid = prop.params.get('TZID')
        return {'utc': v.astimezone(timezone.utc).strftime('%Y-%m-%d %H:%M:%S'), 'tzid': tzid}
    return {'date': v.isoformat()}

cal = Calendar.from_ical(sys.stdin.buffer.read())
out = []
for ev in cal.walk('VEVENT'):
    geo = ev.get('GEO')
    out.append({
        'uid': str(ev.get('UID')), 'summary': str(ev.get('SUMMARY')), 'description': str(ev.get('DESCRIPTION', '')),
        'location': str(ev.get('LOCATION', '')), 'url': str(ev.get('URL', '')),
        'geo': [geo.latitude, geo.longitude] if geo is not None else None,
        'organizer': str(ev.get('ORGANIZER', '')),
        'categories': [str(c) for c in ev.get('CATEGORIES').cats] if ev.get('CATEGORIES') is not None else [],
        'start': when(ev.get('DTSTART')), 'end': when(ev.get('DTEND')), 'sequence': int(ev.get('SEQUENCE', -1)),
    })
print(json.dumps({'events': out, 'timezones': [str(tz.get('TZID')) for tz in cal.walk('VTIMEZONE')]}))
