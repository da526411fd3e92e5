import { V2Error } from './errors.ts';

/** Runs `fn` and returns the V2Error it throws; fails the test when it throws nothing or something else. */
export function errorOf(fn: () => unknown): V2Error {
  try {
    fn();
  } catch (e) {
    if (e instanceof V2Error) return e;
    throw e;
  }
  throw new Error('expected a V2Error, nothing was thrown');
}

/** `errorOf` for a domain function that answers with a promise: the V2Error it rejects with (or throws). */
export async function rejectionOf(fn: () => unknown): Promise<V2Error> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof V2Error) return e;
    throw e;
  }
  throw new Error('expected a V2Error, nothing was thrown');
}
