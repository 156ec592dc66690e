import {
  apiPaths,
  IDEMPOTENCY_KEY_HEADER,
  jobSchema,
  type Job,
  type SubmitJobRequest,
} from '@fabric/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';
import { jobsQueryKey } from './get-jobs';

export interface JobSubmission {
  job: SubmitJobRequest;
  /** One key per form submission: a retried request never queues (and holds for) the job twice. */
  idempotencyKey: string;
}

export function submitJob({ job, idempotencyKey }: JobSubmission): Promise<Job> {
  return api.post(apiPaths.jobs.submit, job, jobSchema, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}

export function useSubmitJob() {
  const queryClient = useQueryClient();
  return useMutation<Job, ApiError, JobSubmission>({
    mutationFn: submitJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobsQueryKey }),
  });
}
