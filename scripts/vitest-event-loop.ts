/**
 * Setup file of every test project: after each test the worker's event loop turns once.
 *
 * Why: a Vitest 3 worker reports progress to its parent by RPC and times the answer out after 60 s. The answer is
 * read in the event loop's poll phase, the timeout fires in its timers phase, and the timers phase comes first: when
 * a file runs tests that never wait on I/O or timers (a brute-force check over real corpora, all in memory), the
 * loop does not turn from one test to the next, the answer sits unread, and once 60 s have passed the timeout wins
 * and fails the run although every test passed ("[vitest-worker]: Timeout calling onTaskUpdate"; measured: one such
 * file kept its worker's loop blocked for 91 s). One turn per test bounds that to the longest single test.
 */
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
