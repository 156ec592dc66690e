import { errorBodySchema } from '@fabric/contract';

/** Response schemas for the error statuses a route can answer (all `{ message, code?, field? }`). */
export function errorResponses<const Statuses extends readonly number[]>(...statuses: Statuses) {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    Statuses[number],
    typeof errorBodySchema
  >;
}

export const bearerSecurity = [{ bearerAuth: [] }];

/** `/api/nodes/:id` from the contract's builder `detail(id)`, for route declarations. */
export function routePattern(build: (id: string) => string, parameter = 'id'): string {
  const marker = 'ROUTE_ID_MARKER';
  return build(marker).replace(marker, `:${parameter}`);
}
