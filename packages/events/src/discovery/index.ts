export { discoveryRoutes } from './discovery.routes.ts';
export { describeRoute, rootIndex, namespaceIndex } from './index-document.ts';
export { openApiDocument } from './openapi.ts';
