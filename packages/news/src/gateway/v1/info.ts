import type { WorkerIdentity } from '../../protocol/index.ts';
import type { GatewayConfig } from '../config/index.ts';
import type { InfoResponseBody } from './types.ts';
import { pythonRecipe } from '../../hub/index.ts';

const SERVICE_NAME = 'News corpus search';

/** The hub retrieval recipe for this gateway's settings, addressed to the origin the caller used. */
export function pythonExample(config: GatewayConfig, apiBase: string): string {
  const { repo, revision, endpoint } = config.hub;
  return pythonRecipe({ apiBase, repo, revision, endpoint, index: 'news' });
}

function dateRange(identity: WorkerIdentity): string {
  const ids = identity.indexes.flatMap((i) => i.shards.map((s) => s.shardId)).sort();
  const first = ids[0];
  const last = ids.at(-1);
  if (first === undefined || last === undefined) return 'no shards loaded';
  return first === last ? first : `${first} to ${last}`;
}

/** GET /api/v1/info from the worker's identity (what is actually loaded) and the gateway settings. */
export function buildInfo(
  identity: WorkerIdentity,
  config: GatewayConfig,
  apiBase: string,
): Omit<InfoResponseBody, 'latency_ms'> {
  const articles = identity.indexes.reduce((n, i) => n + i.shards.reduce((m, s) => m + s.docCount, 0), 0);
  const { repo, endpoint } = config.hub;
  const repoUrl = repo === null ? '' : `${endpoint}/datasets/${repo}`;
  return {
    name: SERVICE_NAME,
    description:
      `Exact phrase search (byte-exact, case-sensitive) over the articles of release ${identity.indexVersion}. ` +
      'Counts occurrences per crawl-period shard and returns each match with its context and article metadata.',
    article_count: String(articles),
    date_range: dateRange(identity),
    available_indexes: identity.indexes.map((i) => i.name),
    hub_repo_url: repoUrl,
    api_docs: '/api-docs',
    hub_retrieval: {
      repo: repo ?? '',
      repo_url: repoUrl,
      // The hub's dataset viewer cannot address an immutable row, so no row link template is offered.
      viewer_url_template: '',
      python_example: pythonExample(config, apiBase),
      note:
        repo === null
          ? 'No dataset hub copy is configured; everything this API returns is served locally.'
          : `The hub copy in ${repo} is optional: local search and get_doc never depend on it. ` +
            'python_example retrieves rows published by `news publish-hub` and verifies each against this API.',
    },
  };
}
