// Time zone abbreviations (AEDT, CEST, IST, "+0545") as PHP prints them with `T`: from the IANA database's TZif files,
// which the runtime's Intl does not expose (it says "GMT+11" outside a locale's own region). Offsets still come from
// Intl; a file only names them. Format: RFC 8536 (TZif versions 1-4).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Candidate names for a zone: UTC offset in seconds → abbreviation, the most recent use first. */
export type ZoneNames = ReadonlyArray<readonly [offsetSeconds: number, abbr: string]>;

const ZONEINFO_DIR = process.env.TZDIR || '/usr/share/zoneinfo';
const cache = new Map<string, ZoneNames | null>();

/** The names of the footer's POSIX TZ string (`AEST-10AEDT,M10.1.0,M4.1.0/3`, `<+0545>-5:45`), dst first. */
function footerNames(footer: string): Array<[number, string]> {
  const m = /^(<[^>]+>|[A-Za-z]+)([+-]?\d+(?::\d+){0,2})(<[^>]+>|[A-Za-z]+)?([+-]?\d+(?::\d+){0,2})?/.exec(footer);
  if (!m) return [];
  const name = (s: string) => s.replace(/^<|>$/g, '');
  // POSIX offsets are west-positive: `-10` means UTC+10.
  const secs = (s: string) => { const [h = 0, mi = 0, se = 0] = s.replace(/^[+-]/, '').split(':').map(Number); return (s.startsWith('-') ? 1 : -1) * (h * 3600 + mi * 60 + se); };
  const std = secs(m[2]!);
  const out: Array<[number, string]> = [];
  if (m[3]) out.push([m[4] ? secs(m[4]) : std + 3600, name(m[3])]);
  out.push([std, name(m[1]!)]);
  return out;
}

/** Parses a TZif file into its names: footer (current rules) first, then the types of the transitions, newest first. */
export function parseTzif(buf: Buffer): ZoneNames {
  if (buf.toString('latin1', 0, 4) !== 'TZif') throw new Error('not a TZif file');
  const header = (at: number) => ({ isut: buf.readUInt32BE(at + 20), isstd: buf.readUInt32BE(at + 24), leap: buf.readUInt32BE(at + 28),
    time: buf.readUInt32BE(at + 32), type: buf.readUInt32BE(at + 36), char: buf.readUInt32BE(at + 40) });
  let h = header(0);
  let at = 44;
  let timeSize = 4;
  const v1Size = (x: typeof h, ts: number) => x.time * ts + x.time + x.type * 6 + x.char + x.leap * (ts + 4) + x.isstd + x.isut;
  if (buf[4]! >= 0x32) {
    // Version 2+: skip the 32-bit block and read the 64-bit one, which is followed by the footer.
    at += v1Size(h, 4);
    h = header(at);
    at += 44;
    timeSize = 8;
  }
  const typeIdx = buf.subarray(at + h.time * timeSize, at + h.time * timeSize + h.time);
  const typesAt = at + h.time * timeSize + h.time;
  const charsAt = typesAt + h.type * 6;
  const types = Array.from({ length: h.type }, (_, i) => {
    const off = buf.readInt32BE(typesAt + i * 6);
    const idx = buf[typesAt + i * 6 + 5]!;
    const end = buf.indexOf(0, charsAt + idx);
    return [off, buf.toString('latin1', charsAt + idx, end)] as const;
  });
  const names: Array<readonly [number, string]> = [];
  if (timeSize === 8) {
    const footerAt = at + v1Size(h, 8);
    const footer = buf.toString('latin1', footerAt + 1, buf.indexOf(0x0a, footerAt + 1));
    names.push(...footerNames(footer));
  }
  for (let i = typeIdx.length - 1; i >= 0; i--) names.push(types[typeIdx[i]!]!);
  names.push(...types);
  return names;
}

/** The zone's names from the system zoneinfo (`TZDIR`); `null` when it has no readable file for it. */
export function zoneNames(canonicalZone: string): ZoneNames | null {
  let names = cache.get(canonicalZone);
  if (names === undefined) {
    try {
      names = /^[A-Za-z0-9_+\-/]+$/.test(canonicalZone) && !canonicalZone.includes('..')
        ? parseTzif(readFileSync(join(ZONEINFO_DIR, canonicalZone))) : null;
    } catch {
      names = null;
    }
    cache.set(canonicalZone, names);
  }
  return names;
}

/** The abbreviation the zone uses for a UTC offset (in minutes), or `undefined` when its file has none. */
export function abbrForOffset(canonicalZone: string, offsetMinutes: number): string | undefined {
  return zoneNames(canonicalZone)?.find(([off]) => Math.round(off / 60) === offsetMinutes)?.[1];
}
