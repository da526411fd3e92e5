export { userService, UserError, toCaller, isLogin } from './user.service.ts';
export type { UserService } from './user.service.ts';
export { ROLES, isRole } from './roles.ts';
export type { Role } from './roles.ts';
export { storeAttemptCounter, attemptBuckets } from './login-attempts.ts';
export type { UserRow } from './user.repository.ts';
export { userSlug } from './user-slug.ts';
