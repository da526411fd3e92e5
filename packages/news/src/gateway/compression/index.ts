import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';
import type { CompressionSettings } from '../config/index.ts';

/**
 * Response compression of the gateway's dynamic answers (JSON, HTML pages) by `Accept-Encoding`: brotli, else
 * gzip, with the settings of `COMPRESSION_DEFAULTS` (config). Static client assets are compressed once at
 * start-up instead (client-assets.ts) and carry their own Content-Encoding, which this hook leaves alone.
 * Registers the compression hook. It works through an `onRoute` hook, so it must be registered before the routes
 * it should cover: buildGatewayApp registers routes in a plugin registered after this one.
 */
export function registerCompression(app: FastifyInstance, settings: CompressionSettings): void {
  if (!settings.enabled) return;
  app.register(compress, {
    global: true,
    // Request bodies are small JSON objects read raw; compressed request bodies are not part of the API.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: settings.thresholdBytes,
    customTypes: /^(?:application\/json|text\/(?:html|css|plain|javascript)|image\/svg\+xml)\b/,
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: settings.brotliQuality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: settings.gzipLevel },
  });
}
