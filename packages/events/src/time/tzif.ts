// Time zone abbreviations (AEDT, CEST, IST, "+0545") as PHP prints them with `T`: from the IANA database's TZif files,
// which the runtime's Intl does not expose (it says "GMT+11" outside a locale's own region). Offsets still come from
// Intl; a file only names them. Format: RFC 8536 (TZif versions 1-4).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Candidate names for a zone: UTC offset in seconds → abbreviation, the most recent use first. */
export type ZoneNames = ReadonlyArray<readonly [offsetSeconds: number, abbr: string]>;

// Set once at start-up from the parsed configuration (config `zoneinfoDir`, env TZDIR) before any zone is read:
// the files' contents are cached per process, so the folder cannot change afterwards.
let zoneinfoDir = '/usr/share/zoneinfo';
/** Where the TZif files are; called by start-up (cli/main.ts) with config `zoneinfoDir`. */
export function useZoneinfoDir(dir: string): void {
  zoneinfoDir = dir;
}
const cache = new Map<string, ZoneNames | null>();

/** The names of the footer's POSIX TZ string (`AEST-10AEDT,M10.1.0,M4.1.0/3`, `<+0545>-5:45`), dst first. */
function footerNames(footer: string): Array<[number, string]> {
  const m = /^(<[^>]+>|[A-Za-z]+)([+-]?\d+(?::\d+){0,2})(<[^>]+>|[A-Za-z]+)?([+-]?\d+(?::\d+){0,2})?/.exec(footer);
  if (!m) return [];
  const name = (s: string) => s.replace(/^<|>$/g, '');
  // POSIX offsets are west-positive: `-10` means UTC+10.
  const secs = (s: string) => {
    const [h = 0, mi = 0, se = 0] = s.replace(/^[+-]/, '').split(':').map(Number);
    return (s.startsWith('-') ? 1 : -1) * (h * 3600 + mi * 60 + se);
  };
  const std = secs(m[2]!);
  const out: Array<[number, string]> = [];
  if (m[3]) out.push([m[4] ? secs(m[4]) : std + 3600, name(m[3])]);
  out.push([std, name(m[1]!)]);
  return out;
}

/** A local time type of a TZif file: offset in seconds east of UTC. */
export interface TzifType {
  readonly offset: number;
  readonly isDst: boolean;
  readonly abbr: string;
}

/** The parts of a TZif file the service reads: transitions (UTC ms, index into `types`), types, POSIX footer. */
export interface TzifData {
  readonly times: readonly number[];
  readonly typeIdx: readonly number[];
  readonly types: readonly TzifType[];
  /** Version 2+ only; `''` when the file says nothing about times after its last transition. */
  readonly footer: string;
}

/** Reads a TZif file (the 64-bit block of version 2+, else the 32-bit one). */
export function readTzif(buf: Buffer): TzifData {
  if (buf.toString('latin1', 0, 4) !== 'TZif') throw new Error('not a TZif file');
  const header = (at: number) => ({
    isut: buf.readUInt32BE(at + 20),
    isstd: buf.readUInt32BE(at + 24),
    leap: buf.readUInt32BE(at + 28),
    time: buf.readUInt32BE(at + 32),
    type: buf.readUInt32BE(at + 36),
    char: buf.readUInt32BE(at + 40),
  });
  let h = header(0);
  let at = 44;
  let timeSize = 4;
  const v1Size = (x: typeof h, ts: number) =>
    x.time * ts + x.time + x.type * 6 + x.char + x.leap * (ts + 4) + x.isstd + x.isut;
  if (buf[4]! >= 0x32) {
    // Version 2+: skip the 32-bit block and read the 64-bit one, which is followed by the footer.
    at += v1Size(h, 4);
    h = header(at);
    at += 44;
    timeSize = 8;
  }
  const times = Array.from(
    { length: h.time },
    (_, i) => (timeSize === 8 ? Number(buf.readBigInt64BE(at + i * 8)) : buf.readInt32BE(at + i * 4)) * 1000,
  );
  const typeIdx = [...buf.subarray(at + h.time * timeSize, at + h.time * timeSize + h.time)];
  const typesAt = at + h.time * timeSize + h.time;
  const charsAt = typesAt + h.type * 6;
  const types = Array.from({ length: h.type }, (_, i): TzifType => {
    const idx = buf[typesAt + i * 6 + 5]!;
    return {
      offset: buf.readInt32BE(typesAt + i * 6),
      isDst: buf[typesAt + i * 6 + 4] === 1,
      abbr: buf.toString('latin1', charsAt + idx, buf.indexOf(0, charsAt + idx)),
    };
  });
  const footerAt = at + v1Size(h, timeSize);
  const footer = timeSize === 8 ? buf.toString('latin1', footerAt + 1, buf.indexOf(0x0a, footerAt + 1)) : '';
  return { times, typeIdx, types, footer };
}

/** Parses a TZif file into its names: footer (current rules) first, then the types of the transitions, newest first. */
export function parseTzif(buf: Buffer): ZoneNames {
  const { typeIdx, types, footer } = readTzif(buf);
  const names: Array<readonly [number, string]> = footerNames(footer);
  for (let i = typeIdx.length - 1; i >= 0; i--) {
    const t = types[typeIdx[i]!]!;
    names.push([t.offset, t.abbr]);
  }
  names.push(...types.map((t) => [t.offset, t.abbr] as const));
  return names;
}

/** The file of an IANA zone name under the zoneinfo folder, or `null` when the name is not a plain zone path or unreadable. */
export function readZoneFile(canonicalZone: string): Buffer | null {
  if (!/^[A-Za-z0-9_+\-/]+$/.test(canonicalZone) || canonicalZone.includes('..')) return null;
  try {
    return readFileSync(join(zoneinfoDir, canonicalZone));
  } catch {
    return null;
  }
}

/** The zone's names from the zoneinfo folder (config `zoneinfoDir`); `null` when it has no readable file for it. */
export function zoneNames(canonicalZone: string): ZoneNames | null {
  let names = cache.get(canonicalZone);
  if (names === undefined) {
    const file = readZoneFile(canonicalZone);
    try {
      names = file === null ? null : parseTzif(file);
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
