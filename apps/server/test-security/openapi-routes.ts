import { agentPaths, apiPaths, ROLES, type Role } from '@fabric/contract';

/**
 * The routes the server publishes in its OpenAPI document (GET /api/openapi.json), so a new route
 * joins the authorization matrix and the fuzzing without anyone listing it here.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A JSON Schema as @fastify/swagger writes it from the routes' zod schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  security?: Record<string, unknown>[];
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths: Record<string, Partial<Record<Lowercase<HttpMethod>, OpenApiOperation>>>;
}

/** Who may call a route: a signed-in user (bearerAuth), an enrolled device, or anyone. */
export type Security = 'user' | 'device' | 'public';

/** What a `{id}` in a path names, so the matrix can use real objects of real owners. */
export type ResourceKind =
  | 'node'
  | 'job'
  | 'leased-job'
  | 'notification'
  /** The marketplace's entries and files: every signed-in user (or enrolled device) reads them. */
  | 'model'
  | 'model-file'
  | 'unknown';

/** Objects nobody owns: any caller allowed in reads them, so there is no "another's object". */
export function isSharedResource(kind: ResourceKind | undefined): boolean {
  return kind === 'model' || kind === 'model-file';
}

export interface QueryParameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Route {
  method: HttpMethod;
  /** The OpenAPI path template, e.g. /api/nodes/{id}/jobs. */
  template: string;
  /** "GET /api/nodes/{id}/jobs" */
  name: string;
  security: Security;
  /** The roles allowed (user routes); every role when the route is not limited to some. */
  roles: readonly Role[];
  /** The route declares a 403 answer (a role check). */
  declaresForbidden: boolean;
  pathParameters: string[];
  resource: ResourceKind | undefined;
  query: QueryParameter[];
  /** The JSON request body's schema, when the route reads one. */
  body: JsonSchema | undefined;
}

/** `/api/nodes/{id}` from the contract's builder `detail(id)`. */
export function templateOf(build: (id: string) => string): string {
  return build('ROUTE_ID').replace('ROUTE_ID', '{id}');
}

const RESOURCE_OF_TEMPLATE = new Map<string, ResourceKind>([
  ...[
    apiPaths.nodes.detail,
    apiPaths.nodes.earnings,
    apiPaths.nodes.pause,
    apiPaths.nodes.resume,
    apiPaths.nodes.jobs,
  ].map((build) => [templateOf(build), 'node'] as const),
  ...[apiPaths.jobs.detail, apiPaths.jobs.cancel].map(
    (build) => [templateOf(build), 'job'] as const,
  ),
  ...[
    agentPaths.progress,
    agentPaths.commit,
    agentPaths.complete,
    agentPaths.fail,
    agentPaths.release,
  ].map((build) => [templateOf(build), 'leased-job'] as const),
  [templateOf(apiPaths.notifications.read), 'notification'],
  [templateOf(apiPaths.marketplace.model), 'model'],
  [agentPaths.modelFile('ROUTE_ID').replace('ROUTE_ID', '{sha256}'), 'model-file'],
]);

/**
 * Which user routes are limited to one role (apps/server/src/routes/api: requireRole). The
 * OpenAPI document says that a route checks a role (it declares 403) but not which one; a test
 * checks that this table and the 403 declarations agree, so a new role check cannot go unseen.
 */
const ROLE_RULES: { matches: (method: HttpMethod, template: string) => boolean; role: Role }[] = [
  {
    matches: (_method, template) =>
      template === apiPaths.jobs.list || template.startsWith(`${apiPaths.jobs.list}/`),
    role: 'enterprise',
  },
  {
    matches: (_method, template) =>
      template === apiPaths.nodes.list || template.startsWith(`${apiPaths.nodes.list}/`),
    role: 'node_provider',
  },
  {
    matches: (method, template) => method === 'POST' && template === agentPaths.register,
    role: 'node_provider',
  },
  {
    matches: (method, template) => method === 'POST' && template === apiPaths.payment.addCredits,
    role: 'enterprise',
  },
  {
    matches: (_method, template) =>
      template === apiPaths.payment.payout ||
      template === apiPaths.payment.connectOnboard ||
      template === apiPaths.payment.connectRefresh ||
      template === apiPaths.payment.connectStatus,
    role: 'node_provider',
  },
];

/** The role a route is limited to by ROLE_RULES, if any. */
export function ruledRole(method: HttpMethod, template: string): Role | undefined {
  return ROLE_RULES.find((rule) => rule.matches(method, template))?.role;
}

function securityOf(operation: OpenApiOperation): Security {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('deviceToken')) return 'device';
  if (schemes.includes('bearerAuth')) return 'user';
  if (schemes.length > 0) throw new Error(`Unknown security scheme(s): ${schemes.join(', ')}`);
  return 'public';
}

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

export function routesOf(document: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = operations[method.toLowerCase() as Lowercase<HttpMethod>];
      if (!operation) continue;
      const security = securityOf(operation);
      const parameters = operation.parameters ?? [];
      const pathParameters = parameters
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name);
      const role = security === 'user' ? ruledRole(method, template) : undefined;
      routes.push({
        method,
        template,
        name: `${method} ${template}`,
        security,
        roles: role ? [role] : ROLES,
        declaresForbidden: Object.hasOwn(operation.responses ?? {}, '403'),
        pathParameters,
        resource:
          pathParameters.length > 0 ? (RESOURCE_OF_TEMPLATE.get(template) ?? 'unknown') : undefined,
        query: parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => ({
            name: parameter.name,
            required: parameter.required ?? false,
            schema: parameter.schema ?? {},
          })),
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return routes;
}

/** The route's URL with every path parameter set to `id`. */
export function urlOf(route: Route, id: string): string {
  let url = route.template;
  for (const name of route.pathParameters) {
    url = url.replace(`{${name}}`, encodeURIComponent(id));
  }
  return url;
}
