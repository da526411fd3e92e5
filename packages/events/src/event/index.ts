export { eventService } from './event.service.ts';
export type { EventService } from './event.service.ts';
export { eventRoutes } from './event.routes.ts';
export { eventRepository } from './event.repository.ts';
export { findBadStoredDates, reportBadStoredDates } from './stored-dates.ts';
export { eventListFilter } from './list-filter.ts';
export { eventListArgs, eventWriteArgs } from './event.args.ts';
export type { EventListParams } from './event.args.ts';
