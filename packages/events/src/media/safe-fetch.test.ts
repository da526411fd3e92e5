import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSafeFetchOptions, isPublicAddress, safeFetch } from './safe-fetch.ts';

describe('safeFetch', () => {
  let server: Server;
  let base: string;
  const local = { ...defaultSafeFetchOptions, allowPrivateHosts: true, maxBytes: 1000, timeoutMs: 300 };
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') return res.end(Buffer.alloc(1000, 1));
      if (req.url === '/declared') return res.writeHead(200, { 'content-length': 5000 }).end(Buffer.alloc(5000));
      // No length announced: the body is cut off once it passes the cap.
      if (req.url === '/chunked') {
        res.write(Buffer.alloc(800));
        res.write(Buffer.alloc(800));
        return res.end();
      }
      if (req.url?.startsWith('/hop'))
        return res.writeHead(302, { location: `/hop${Number(req.url.slice(4)) + 1}` }).end();
      if (req.url === '/silent') return; // never answers
      if (req.url === '/echo') return res.end(req.headers.authorization ?? 'none');
      if (req.url === '/same') return res.writeHead(302, { location: '/echo' }).end();
      if (req.url === '/away')
        return res.writeHead(302, { location: `${base.replace('127.0.0.1', 'localhost')}/echo` }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('reads a body of exactly the limit', async () => {
    expect((await safeFetch(`${base}/ok`, local)).length).toBe(1000);
  });
  it('refuses bodies over the limit, announced or not', async () => {
    await expect(safeFetch(`${base}/declared`, local)).rejects.toThrow(/larger than the limit/);
    await expect(safeFetch(`${base}/chunked`, local)).rejects.toThrow(/larger than the limit/);
  });
  it('follows at most five redirects', async () => {
    await expect(safeFetch(`${base}/hop0`, local)).rejects.toThrow(/too many redirects/);
  });
  it('sends extra headers to the first origin only: a redirect to another host does not get the credentials', async () => {
    const auth = { ...local, headers: { authorization: 'Basic c2VjcmV0' } };
    expect((await safeFetch(`${base}/echo`, auth)).toString()).toBe('Basic c2VjcmV0');
    expect((await safeFetch(`${base}/same`, auth)).toString()).toBe('Basic c2VjcmV0');
    expect((await safeFetch(`${base}/away`, auth)).toString()).toBe('none');
  });
  it('tells the status of a refusal', async () => {
    await expect(safeFetch(`${base}/missing`, local)).rejects.toMatchObject({ status: 404 });
  });
  it('gives up after the time limit', async () => {
    await expect(safeFetch(`${base}/silent`, local)).rejects.toThrow(/in time/);
  });
  it('refuses schemes, ports and addresses WordPress refuses, including names that resolve to loopback', async () => {
    // Refusals come as soon as the name resolves; a long limit keeps a slow resolver on a busy machine out of it.
    const strict = { ...local, allowPrivateHosts: false, timeoutMs: 10_000 };
    await expect(safeFetch('ftp://example.test/a.png', strict)).rejects.toThrow(/http and https/);
    await expect(safeFetch('http://example.test:9000/a.png', strict)).rejects.toThrow(/ports/);
    await expect(safeFetch('http://127.0.0.1/a.png', strict)).rejects.toThrow(/not public/);
    await expect(safeFetch('http://localhost:8080/a.png', strict)).rejects.toThrow(/non-public/);
  });
  it('classifies addresses as WordPress and RFC 6890 do', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ]) {
      expect([ip, isPublicAddress(ip)]).toEqual([ip, false]);
    }
    for (const ip of ['93.184.216.34', '172.32.0.1', '2606:4700::1111'])
      expect([ip, isPublicAddress(ip)]).toEqual([ip, true]);
  });
});
