export { discoveryRoutes } from './discovery.routes.ts';
export { describeRoute, rootIndex, namespaceIndex, namespaceIndexLinks } from './index-document.ts';
export { openApiDocument } from './openapi.ts';
