import { describe, expect, it } from 'vitest';
import { siteTimezone } from './site-timezone.ts';

describe('siteTimezone', () => {
  it('reports a named zone with its offset at the instant, as a number', () => {
    expect(siteTimezone('UTC', 0)).toEqual({ timezoneString: 'UTC', gmtOffset: 0 });
    expect(siteTimezone('Europe/Paris', Date.UTC(2026, 6, 1))).toEqual({
      timezoneString: 'Europe/Paris',
      gmtOffset: 2,
    });
    expect(siteTimezone('Europe/Paris', Date.UTC(2026, 0, 1))).toEqual({
      timezoneString: 'Europe/Paris',
      gmtOffset: 1,
    });
    expect(siteTimezone('Asia/Kathmandu', Date.UTC(2026, 0, 1))).toEqual({
      timezoneString: 'Asia/Kathmandu',
      gmtOffset: 5.75,
    });
  });

  it('reports a manual offset as WordPress stores it: no zone name, the hours as a string', () => {
    expect(siteTimezone('UTC+5', 0)).toEqual({ timezoneString: '', gmtOffset: '5' });
    expect(siteTimezone('UTC-3:30', 0)).toEqual({ timezoneString: '', gmtOffset: '-3.5' });
  });
});
