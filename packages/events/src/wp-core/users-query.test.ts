import { describe, expect, it } from 'vitest';
import type { UserRow } from '../user/index.ts';
import { queryUsers, type UsersQuery } from './users-query.ts';

const row = (id: number, login: string, email: string, role = 'author'): UserRow => ({
  id,
  login,
  email,
  display_name: login,
  role,
  created_gmt: `2026-01-0${id} 00:00:00`,
  url: '',
});
const USERS = [row(1, 'Zoe', 'zoe@example.com'), row(2, 'adam.b', 'adam@other.org'), row(3, 'émile', 'e@example.com')];
const Q: UsersQuery = {
  listUsers: false,
  include: [],
  exclude: [],
  authorsOnly: false,
  orderby: 'name',
  order: 'asc',
  offset: 0,
  perPage: 10,
};
const ids = (q: Partial<UsersQuery>) => queryUsers(USERS, { ...Q, ...q }).items.map((u) => u.id);

describe('queryUsers', () => {
  it('orders names ignoring case and accents, as MySQL collation does', () => {
    expect(ids({})).toEqual([2, 3, 1]);
    expect(ids({ order: 'desc' })).toEqual([1, 3, 2]);
  });

  it('searches e-mails only for callers who may list users', () => {
    expect(ids({ search: '*example*' })).toEqual([]);
    expect(ids({ search: '*example*', listUsers: true })).toEqual([3, 1]);
    expect(ids({ search: '*@other.org', listUsers: true })).toEqual([2]);
    // The slug is searched too: `adam.b` is `adam-b`.
    expect(ids({ search: '*adam-b*' })).toEqual([2]);
    expect(ids({ search: '2' })).toEqual([2]);
  });

  it('counts every match and returns the page asked for', () => {
    const page = queryUsers(USERS, { ...Q, offset: 1, perPage: 1 });
    expect(page).toMatchObject({ total: 3, items: [{ id: 3 }] });
    expect(ids({ publishedAuthors: new Set([1]) })).toEqual([1]);
  });
});
