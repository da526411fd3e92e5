import { describe, expect, it } from 'vitest';
import { post, useFixtureStack } from './gateway-harness.ts';
import { FIXTURE, bruteCount } from './gateway-fixture.ts';

const { url } = useFixtureStack(FIXTURE, 'fixture-v1');
const count = (body: unknown) => post(url('/api/v1/count'), body);
const ok = { query: 'alpha beta', index: 'news' };

describe('POST /api/v1/count answers', () => {
  it('the number of overlapping occurrences over all shards', async () => {
    const expected = FIXTURE.reduce((n, a) => n + bruteCount(Buffer.from(a.text), Buffer.from('alpha beta')), 0);
    const r = await count(ok);
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(expected);
    expect(typeof r.body.latency_ms).toBe('number');
  });

  it('only the shards whose year lies in [year_min, year_max]', async () => {
    expect((await count({ ...ok, year_min: 2019, year_max: 2019 })).body.count).toBe(3);
    expect((await count({ ...ok, year_min: 2020 })).body.count).toBe(300);
    expect((await count({ ...ok, year_max: 2019 })).body.count).toBe(3);
  });

  it('the indexed text bytes for the empty query', async () => {
    const bytes = FIXTURE.reduce((n, a) => n + Buffer.byteLength(a.text), 0);
    expect((await count({ query: '', index: 'news' })).body.count).toBe(bytes);
  });

  it('200 for a 10,000-character query and string_too_long for 10,001', async () => {
    expect((await count({ ...ok, query: 'q'.repeat(10_000) })).status).toBe(200);
    const r = await count({ ...ok, query: 'q'.repeat(10_001) });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      {
        type: 'string_too_long',
        loc: ['body', 'query'],
        msg: 'String should have at most 10000 characters',
        input: 'q'.repeat(10_001),
        ctx: { max_length: 10_000 },
      },
    ]);
  });

  it('query length in code points as Python counts them, not UTF-16 units', async () => {
    expect((await count({ ...ok, query: '😀'.repeat(10_000) })).status).toBe(200);
    expect((await count({ ...ok, query: '😀'.repeat(10_001) })).body.detail[0].type).toBe('string_too_long');
  });

  it('string_too_long for a 101-character index; a 100-character one passes the bound and is unknown', async () => {
    const at = await count({ ...ok, index: 'a'.repeat(100) });
    expect(at.status).toBe(422);
    expect(at.body.detail[0].type).toBe('literal_error');
    const over = await count({ ...ok, index: 'a'.repeat(101) });
    expect(over.body.detail[0]).toMatchObject({
      type: 'string_too_long',
      loc: ['body', 'index'],
      ctx: { max_length: 100 },
    });
  });

  it('string_pattern_mismatch for an index outside ^[a-z0-9_]+$', async () => {
    for (const index of ['News', '', 'a-b', 'ü']) {
      const r = await count({ ...ok, index });
      expect(r.status).toBe(422);
      expect(r.body.detail).toEqual([
        {
          type: 'string_pattern_mismatch',
          loc: ['body', 'index'],
          msg: "String should match pattern '^[a-z0-9_]+$'",
          input: index,
          ctx: { pattern: '^[a-z0-9_]+$' },
        },
      ]);
    }
  });

  it('422 on ["body","index"] for an unknown index, naming the available ones', async () => {
    const r = await count({ ...ok, index: 'nope' });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      {
        type: 'literal_error',
        loc: ['body', 'index'],
        msg: "Input should be 'news'",
        input: 'nope',
        ctx: { expected: "'news'" },
      },
    ]);
  });

  it('200 at the year bounds 1900 and 2200 and 422 just outside them', async () => {
    for (const field of ['year_min', 'year_max'] as const) {
      const other = field === 'year_min' ? { year_max: 2200 } : { year_min: 1900 };
      expect((await count({ ...ok, ...other, [field]: field === 'year_min' ? 1900 : 2200 })).status).toBe(200);
      const low = await count({ ...ok, [field]: 1899 });
      expect(low.body.detail).toEqual([
        {
          type: 'greater_than_equal',
          loc: ['body', field],
          msg: 'Input should be greater than or equal to 1900',
          input: 1899,
          ctx: { ge: 1900 },
        },
      ]);
      const high = await count({ ...ok, [field]: 2201 });
      expect(high.body.detail).toEqual([
        {
          type: 'less_than_equal',
          loc: ['body', field],
          msg: 'Input should be less than or equal to 2200',
          input: 2201,
          ctx: { le: 2200 },
        },
      ]);
    }
  });

  it('null or omitted years as no bound', async () => {
    const all = (await count(ok)).body.count;
    expect((await count({ ...ok, year_min: null, year_max: null })).body.count).toBe(all);
  });

  it('422 value_error on ["body"] when year_min > year_max, and 200 when equal', async () => {
    const body = { ...ok, year_min: 2021, year_max: 2020 };
    const r = await count(body);
    expect(r.status).toBe(422);
    expect(r.body.detail).toHaveLength(1);
    expect(r.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body'], input: body });
    expect(r.body.detail[0].msg).toMatch(/^Value error, year_min/);
    expect((await count({ ...ok, year_min: 2020, year_max: 2020 })).status).toBe(200);
  });

  it('integers in pydantic lax mode: numeric strings and integral floats pass, others fail with pydantic types', async () => {
    expect((await count({ ...ok, year_min: '2019', year_max: 2019.0 })).body.count).toBe(3);
    const cases: [unknown, string, string][] = [
      ['abc', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
      [2019.5, 'int_from_float', 'Input should be a valid integer, got a number with a fractional part'],
      [[2019], 'int_type', 'Input should be a valid integer'],
      [{}, 'int_type', 'Input should be a valid integer'],
    ];
    for (const [input, type, msg] of cases) {
      expect((await count({ ...ok, year_min: input })).body.detail).toEqual([
        { type, loc: ['body', 'year_min'], msg, input },
      ]);
    }
  });

  it('finite_number for an integer field given a number beyond float range', async () => {
    const r = await post(url('/api/v1/count'), Buffer.from('{"query":"a","index":"news","year_min":1e400}'));
    expect(r.body.detail[0]).toMatchObject({
      type: 'finite_number',
      loc: ['body', 'year_min'],
      msg: 'Input should be a finite number',
    });
  });

  it('string_type for a non-string query or index', async () => {
    const r = await count({ query: 5, index: null });
    expect(r.body.detail).toEqual([
      { type: 'string_type', loc: ['body', 'query'], msg: 'Input should be a valid string', input: 5 },
      { type: 'string_type', loc: ['body', 'index'], msg: 'Input should be a valid string', input: null },
    ]);
  });

  it('missing for each absent required field, with the body as input', async () => {
    const r = await count({ year_min: 2019 });
    expect(r.body.detail).toEqual([
      { type: 'missing', loc: ['body', 'query'], msg: 'Field required', input: { year_min: 2019 } },
      { type: 'missing', loc: ['body', 'index'], msg: 'Field required', input: { year_min: 2019 } },
    ]);
  });

  it('200 with unknown extra fields ignored, as FastAPI does by default', async () => {
    expect((await count({ ...ok, unknown_field: [1, 2], query_type: 'count' })).status).toBe(200);
  });

  it('string_unicode for a lone surrogate', async () => {
    const r = await post(url('/api/v1/count'), Buffer.from('{"query":"a\\ud800b","index":"news"}'));
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({
      type: 'string_unicode',
      loc: ['body', 'query'],
      msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
    });
  });

  it('json_invalid with the character position and Python json message for malformed JSON', async () => {
    const r = await post(url('/api/v1/count'), Buffer.from('{"query":"ü",'));
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      {
        type: 'json_invalid',
        loc: ['body', 13],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting property name enclosed in double quotes' },
      },
    ]);
    const open = await post(url('/api/v1/count'), Buffer.from('{"query":"abc'));
    expect(open.body.detail[0]).toMatchObject({
      type: 'json_invalid',
      loc: ['body', 9],
      ctx: { error: 'Unterminated string starting at' },
    });
    const extra = await post(url('/api/v1/count'), Buffer.from('{} x'));
    expect(extra.body.detail[0]).toMatchObject({
      type: 'json_invalid',
      loc: ['body', 3],
      ctx: { error: 'Extra data' },
    });
  });

  it('model_attributes_type for a JSON body that is not an object', async () => {
    for (const body of [[1], 'text', 7, true]) {
      const r = await count(body);
      expect(r.status).toBe(422);
      expect(r.body.detail).toEqual([
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: body,
        },
      ]);
    }
  });

  it('missing on ["body"] for an empty or null body', async () => {
    for (const raw of ['', 'null']) {
      const r = await post(url('/api/v1/count'), Buffer.from(raw));
      expect(r.status).toBe(422);
      expect(r.body.detail).toEqual([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    }
  });

  it('model_attributes_type for a non-JSON content type, and JSON parsing without one or with +json', async () => {
    const text = await post(url('/api/v1/count'), JSON.stringify(ok), 'text/plain');
    expect(text.status).toBe(422);
    expect(text.body.detail[0]).toMatchObject({
      type: 'model_attributes_type',
      loc: ['body'],
      input: JSON.stringify(ok),
    });
    expect((await post(url('/api/v1/count'), Buffer.from(JSON.stringify(ok)), null)).status).toBe(200);
    expect((await post(url('/api/v1/count'), JSON.stringify(ok), 'application/vnd.api+json')).status).toBe(200);
  });

  it('400 for a body that is not UTF-8, as FastAPI does', async () => {
    const r = await post(url('/api/v1/count'), Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('There was an error parsing the body');
  });
});

describe('POST /api/v1/find answers', () => {
  const find = (body: unknown) => post(url('/api/v1/find'), body);

  it('string_too_short for the empty query and 200 for one character', async () => {
    const r = await find({ query: '', index: 'news' });
    expect(r.body.detail).toEqual([
      {
        type: 'string_too_short',
        loc: ['body', 'query'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
    ]);
    expect((await find({ query: 'a', index: 'news' })).status).toBe(200);
  });

  it('one interval per shard in the year range, chronological, with shard_years aligned', async () => {
    const r = await find({ ...ok, year_min: 2019, year_max: 2020 });
    expect(r.status).toBe(200);
    expect(r.body.shard_years).toEqual(['2019', '2019', '2020']);
    expect(r.body.segment_by_shard).toHaveLength(3);
    const sizes = r.body.segment_by_shard.map(([lo, hi]: [number, number]) => hi - lo);
    expect(sizes).toEqual([3, 0, 300]);
    expect(r.body.count).toBe(303);
  });

  it('an empty list when no shard lies in the year range', async () => {
    const r = await find({ ...ok, year_min: 1950, year_max: 1960 });
    expect(r.body).toMatchObject({ count: 0, segment_by_shard: [], shard_years: [] });
  });
});
