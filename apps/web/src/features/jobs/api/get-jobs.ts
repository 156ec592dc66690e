import { apiPaths, jobListResponseSchema, type JobListResponse } from '@fabric/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface JobListFilter {
  /** A job status; `running` means queued or running. Undefined lists every job. */
  status?: string | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

export function getJobs(
  { status, page, pageSize }: JobListFilter = {},
  { signal }: { signal?: AbortSignal } = {},
): Promise<JobListResponse> {
  return api.get(apiPaths.jobs.list, jobListResponseSchema, {
    signal,
    query: { status, page, page_size: pageSize },
  });
}

/** Every job list shares this prefix, so a submit invalidates them all. */
export const jobsQueryKey = ['jobs'] as const;

export function jobsQueryOptions(filter: JobListFilter = {}) {
  return queryOptions({
    queryKey: [...jobsQueryKey, filter],
    queryFn: ({ signal }) => getJobs(filter, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Job-list data loads only for enterprises (spec section 6). */
export function useJobs(
  filter: JobListFilter = {},
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({ ...jobsQueryOptions(filter), enabled });
}

/** Tab counts from `counts` (per status over all the caller's jobs). */
export function jobCounts(counts: Record<string, number>) {
  const of = (status: string) => counts[status] ?? 0;
  return {
    all: Object.values(counts).reduce((sum, count) => sum + count, 0),
    running: of('queued') + of('running'),
    completed: of('completed'),
    failed: of('failed'),
  };
}
