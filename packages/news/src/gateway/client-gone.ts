import type { ServerResponse } from 'node:http';

/**
 * A signal that aborts when the HTTP client goes away before its response is sent, so the worker can stop
 * computing an answer nobody reads. One listener on the response, gone with it.
 * @example await ctx.worker.call(request, deadline, undefined, clientGone(reply.raw));
 */
export function clientGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
