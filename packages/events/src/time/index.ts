export { parseDateTime } from './strtotime.ts';
export { isValidZone, offsetMinutes, utcToWall, wallToUtc, zoneAbbr, isoWithOffset } from './zone.ts';
export {
  formatWall,
  parseWall,
  makeWall,
  wallToEpoch,
  wallFromEpoch,
  startOfDay,
  endOfDay,
  wallDetails,
} from './wall.ts';
export type { Wall } from './wall.ts';

/** Injected source of "now", so tests can fix the date window. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
export { STORABLE_RANGE, isStorableInstant, readStoredWall, shownStoredDate } from './range.ts';
export { useZoneinfoDir } from './tzif.ts';
export { singleFlight } from './single-flight.ts';
