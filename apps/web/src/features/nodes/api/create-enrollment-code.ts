import {
  apiPaths,
  enrollmentCodeResponseSchema,
  type EnrollmentCodeResponse,
} from '@fabric/contract';
import { useMutation } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';

/** A one-time code (15 minutes, single use) the agent's --code enrolls a device with. */
export function createEnrollmentCode(): Promise<EnrollmentCodeResponse> {
  return api.post(apiPaths.nodes.enrollmentCodes, undefined, enrollmentCodeResponseSchema);
}

export function useCreateEnrollmentCode() {
  return useMutation<EnrollmentCodeResponse, ApiError>({ mutationFn: createEnrollmentCode });
}
