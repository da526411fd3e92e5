export { termService } from './term.service.ts';
export type { TermService } from './term.service.ts';
export { termRoutes } from './term.routes.ts';
export { formatTerm, formatEventTerm } from './term.format.ts';
export type { TermWithCount } from './term.repository.ts';
export { termRepository } from './term.repository.ts';
