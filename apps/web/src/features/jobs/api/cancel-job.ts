import { apiPaths, jobSchema, type Job } from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { jobQueryKey } from './get-job';
import { jobsQueryKey } from './get-jobs';

export function cancelJob(id: string): Promise<Job> {
  return api.post(apiPaths.jobs.cancel(id), undefined, jobSchema);
}

/** Cancels the job whose id it is given; the cancelled job replaces the cached one at once. */
export function useCancelJob() {
  const queryClient = useQueryClient();
  return useMutation<Job, ApiError, string>({
    mutationFn: cancelJob,
    onSuccess: (job, id) => {
      queryClient.setQueryData(jobQueryKey(id), job);
    },
    // A refusal (409) means the job changed meanwhile, so both outcomes refresh what is shown.
    onSettled: (_job, _error, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: jobsQueryKey }),
        queryClient.invalidateQueries({ queryKey: jobQueryKey(id) }),
      ]),
  });
}
