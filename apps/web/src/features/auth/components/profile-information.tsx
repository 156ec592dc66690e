import type { Role, User } from '@fabric/contract';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

const NOT_SET = 'Not set';

/** Read-only profile. Falls back to the stored email when the user could not be loaded. */
export function ProfileInformation({
  user,
  isLoading,
  role,
  fallbackEmail,
}: {
  user: User | undefined;
  isLoading: boolean;
  role: Role;
  fallbackEmail: string | null;
}) {
  // While loading, the stored email is already known; the other values are not.
  const rows: { label: string; value: string | null | undefined; isKnown: boolean }[] = [
    { label: 'Full Name', value: user?.name, isKnown: !isLoading },
    {
      label: 'Email',
      value: user?.email ?? fallbackEmail,
      isKnown: !isLoading || Boolean(fallbackEmail),
    },
  ];
  if (role === 'enterprise') {
    rows.push({ label: 'Organization Name', value: user?.organization_name, isKnown: !isLoading });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Information</CardTitle>
        <CardDescription>The details your account is registered with.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-2">
          {rows.map(({ label, value, isKnown }) => (
            <div key={label} className="grid gap-1 rounded-lg bg-muted/60 px-4 py-3">
              <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                {label}
              </dt>
              <dd className="truncate text-sm font-medium">
                {isKnown ? (
                  value || NOT_SET
                ) : (
                  <>
                    <Skeleton className="h-5 w-40 bg-border" />
                    <span className="sr-only">Loading</span>
                  </>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
