import { describe, expect, it } from 'vitest';
import { userSlug } from './user-slug.ts';

describe('userSlug', () => {
  it('derives user_nicename from a login as sanitize_title does', () => {
    expect(userSlug('admin')).toBe('admin');
    expect(userSlug('Jane.Doe')).toBe('jane-doe');
    expect(userSlug('ops@example.org')).toBe('opsexample-org');
    expect(userSlug('-a..b_c-')).toBe('a-b_c');
  });
});
