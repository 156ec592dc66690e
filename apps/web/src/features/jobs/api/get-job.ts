import { apiPaths, jobSchema, type Job } from '@fabric/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function getJob(id: string, { signal }: { signal?: AbortSignal } = {}): Promise<Job> {
  return api.get(apiPaths.jobs.detail(id), jobSchema, { signal });
}

/** One job's key; live updates and the cancel mutation invalidate it when the job changes. */
export function jobQueryKey(id: string) {
  return ['job', id] as const;
}

export function jobQueryOptions(id: string) {
  return queryOptions({
    queryKey: jobQueryKey(id),
    queryFn: ({ signal }) => getJob(id, { signal }),
  });
}

/** Job data loads only for enterprises (spec section 6): pass `enabled: false` for anyone else. */
export function useJob(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...jobQueryOptions(id), enabled });
}
