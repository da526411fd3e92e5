/** The client's view of the public v2 API: wire types and a small fetch-based client with typed errors. */
export {
  ApiClient,
  ApiError,
  ServiceUnavailableError,
  StaleReleaseError,
  describeErrorBody,
  retryAfterSeconds,
  type Fetch,
  type SearchParams,
} from './api-client.ts';
export * from './types.ts';
