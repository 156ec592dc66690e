import { apiPaths, jobSchema, type Job, type SubmitJobRequest } from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { jobsQueryKey } from './get-jobs';

export function submitJob(body: SubmitJobRequest): Promise<Job> {
  return api.post(apiPaths.jobs.submit, body, jobSchema);
}

export function useSubmitJob() {
  const queryClient = useQueryClient();
  return useMutation<Job, ApiError, SubmitJobRequest>({
    mutationFn: submitJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobsQueryKey }),
  });
}
