// The benchmark's yardstick: a trivial Fastify route that returns a JSON body of the size the service sends, so
// results on a shared, noisy machine can be read as a ratio to what plain Fastify does on it at that moment.
// Usage: node --import tsx bench/baseline-server.ts PORT BODY_FILE…  (serves each body at /0, /1, …)
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, ...files] = process.argv.slice(2);
const bodies: unknown[] = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as unknown);
const app = Fastify({ logger: false });
// The object is serialised on every request, as a handler returning fresh data would be.
app.get('/:n', async (req) => bodies[Number((req.params as { n: string }).n)] ?? {});
await app.listen({ port: Number(port), host: '127.0.0.1' });
