export { venueKind } from './venue.kind.ts';
