import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { INPUT_LIMITS, parseNestedParams, parseQueryParams, queryError } from './nested-params.ts';
import { ApiError } from './errors.ts';

describe('parseNestedParams', () => {
  it('reads PHP-style lists and objects', () => {
    expect({ ...parseNestedParams('a[]=1&a[]=2&venue[city]=Rome&venue[zip]=00100&x=1&x=2') }).toEqual({
      a: ['1', '2'],
      venue: { city: 'Rome', zip: '00100' },
      x: '2',
    });
  });
  it('decodes plus and percent escapes', () => {
    expect(parseNestedParams('search=foo+bar%21').search).toBe('foo bar!');
  });
  it('ignores prototype keys', () => {
    const out = parseNestedParams('__proto__[x]=1&a[__proto__]=2');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    // The whole pair is dropped, so no empty `a` is left behind.
    expect(Object.keys(out)).toEqual([]);
  });
  it('keeps every plain key-value pair it is given', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), fc.string()), (dict) => {
        const qs = new URLSearchParams(dict).toString();
        expect({ ...parseNestedParams(qs) }).toEqual(dict);
      }),
    );
  });
});

describe('parseNestedParams lists', () => {
  it('turns 0..n-1 keyed maps into lists', () => {
    expect(parseNestedParams('o[0][organizer]=A&o[1][id]=5').o).toEqual([{ organizer: 'A' }, { id: '5' }]);
  });
});

/**
 * The parser's own cost: CPU time (not time spent waiting for a core on a shared machine; vitest runs each test
 * file in its own process), the fastest of a few runs of each, the runs interleaved so both see the same machine.
 */
function fastestCpuMs(runs: readonly (() => void)[], times = 9): number[] {
  const best = runs.map(() => Infinity);
  for (let i = 0; i < times; i++) {
    runs.forEach((run, r) => {
      const before = process.cpuUsage();
      run();
      const used = process.cpuUsage(before);
      best[r] = Math.min(best[r]!, (used.user + used.system) / 1000);
    });
  }
  return best;
}

/**
 * The largest bodies within the limits (scale 1: up to 1,000 variables in a 1 MiB body, EVENTS_BODY_LIMIT's default),
 * and the same shapes at a quarter of that size.
 */
const WORST_BODIES: Record<string, (scale: number) => string> = {
  // Empty pairs are not variables; they must not make any scan quadratic.
  empties: (k) => `${'&'.repeat(k * 1024 * 1024 - 8)}x[a]=1`,
  appends: (k) => `x[k]=1&${'x[]=1&'.repeat(k * INPUT_LIMITS.maxVars - 1)}`,
  deep: (k) =>
    Array.from({ length: k * INPUT_LIMITS.maxVars }, (_, i) => `d${i}${'[]'.repeat(INPUT_LIMITS.maxDepth)}=1`).join(
      '&',
    ),
  long: (k) =>
    Array.from(
      { length: k * INPUT_LIMITS.maxVars },
      (_, i) => `k${i}${`[${'s'.repeat(13)}]`.repeat(INPUT_LIMITS.maxDepth)}=${'%41'.repeat(15)}`,
    ).join('&'),
};

describe('parseNestedParams limits', () => {
  it('parses the worst bodies within the limits in linear time (4× the body costs under 10× the CPU)', () => {
    for (const [name, body] of Object.entries(WORST_BODIES)) {
      const full = body(1);
      const quarter = body(0.25);
      expect(full.length, name).toBeLessThanOrEqual(1024 * 1024);
      expect(Object.keys(parseNestedParams(full)).length, name).toBeGreaterThan(0);
      // A guard against the quadratic parser of issue 16 (a 240 KB body froze it for seconds), as a ratio so a busy
      // host slows both sides alike: linear work grows 4×, quadratic 16×.
      const [big, small] = fastestCpuMs([() => parseNestedParams(full), () => parseNestedParams(quarter)]);
      expect(big! / small!, name).toBeLessThan(10);
    }
    expect((parseNestedParams(WORST_BODIES.appends!(1)).x as Record<string, string>)['998']).toBe('1');
  });

  it('refuses the 1,001st variable with a 400 naming max_input_vars', () => {
    expect(Object.keys(parseNestedParams('a=1&'.repeat(1000) + '&&')).length).toBe(1);
    try {
      parseNestedParams('x[]=1&'.repeat(1001));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).toBody()).toMatchObject({
        code: 'rest_bad_request',
        data: { status: 400, limit: 'max_input_vars', max: 1000 },
      });
    }
  });

  it('refuses keys nested deeper than 64 levels, even 10,000 deep, with a 400 naming max_input_nesting_level', () => {
    expect(parseNestedParams(`a${'[b]'.repeat(64)}=1`).a).toBeTypeOf('object');
    for (const depth of [65, 10_000]) {
      expect(() => parseNestedParams(`a${'[]'.repeat(depth)}=1`)).toThrow(/max_input_nesting_level is 64/);
    }
  });

  it('hands query-string errors to the handler instead of throwing', () => {
    const q = parseQueryParams(`a${'[b]'.repeat(10_000)}=1`);
    expect(Object.keys(q)).toEqual([]);
    expect(queryError(q)?.status).toBe(400);
    expect(queryError(parseQueryParams('a=1'))).toBeUndefined();
  });
});

/** Naive PHP reference for one list key: appends take max(integer keys)+1, named keys overwrite. */
function naiveList(ops: ReadonlyArray<string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  ops.forEach((key, i) => {
    const ints = Object.keys(out)
      .filter((k) => /^(0|[1-9]\d*)$/.test(k))
      .map(Number);
    out[key ?? String(ints.length ? Math.max(...ints) + 1 : 0)] = String(i);
  });
  return out;
}

describe('parseNestedParams appends', () => {
  it('appends after the largest integer key, as PHP does, for any mix of named and appended keys', () => {
    const key = fc.option(fc.oneof(fc.constantFrom('0', '1', '3', '7'), fc.stringMatching(/^[a-z]{1,3}$/)), {
      nil: undefined,
    });
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 30 }), (ops) => {
        const body = ops.map((k, i) => `x[${k ?? ''}]=${i}`).join('&');
        const got = parseNestedParams(body).x;
        expect({ ...(got as Record<string, string>) }).toEqual(naiveList(ops));
      }),
    );
  });
});
