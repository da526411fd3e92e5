export { mediaService, mediaDepsFromConfig, type MediaService, type MediaDeps } from './media.service.ts';
export { imageValidator } from './media.args.ts';
export { serveUploads, UPLOADS_PATH } from './uploads.routes.ts';
export {
  checkUrl,
  defaultSafeFetchOptions,
  FetchError,
  guardedLookup,
  safeFetch,
  type SafeFetchOptions,
} from './safe-fetch.ts';
export { NotAnImageError } from './upload-store.ts';
