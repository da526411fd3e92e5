import type { Caller } from '../http/route.ts';

/** Statuses WordPress registers (plus TEC's `tribe-ignored`); anything else is a 400 on writes. */
export const REGISTERED_STATUSES = new Set([
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
  'tribe-ignored',
]);

/** What `status=any` means: every status but trash and auto-draft. */
export const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/**
 * §3.3: users who can publish get what they asked for (publish when nothing was asked);
 * others get `pending` for publish/future, their choice otherwise, `draft` when nothing was asked.
 */
export function scaleStatus(requested: string | undefined, caller: Caller): string {
  if (caller.can('publish')) return requested ?? 'publish';
  if (requested === undefined) return 'draft';
  return requested === 'publish' || requested === 'future' ? 'pending' : requested;
}

export interface OwnedPost {
  author: number;
  status: string;
}

type Action = 'edit' | 'delete';

/** WordPress map_meta_cap for edit_post / delete_post on one post. */
export function canModify(caller: Caller | null, post: OwnedPost, action: Action): boolean {
  if (!caller) return false;
  if (post.author !== caller.id && !caller.can(`${action}_others`)) return false;
  if (post.status === 'publish' || post.status === 'future') return caller.can(`${action}_published`);
  if (post.status === 'private') return caller.can(`${action}_private`);
  return caller.can(action);
}

/** read_post: public posts for all; private needs read_private or ownership; others need edit rights on the post. */
export function canRead(caller: Caller | null, post: OwnedPost): boolean {
  if (post.status === 'publish') return true;
  if (!caller) return false;
  if (post.status === 'private') return caller.can('read_private') || post.author === caller.id;
  return canModify(caller, post, 'edit');
}
