/**
 * `user_nicename` as `wp_insert_user` derives it from the login (`sanitize_title`): lower case, dots to dashes,
 * other characters outside `a-z0-9_-` dropped, dashes collapsed and trimmed.
 * @example userSlug('Jane.Doe@Example') // 'jane-doeexample'
 */
export function userSlug(login: string): string {
  return login
    .slice(0, 50)
    .toLowerCase()
    .replace(/\./g, '-')
    .replace(/[^a-z0-9_-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}
