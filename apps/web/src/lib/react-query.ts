import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { ApiError } from './api-client';

const queryConfig = {
  queries: {
    refetchOnWindowFocus: false,
    staleTime: 30_000,
    // A 4xx will not change by asking again; only missing answers and 5xx are worth one retry.
    retry: (failureCount, error) =>
      failureCount < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig });
}
