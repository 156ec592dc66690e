import { apiPaths, onboardingLinkResponseSchema } from '@fabric/contract';
import { useMutation } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/api-client';

/** The payment provider's onboarding page for a new connected account. */
export async function getOnboardingLink(): Promise<string> {
  const { url } = await api.get(apiPaths.payment.connectOnboard, onboardingLinkResponseSchema);
  return url;
}

/** A fresh onboarding link for an account whose setup is not finished. */
export async function refreshOnboardingLink(): Promise<string> {
  const { url } = await api.post(
    apiPaths.payment.connectRefresh,
    undefined,
    onboardingLinkResponseSchema,
  );
  return url;
}

export function useConnectBankAccount() {
  return useMutation<string, ApiError>({ mutationFn: getOnboardingLink });
}

export function useCompleteBankSetup() {
  return useMutation<string, ApiError>({ mutationFn: refreshOnboardingLink });
}
