import type { ConnectStatusResponse } from '@fabric/contract';
import { CircleCheck, Info, Landmark, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useCompleteBankSetup, useConnectBankAccount } from '../api/connect-bank-account';
import { useConnectStatus } from '../api/get-connect-status';

// Names for what payment providers ask of a connected account (Stripe's requirement keys).
const REQUIREMENT_NAMES: readonly [prefix: string, name: string][] = [
  ['external_account', 'Bank account for payouts'],
  ['tos_acceptance', 'Acceptance of the payment terms'],
  ['individual.verification', 'Identity document'],
  ['individual.dob', 'Date of birth'],
  ['individual.address', 'Home address'],
  ['individual.first_name', 'Legal name'],
  ['individual.last_name', 'Legal name'],
  ['individual.ssn_last_4', 'Identity number'],
  ['individual.id_number', 'Identity number'],
  ['individual.email', 'Email address'],
  ['individual.phone', 'Phone number'],
  ['business_profile', 'Business details'],
  ['business_type', 'Business type'],
];

/** A readable name for a requirement; "some_field.sub_field" → "Some field sub field". */
function describeRequirement(requirement: string): string {
  const known = REQUIREMENT_NAMES.find(([prefix]) => requirement.startsWith(prefix));
  if (known) return known[1];
  const words = requirement.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Runs a call that answers with the payment provider's page and sends the browser there. The
 * button stays busy until the page is left, so it cannot be pressed twice.
 */
function useRedirectTo(
  mutation: ReturnType<typeof useConnectBankAccount>,
  fallbackError: string,
): { start: () => void; isBusy: boolean } {
  const [isRedirecting, setIsRedirecting] = useState(false);
  return {
    isBusy: mutation.isPending || isRedirecting,
    start: () => {
      mutation.mutate(undefined, {
        onSuccess: (url) => {
          setIsRedirecting(true);
          window.location.assign(url);
        },
        onError: (error) => {
          toast.error(errorMessage(error, fallbackError));
        },
      });
    },
  };
}

function BankConnectionState({ status }: { status: ConnectStatusResponse | undefined }) {
  const connect = useRedirectTo(useConnectBankAccount(), 'Failed to connect Stripe');
  const completeSetup = useRedirectTo(useCompleteBankSetup(), 'Failed to refresh Stripe link');

  if (!status?.connected) {
    return (
      <div className="grid gap-4">
        <Alert variant="info">
          <Info aria-hidden="true" />
          <AlertTitle>No bank account connected</AlertTitle>
          <AlertDescription>
            <p>
              Connect a bank account to receive your earnings. You will enter your details on our
              payment partner’s secure page and come back here when you are done.
            </p>
          </AlertDescription>
        </Alert>
        <div>
          <Button onClick={connect.start} disabled={connect.isBusy}>
            {connect.isBusy ? <Spinner /> : <Landmark aria-hidden="true" />}
            {connect.isBusy ? 'Connecting...' : 'Connect Bank Account'}
          </Button>
        </div>
      </div>
    );
  }

  if (!status.payouts_enabled) {
    // Several keys can name the same thing (tos_acceptance.date and .ip): list it once.
    const missing = [...new Set(status.requirements.currently_due.map(describeRequirement))];
    return (
      <div className="grid gap-4">
        <Alert variant="warning">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>Setup Incomplete</AlertTitle>
          <AlertDescription>
            <p>Your bank account is connected, but payouts stay off until setup is finished.</p>
            {missing.length > 0 ? (
              <>
                <p className="font-medium text-foreground">Still needed:</p>
                <ul className="list-disc pl-5">
                  {missing.map((requirement) => (
                    <li key={requirement}>{requirement}</li>
                  ))}
                </ul>
              </>
            ) : null}
          </AlertDescription>
        </Alert>
        <div>
          <Button onClick={completeSetup.start} disabled={completeSetup.isBusy}>
            {completeSetup.isBusy ? <Spinner /> : null}
            {completeSetup.isBusy ? 'Loading...' : 'Complete Setup'}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <Alert variant="success">
      <CircleCheck aria-hidden="true" />
      <AlertTitle>Bank Account Connected</AlertTitle>
      <AlertDescription>
        <p>Payouts are enabled. Your earnings are paid to this bank account.</p>
      </AlertDescription>
    </Alert>
  );
}

/** Where a provider's payouts go: connect a bank account, finish its setup, or see it ready. */
export function BankConnectionCard() {
  const status = useConnectStatus();

  useEffect(() => {
    // Spec: a failed status fetch is only logged; the card then offers to connect.
    if (status.isError) console.error('Could not load the bank connection status', status.error);
  }, [status.isError, status.error]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Bank Account Connection</CardTitle>
        <CardDescription>Where your payouts are sent.</CardDescription>
      </CardHeader>
      <CardContent>
        {status.isPending ? (
          <div className="grid gap-4" aria-label="Loading bank connection">
            <Skeleton className="h-16" />
            <Skeleton className="h-10 w-48" />
          </div>
        ) : (
          <BankConnectionState status={status.data} />
        )}
      </CardContent>
    </Card>
  );
}
