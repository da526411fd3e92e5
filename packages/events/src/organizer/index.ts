export { organizerKind } from './organizer.kind.ts';
