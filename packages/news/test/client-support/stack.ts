/**
 * A live news service for the client and hub tests: a release built from a real corpus plus a few articles
 * written here, a real worker and the real gateway (with the browser client) on 127.0.0.1.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { buildRelease, openRelease } from '../../src/release/index.ts';
import { startWorker, type RunningServer } from '../../src/worker/index.ts';
import { buildGatewayApp, parseGatewayConfig } from '../../src/gateway/index.ts';
import {
  createReleaseBinding,
  createWorkerClient,
  defaultWorkerClientOptions,
} from '../../src/gateway/worker-client/index.ts';
import { registerBrowserClient } from '../../src/gateway/client/index.ts';
import { FUNDUS } from '../hub-support/corpus.ts';

export const silent = pino({ level: 'silent' });

/** A phrase found only in the articles written below. */
export const FIXTURE_PHRASE = 'Kanalbrücke Zeta';
export const FORMULA_TITLE = '=HYPERLINK("https://example.invalid/x","Kanalbrücke")';
export const MARKUP_TITLE = '<img src=x onerror="window.__injected=1">Kanalbrücke';
/** An Arabic word, a sentence opening before it, and a long German compound, each in one fixture article. */
export const RTL_WORD = 'ترامب';
export const RTL_PHRASE = 'في العاصمة';
export const LONG_WORD = 'Bundesregierungssprecherinnenkonferenz';
/** Over 1 MiB: get_doc full_text refuses it. */
export const HUGE_BYTES = 1_100_000;

/** Articles written for these tests (no third-party text): formula and markup titles, a huge article. */
export function fixtureArticles(): Record<string, unknown>[] {
  const line = 'Messreihe Omega am Pegel Nord, Wasserstand und Strömung wurden notiert. ';
  return [
    {
      text: `Die ${FIXTURE_PHRASE} wurde gestern eröffnet. Die ${FIXTURE_PHRASE} verbindet zwei Häfen.`,
      title: FORMULA_TITLE,
      url: 'https://kanal.example.org/zeta',
      hostname: 'kanal.example.org',
      sitename: 'Kanal Kurier',
      language: 'de',
      warc_date: '2025-03-04T10:00:00',
      publish_date: '2025-03-03',
      warc_record_id: '<urn:uuid:00000000-0000-4000-8000-000000000001>',
      iptc_topic: 'economy',
      scores: { iptc_topic: 0.87, language: 0.995 },
    },
    {
      text: `<script>window.__injected=2</script> Bericht: die ${FIXTURE_PHRASE} & <b>andere</b> Brücken.`,
      title: MARKUP_TITLE,
      url: 'javascript:alert(1)',
      hostname: 'brueckenblatt.example.net',
      sitename: 'Brückenblatt',
      language: 'de',
      warc_date: '2025-04-09T08:30:00',
      warc_record_id: '<urn:uuid:00000000-0000-4000-8000-000000000002>',
    },
    {
      text: `${FIXTURE_PHRASE}: Messprotokoll. ${line.repeat(Math.ceil(HUGE_BYTES / line.length))}`,
      title: 'Messprotokoll der Kanalbrücke',
      url: 'https://kanal.example.org/protokoll',
      hostname: 'kanal.example.org',
      sitename: 'Kanal Kurier',
      language: 'de',
      warc_date: '2025-04-20T12:00:00',
      warc_record_id: '<urn:uuid:00000000-0000-4000-8000-000000000003>',
    },
    // Right-to-left text and a long German compound for the concordance's layout (issue 29 bugs 1 and 3).
    {
      text: `${RTL_PHRASE} قال المتحدث إن ${RTL_WORD} سيزور المدينة الأسبوع المقبل. ${LONG_WORD} tagte.`,
      title: 'خبر قصير',
      url: 'https://akhbar.example.com/1',
      hostname: 'akhbar.example.com',
      sitename: 'Akhbar',
      language: 'ar',
      warc_date: '2025-04-22T09:00:00',
      warc_record_id: '<urn:uuid:00000000-0000-4000-8000-000000000004>',
    },
  ];
}

/** Country attribution for the fixture hosts and a few real hostnames of the corpus. */
const COUNTRIES_CSV =
  [
    'hostname,country,country_source,country_confidence',
    'kanal.example.org,DE,operator list,high',
    'brueckenblatt.example.net,AT,operator list,medium',
    'www.derstandard.at,AT,publisher registry,high',
    'www.tagesschau.de,DE,publisher registry,high',
    'www.bbc.com,GB,publisher registry,high',
  ].join('\n') + '\n';

/** Builds a release of the fundus corpus plus the fixture articles. */
export async function buildTestRelease(root: string, indexVersion: string): Promise<string> {
  await mkdir(root, { recursive: true });
  const fixtures = join(root, `fixtures-${indexVersion}.jsonl`);
  const countries = join(root, `countries-${indexVersion}.csv`);
  await writeFile(
    fixtures,
    fixtureArticles()
      .map((a) => JSON.stringify(a))
      .join('\n') + '\n',
  );
  await writeFile(countries, COUNTRIES_CSV);
  const out = join(root, `release-${indexVersion}`);
  await buildRelease({ inputs: [FUNDUS, fixtures], out, indexVersion, countries, concurrency: 2 });
  return out;
}

export interface LiveService {
  readonly url: string;
  readonly port: number;
  readonly indexVersion: string;
  close(): Promise<void>;
}

/** Starts worker + gateway (+ browser client). `port` 0 picks a free one; a fixed port lets a test swap releases. */
export async function startService(
  releaseDir: string,
  indexVersion: string,
  port = 0,
  env: Record<string, string> = {},
): Promise<LiveService> {
  const release = await openRelease(releaseDir, { mode: 'memory', expectedIndexVersion: indexVersion, verify: 'full' });
  const worker: RunningServer = await startWorker(release, { host: '127.0.0.1', port: 0 }, silent);
  const config = parseGatewayConfig({
    GATEWAY_INDEX_VERSION: indexVersion,
    GATEWAY_WORKER_URL: worker.url,
    GATEWAY_PORT: String(port),
    GATEWAY_ENVIRONMENT: 'development',
    ...env,
  });
  const client = createWorkerClient(config.workerUrl, { ...defaultWorkerClientOptions, timeoutMs: 10_000 });
  const binding = createReleaseBinding(client, config.indexVersion);
  const app = buildGatewayApp({ config, worker: client, binding, log: silent });
  registerBrowserClient(app);
  await app.listen({ host: '127.0.0.1', port });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('gateway has no TCP address');
  const url = `http://127.0.0.1:${addr.port}`;
  // Ready means bound: health passes once the gateway has confirmed the worker serves its release.
  for (let i = 0; i < 100 && (await fetch(`${url}/api/v2/health`)).status !== 200; i++)
    await new Promise((r) => setTimeout(r, 50));
  return {
    url,
    port: addr.port,
    indexVersion,
    close: async () => {
      await app.close();
      await client.close();
      await worker.close();
    },
  };
}
