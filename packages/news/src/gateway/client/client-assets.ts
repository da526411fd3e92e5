import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** A stored representation of an asset: its bytes and the strong ETag of exactly those bytes. */
export interface AssetVariant {
  readonly body: Buffer;
  readonly etag: string;
}

/** One static file of the browser client, with its content-addressed URL. */
export interface ClientAsset {
  readonly path: string;
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  /** Compressed once at start-up with the slowest, smallest settings (the files never change while running). */
  readonly encoded: { readonly br: AssetVariant; readonly gzip: AssetVariant };
}

export interface ClientAssets {
  readonly index: ClientAsset;
  /** Hashed assets by URL path. */
  readonly files: ReadonlyMap<string, ClientAsset>;
}

const CLIENT_DIR = new URL('../../client/', import.meta.url);

function hashOf(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 16);
}

function encodings(body: Buffer, hash: string): ClientAsset['encoded'] {
  return {
    br: {
      body: brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
      etag: `"${hash}-br"`,
    },
    gzip: { body: gzipSync(body, { level: 9 }), etag: `"${hash}-gz"` },
  };
}

function asset(name: string, ext: string, body: Buffer, contentType: string): ClientAsset {
  const hash = hashOf(body);
  return {
    path: `/assets/${name}.${hash}.${ext}`,
    body,
    contentType,
    etag: `"${hash}"`,
    encoded: encodings(body, hash),
  };
}

/**
 * Bundles the browser client (src/client/main.ts) with esbuild and reads its stylesheet, icon and page template.
 * Asset URLs carry their content hash, so they can be cached for a year; the page itself is revalidated.
 */
export async function buildClientAssets(): Promise<ClientAssets> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('main.ts', CLIENT_DIR))],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    outfile: 'app.js',
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  if (js === undefined) throw new Error('esbuild produced no JavaScript for the browser client');
  const app = asset('app', 'js', Buffer.from(js.contents), 'text/javascript; charset=utf-8');
  const styles = asset('styles', 'css', await readFile(new URL('styles.css', CLIENT_DIR)), 'text/css; charset=utf-8');
  const icon = asset('icon', 'svg', await readFile(new URL('icon.svg', CLIENT_DIR)), 'image/svg+xml');
  const template = await readFile(new URL('index.html', CLIENT_DIR), 'utf8');
  const html = template.replace('{{app}}', app.path).replace('{{styles}}', styles.path).replace('{{icon}}', icon.path);
  const indexBody = Buffer.from(html, 'utf8');
  const indexHash = hashOf(indexBody);
  const index: ClientAsset = {
    path: '/',
    body: indexBody,
    contentType: 'text/html; charset=utf-8',
    etag: `"${indexHash}"`,
    encoded: encodings(indexBody, indexHash),
  };
  return { index, files: new Map([app, styles, icon].map((a) => [a.path, a])) };
}
