import { createHash } from 'node:crypto';

/** The sizes WordPress's REST API reports (`rest_get_avatar_sizes`). */
const AVATAR_SIZES = [24, 48, 96] as const;

/**
 * `avatar_urls` as WordPress 6.8+ builds them: Gravatar's SHA-256 of the trimmed, lower-cased e-mail, the mystery
 * person as default and rating G. A user without an e-mail gets the hash-less URL WordPress gives then.
 * @example avatarUrls('admin@example.com')['24'] // 'https://secure.gravatar.com/avatar/258d8d…?s=24&d=mm&r=g'
 */
export function avatarUrls(email: string): Record<string, string> {
  const trimmed = email.trim().toLowerCase();
  const hash = trimmed === '' ? '' : createHash('sha256').update(trimmed).digest('hex');
  return Object.fromEntries(
    AVATAR_SIZES.map((s) => [String(s), `https://secure.gravatar.com/avatar/${hash}?s=${s}&d=mm&r=g`]),
  );
}
