export { discoveryRoutes, namespaceIndexRoute } from './discovery.routes.ts';
export {
  describeRoute,
  describeRoutes,
  namespaceIndex,
  namespaceIndexLinks,
  registeredNamespaces,
} from './index-document.ts';
export { openApiDocument } from './openapi.ts';
export { siteTimezone, type SiteTimezone } from './site-timezone.ts';
