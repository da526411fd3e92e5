export { sanitizeTitle, querySlug, nextFreeSlug, isTitleSlug, trashedSlug, untrashedSlug } from './slug.ts';
export { REGISTERED_STATUSES, ANY_STATUSES, scaleStatus, canModify, canRead } from './status.ts';
export type { OwnedPost } from './status.ts';
export { renderTitle, renderContent, escapeHtml } from './html.ts';
export { writeFilters, ksesPost, ksesData, ksesUrl } from './kses.ts';
export type { WriteFilters } from './kses.ts';
export { createSite, NAMESPACE } from './site.ts';
export type { Site, PostKind, LinkablePost } from './site.ts';
export {
  isTime,
  OUT_OF_RANGE_DATE,
  nonEmptyString,
  registeredStatus,
  urlOrEmpty,
  isUrlOrEmpty,
  positiveInt,
  existingUser,
} from './validators.ts';
export { writeTransaction } from './write.ts';
export { WriteGeneration } from './write.ts';
export { postRepository, anyBadDate, POST_DATE_COLUMNS } from './post.repository.ts';
export type { PostRow } from './post.repository.ts';
export {
  listVisibility,
  listStatusValidator,
  pageLinks,
  statusEcho,
  parseStatusList,
  clampPerPage,
  MAX_PER_PAGE,
  DEFAULT_PER_PAGE,
} from './listing.ts';
export type { Visibility } from './listing.ts';
export {
  postDates,
  modifiedNow,
  insertedPostTimes,
  updatedPostDates,
  trashedPostDates,
  isFloating,
  ZERO_DATE,
} from './dates.ts';
export { jsonLdDescription, escJs } from './json-ld.ts';
export { linkedRepository } from './linked.repository.ts';
export type { LinkedRow, LinkedTable, LinkedListFilter, LinkedRepository } from './linked.repository.ts';
export { linkedService } from './linked.service.ts';
export type { LinkedService, LinkedKind, Params } from './linked.service.ts';
export { linkedRoutes, linkedWriteArgs, isTruthy, searchTokens } from './linked.routes.ts';
export type { LinkedRouteDeps } from './linked.routes.ts';
export {
  postHead,
  renderedName,
  renderedDescription,
  renderedExcerpt,
  dropEmpty,
  plainText,
  putFilled,
  putLinkedHead,
} from './format.ts';
export { ItemCache } from './item-cache.ts';
export { isProtected, unlocks, blankEvent, blankLinked, shownLinked } from './protected.ts';
export { withImages } from './featured-image.ts';
export type { ImageLibrary, PreparedImage } from './featured-image.ts';
export { storedUtcMs, eventLastModified } from './last-modified.ts';
