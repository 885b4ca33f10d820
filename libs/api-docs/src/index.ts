/**
 * The service's API documents, shaped from the contract's zod schemas: the OpenAPI 3.1 document of
 * both hosts (merged from the routes' schemas, with the rules every route follows) and the
 * AsyncAPI 3.0 document of the multiplexed socket. The gateway serves them; the scripts write
 * docs/openapi.json and docs/asyncapi.yaml from them.
 */
export {
  ASYNCAPI_PATH,
  DEFAULT_ORIGINS,
  SECURITY_SCHEMES,
  TAGS,
  documentOf,
  mergeOpenApi,
  openApiRouteTransform,
  withServers,
  type ServerOrigins,
} from './openapi.ts';
export { asyncApiServers, buildAsyncApiDocument } from './asyncapi.ts';
