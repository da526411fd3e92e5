// Seeds a store with the code of another checkout (its migrations, its seed), for bench/ab-compare.ts:
// node --import tsx bench/ab-seed.ts TREE DB_URL → prints the seeded event ids as JSON on the last line.
export {};

const [tree, url] = process.argv.slice(2) as [string, string];
const events = `${tree}/packages/events`;
const { openStore } = await import(`${events}/src/db/index.ts`);
const { userService } = await import(`${events}/src/user/index.ts`);
const { seed } = await import(`${events}/bench/seed.ts`);
const store = await openStore(url);
const { id } = await userService(store.db).add('bench', 'administrator', { appPassword: 'bench-password-1' });
const { eventIds } = await seed(store.db, id, Date.now(), {
  events: 10_000,
  venues: 500,
  organizers: 300,
  categories: 20,
  tags: 50,
});
await store.close();
console.log(JSON.stringify(eventIds));
