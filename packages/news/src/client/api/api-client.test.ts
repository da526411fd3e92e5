import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonServer } from './json-server.fixture.ts';
import {
  ApiClient,
  PAGE_CALL_SLOTS,
  StaleReleaseError,
  describeErrorBody,
  retryAfterSeconds,
  type ApiError,
} from './api-client.ts';

let close = async () => {};
let estimateCalls = 0;
let inFlight = 0;
let peakInFlight = 0;
let base: string;
const bodies: unknown[] = [];

beforeAll(async () => {
  ({ base, close } = await startJsonServer((path, body, reply) => {
    bodies.push(body);
    if (path === '/api/v2/documents') {
      return reply(409, {
        detail: 'The corpus release changed.',
        code: 'stale_index_version',
        expected_index_version: body?.['expected_index_version'],
        index_version: 'v2',
      });
    }
    if (path === '/api/v2/estimate') {
      // Refused twice as the gateway does when this address has too many expensive calls under way.
      if (++estimateCalls <= 2)
        return reply(
          429,
          { detail: 'This client already has 6 expensive calls under way.', code: 'rate_limited' },
          { 'retry-after': '0' },
        );
      return reply(200, { index_version: 'v1' });
    }
    if (path === '/api/v2/timeline') {
      peakInFlight = Math.max(peakInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        reply(200, { index_version: 'v1' });
      }, 20);
      return;
    }
    if (path === '/api/v2/get_doc')
      return reply(422, { detail: 'Article is 2,000,000 bytes.', code: 'article_too_large' });
    if (path === '/api/v2/find')
      return reply(422, {
        detail: [{ type: 'string_too_short', loc: ['body', 'query'], msg: 'String should have at least 1 character' }],
      });
    return reply(404, { detail: 'Not Found' });
  }));
});
afterAll(() => close());

const filters = { languages: ['de'], commonlingua_languages: [], topics: [], sources: [], countries: [] };

describe('API client', () => {
  it('turns a 409 stale_index_version into StaleReleaseError with both releases', async () => {
    const api = new ApiClient(base);
    const err = await api
      .documents({ index: 'news', query: 'x', shardId: '2024-01', rankFrom: 0, rankTo: 10, version: 'v1', filters })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaleReleaseError);
    expect([(err as StaleReleaseError).expected, (err as StaleReleaseError).current]).toEqual(['v1', 'v2']);
  });

  it('sends only the filter lists that have values, with the expected release', async () => {
    await new ApiClient(base)
      .documents({ index: 'news', query: 'x', shardId: '2024-01', rankFrom: 0, rankTo: 10, version: 'v1', filters })
      .catch(() => undefined);
    expect(bodies.at(-1)).toEqual({
      index: 'news',
      query: 'x',
      shard_id: '2024-01',
      rank_from: 0,
      rank_to: 10,
      expected_index_version: 'v1',
      languages: ['de'],
    });
  });

  it("keeps the error code and the server's message for other refusals", async () => {
    const api = new ApiClient(base);
    const tooLarge = (await api
      .getDoc({ index: 'news', query: 'x', shardId: '2024-01', rank: 0, version: 'v1', fullText: true })
      .catch((e: unknown) => e)) as ApiError;
    expect([tooLarge.status, tooLarge.code, tooLarge.message]).toEqual([
      422,
      'article_too_large',
      'Article is 2,000,000 bytes.',
    ]);
    const invalid = (await api
      .find({ query: '', index: 'news', yearMin: null, yearMax: null })
      .catch((e: unknown) => e)) as ApiError;
    expect(invalid.message).toBe('query: String should have at least 1 character');
  });

  it('asks the timeline for the share of articles only when told to', async () => {
    const api = new ApiClient(base);
    const search = { query: 'x', index: 'news', yearMin: null, yearMax: null };
    bodies.length = 0;
    await api.timeline(search);
    await api.timeline(search, { share: false });
    await api.timeline(search, { share: true });
    expect(bodies.map((b) => (b as Record<string, unknown>)['share'])).toEqual([undefined, undefined, true]);
  });

  it('reports an unreachable service as a network error', async () => {
    const err = (await new ApiClient('http://127.0.0.1:9').info().catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.code]).toEqual([0, 'network']);
    expect(describeErrorBody(500, null)).toBe('The server answered 500.');
  });
});

describe('expensive calls of one page (issue 29 bug 11)', () => {
  it('asks again after Retry-After when the gateway answers 429, instead of failing the search', async () => {
    const answer = await new ApiClient(base).estimate({
      query: 'x',
      index: 'news',
      yearMin: null,
      yearMax: null,
      filters,
    });
    expect([answer.index_version, estimateCalls]).toEqual(['v1', 3]);
  });

  it(`keeps at most ${PAGE_CALL_SLOTS} of them in flight and answers every one`, async () => {
    const api = new ApiClient(base);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.timeline({ query: 'x', index: 'news', yearMin: null, yearMax: null })),
    );
    expect(answers).toHaveLength(12);
    expect(peakInFlight).toBe(PAGE_CALL_SLOTS);
  });
});

describe('Retry-After', () => {
  it('reads the delta-seconds form and counts a missing or date form as 1 s', () => {
    expect(retryAfterSeconds('2')).toBe(2);
    expect(retryAfterSeconds(' 0 ')).toBe(0);
    expect(retryAfterSeconds(null)).toBe(1);
    expect(retryAfterSeconds('Wed, 21 Oct 2026 07:28:00 GMT')).toBe(1);
  });
});
