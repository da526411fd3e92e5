import { describe, expect, it } from 'vitest';
import {
  decodeBudget,
  decodeEnvelope,
  encodeEnvelope,
  ProtocolError,
  PROTOCOL_VERSION,
  type WorkerRequest,
} from '../src/protocol/index.ts';

describe('gateway⇄worker protocol', () => {
  it('round-trips every request kind through its JSON envelope', () => {
    const requests: WorkerRequest[] = [
      { kind: 'identity' },
      { kind: 'count', index: 'news', query: 'ä😀', yearMin: null, yearMax: 2020 },
      { kind: 'find', index: 'news', query: 'x', yearMin: 1990, yearMax: null },
      { kind: 'get_doc', index: 'news', query: 'x', yearMin: null, yearMax: null, s: 2, rank: 17, maxCtxLen: 1000 },
    ];
    for (const r of requests) expect(decodeEnvelope(JSON.parse(encodeEnvelope(r)))).toEqual(r);
  });

  it('refuses another protocol version, an unknown kind and malformed fields', () => {
    const bad: unknown[] = [
      null,
      [],
      { protocol: PROTOCOL_VERSION + 1, request: { kind: 'identity' } },
      { protocol: PROTOCOL_VERSION, request: { kind: 'delete_everything' } },
      { protocol: PROTOCOL_VERSION, request: { kind: 'count', index: 'news', query: 5 } },
      {
        protocol: PROTOCOL_VERSION,
        request: { kind: 'get_doc', index: 'news', query: 'x', s: -1, rank: 0, maxCtxLen: 1 },
      },
      {
        protocol: PROTOCOL_VERSION,
        request: { kind: 'get_doc', index: 'news', query: 'x', s: 0, rank: 0.5, maxCtxLen: 1 },
      },
      { protocol: PROTOCOL_VERSION, request: { kind: 'find', index: 'news', query: 'x', yearMin: '1990' } },
    ];
    for (const b of bad) expect(() => decodeEnvelope(b)).toThrowError(ProtocolError);
  });

  it('carries the time budget of a call, none when absent, and refuses a negative or non-numeric one', () => {
    const request: WorkerRequest = { kind: 'identity' };
    expect(decodeBudget(JSON.parse(encodeEnvelope(request, undefined, 1500)))).toBe(1500);
    expect(decodeBudget(JSON.parse(encodeEnvelope(request)))).toBe(Infinity);
    for (const budgetMs of [-1, '1500', null]) {
      expect(() => decodeBudget({ protocol: PROTOCOL_VERSION, request, budgetMs })).toThrowError(ProtocolError);
    }
  });
});
