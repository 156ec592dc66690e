import {
  JOB_PRIORITIES,
  JOB_TYPES,
  PRIORITY_LABELS,
  SUBMIT_ESTIMATE,
  type JobPriority,
  type JobType,
} from '@fabric/contract';
import { Send } from 'lucide-react';
import { useId, useState, type ComponentProps, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FieldError } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatJobType, formatUsd } from '@/lib/format';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { cn } from '@/lib/utils';
import { useSubmitJob } from '../api/submit-job';
import { JOB_PARAMS_HINTS } from './job-params-hint';

const fieldClass =
  'w-full rounded-md border border-input bg-background px-3 py-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/50 aria-invalid:border-destructive';

function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(fieldClass, 'h-10', className)} {...props} />;
}

function isJobType(value: string): value is JobType {
  return (JOB_TYPES as readonly string[]).includes(value);
}

/** The params as an object, or null when the text is not a JSON object. */
function parseParams(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** `creditBalance`: the credit balance panel beside the estimate (the page brings it). */
export function SubmitJobForm({ creditBalance }: { creditBalance?: ReactNode }) {
  const id = useId();
  const navigate = useNavigate();
  const submitJob = useSubmitJob();
  const [jobType, setJobType] = useState<JobType | ''>('');
  const [priority, setPriority] = useState<JobPriority>(0);
  const [paramsText, setParamsText] = useState('{}');
  const [errors, setErrors] = useState<{ jobType?: string; params?: string }>({});

  function submit() {
    const nextErrors: typeof errors = {};
    if (!jobType) nextErrors.jobType = 'Please select a job type';
    const params = parseParams(paramsText);
    if (params === null) nextErrors.params = 'Invalid JSON in parameters field';
    setErrors(nextErrors);
    if (!jobType || params === null) return;

    submitJob.mutate(
      { job: { job_type: jobType, params, priority }, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: () => {
          toast.success('Job submitted successfully!');
          void navigate(paths.jobs.list.href());
        },
        onError: (error) => {
          const message = errorMessage(error, 'Failed to submit job');
          if (error instanceof ApiError && error.field?.startsWith('params')) {
            setErrors({ params: message });
          }
          toast.error(message);
        },
      },
    );
  }

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>Job details</CardTitle>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            aria-label="Submit New Job"
            className="grid gap-5"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor={`${id}-type`}>Job Type</Label>
              <NativeSelect
                id={`${id}-type`}
                value={jobType}
                aria-invalid={errors.jobType ? true : undefined}
                aria-describedby={errors.jobType ? `${id}-type-error` : `${id}-type-hint`}
                onChange={(event) => {
                  const value = event.target.value;
                  setJobType(isJobType(value) ? value : '');
                }}
              >
                <option value="">Select a job type</option>
                {JOB_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {formatJobType(type)}
                  </option>
                ))}
              </NativeSelect>
              {errors.jobType ? (
                <FieldError id={`${id}-type-error`}>{errors.jobType}</FieldError>
              ) : jobType ? (
                <p id={`${id}-type-hint`} className="text-sm text-muted-foreground">
                  {JOB_PARAMS_HINTS[jobType]}
                </p>
              ) : null}
            </div>

            <div className="grid gap-2">
              <Label htmlFor={`${id}-priority`}>Priority</Label>
              <NativeSelect
                id={`${id}-priority`}
                value={priority}
                onChange={(event) => setPriority(Number(event.target.value) === 1 ? 1 : 0)}
              >
                {JOB_PRIORITIES.map((value) => (
                  <option key={value} value={value}>
                    {PRIORITY_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
            </div>

            <div className="grid gap-2">
              <Label htmlFor={`${id}-params`}>Job Parameters (JSON)</Label>
              <textarea
                id={`${id}-params`}
                rows={8}
                spellCheck={false}
                value={paramsText}
                aria-invalid={errors.params ? true : undefined}
                aria-describedby={errors.params ? `${id}-params-error` : undefined}
                onChange={(event) => setParamsText(event.target.value)}
                className={cn(fieldClass, 'font-mono')}
              />
              {errors.params ? (
                <FieldError id={`${id}-params-error`}>{errors.params}</FieldError>
              ) : null}
            </div>

            <Button type="submit" className="w-full sm:w-fit" disabled={submitJob.isPending}>
              {submitJob.isPending ? <Spinner /> : <Send aria-hidden="true" />}
              Submit Job
            </Button>
          </form>
        </CardContent>
      </Card>

      <div className="grid content-start gap-4">
        <Card>
          <CardHeader>
            <CardTitle>Cost Estimate</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-2 text-sm">
              <div className="flex justify-between">
                <dt className="text-muted-foreground">Base cost</dt>
                <dd className="font-medium">{formatUsd(SUBMIT_ESTIMATE.baseCostUsd)}</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-muted-foreground">Priority multiplier</dt>
                <dd className="font-medium">{SUBMIT_ESTIMATE.multiplier.toFixed(1)}x</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-muted-foreground">Estimated time</dt>
                <dd className="font-medium">~{SUBMIT_ESTIMATE.minutes} min</dd>
              </div>
            </dl>
            <p className="mt-3 text-xs text-muted-foreground">
              An estimate; you pay for actual usage.
            </p>
          </CardContent>
        </Card>
        {creditBalance}
      </div>
    </div>
  );
}
