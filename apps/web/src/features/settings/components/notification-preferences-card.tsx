import { LOW_CREDIT_THRESHOLD_MICROS, MICRO_DOLLARS_PER_DOLLAR, type Role } from '@fabric/contract';
import { Check } from 'lucide-react';
import { useId } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';
import { useSettings } from '../api/get-settings';
import { useUpdateNotificationSwitch, type NotificationSwitch } from '../api/update-settings';

interface SwitchRow {
  name: NotificationSwitch;
  label: string;
  description: string;
}

const lowCreditThreshold = formatUsd(LOW_CREDIT_THRESHOLD_MICROS / MICRO_DOLLARS_PER_DOLLAR);

function switchRows(role: Role): SwitchRow[] {
  return [
    {
      name: 'email_notifications',
      label: 'Email Notifications',
      description: 'Also send each notification to your email address.',
    },
    role === 'node_provider'
      ? {
          name: 'job_notifications',
          label: 'Job Notifications',
          description: 'Notices when a job your nodes run completes or fails.',
        }
      : {
          name: 'credit_low_alerts',
          label: 'Credit Low Alerts',
          description: `A notification when your credits fall below ${lowCreditThreshold}.`,
        },
    {
      name: 'marketing_emails',
      label: 'Marketing Emails',
      description: 'Occasional product news by email.',
    },
  ];
}

function SwitchSetting({
  row,
  checked,
  onCheckedChange,
}: {
  row: SwitchRow;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <li className="flex items-center justify-between gap-4 py-4 first:pt-0 last:pb-0">
      <div className="grid gap-1">
        <Label htmlFor={id}>{row.label}</Label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {row.description}
        </p>
      </div>
      <Switch
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        aria-describedby={`${id}-description`}
      />
    </li>
  );
}

/** The notification switches, saved on the server one at a time as they are flipped. */
export function NotificationPreferencesCard({ role }: { role: Role }) {
  const settings = useSettings();
  const rows = switchRows(role);
  const updateSwitch = useUpdateNotificationSwitch({
    onError: (error, { name }) => {
      const label = rows.find((row) => row.name === name)?.label ?? 'your setting';
      toast.error(`Could not save ${label}`, {
        description: errorMessage(error, 'Please try again.'),
      });
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>Choose what we tell you about, and how.</CardDescription>
        <CardAction>
          <p role="status" className="flex h-5 items-center gap-1.5 text-sm text-muted-foreground">
            {updateSwitch.isPending ? (
              <>
                <Spinner className="size-3.5" />
                Saving...
              </>
            ) : updateSwitch.isSuccess ? (
              <>
                <Check aria-hidden="true" className="size-4 text-success" />
                Saved
              </>
            ) : null}
          </p>
        </CardAction>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div className="grid gap-6" aria-label="Loading notification settings">
            {rows.map((row) => (
              <div key={row.name} className="flex items-center justify-between gap-4">
                <div className="grid flex-1 gap-2">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-4 w-64 max-w-full" />
                </div>
                <Skeleton className="h-6 w-11 rounded-full" />
              </div>
            ))}
          </div>
        ) : settings.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Your notification settings could not be loaded</AlertTitle>
            <AlertDescription>
              <p>{errorMessage(settings.error, 'Please reload the page to try again.')}</p>
            </AlertDescription>
          </Alert>
        ) : (
          <ul className="divide-y">
            {rows.map((row) => (
              <SwitchSetting
                key={row.name}
                row={row}
                checked={settings.data[row.name]}
                onCheckedChange={(checked) => {
                  updateSwitch.mutate({ name: row.name, checked });
                }}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
