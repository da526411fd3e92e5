import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from './errors.ts';

/**
 * What Fastify or Node refuse before a route runs, as the WordPress error envelope: the body limit is 413
 * `rest_payload_too_large`, a URL that does not decode (`%ff`) and any other client error 400 `rest_bad_request`.
 */
export function frameworkError(err: { code?: string; statusCode?: number }): ApiError | undefined {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new ApiError('rest_payload_too_large', 'The request body is too large.');
  if (err.code === 'FST_ERR_BAD_URL') return new ApiError('rest_bad_request', 'The request URL could not be read.');
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError('rest_bad_request', 'The request could not be read.');
  }
  return undefined;
}

/**
 * Node's `clientError` (a request that is not HTTP enough to reach Fastify: broken request line, headers too large,
 * timeouts) answered with the envelope on the raw socket, as Fastify's default handler does with its own body.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(new ApiError('rest_bad_request', 'The request could not be read.', {}, status).toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=UTF-8\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
