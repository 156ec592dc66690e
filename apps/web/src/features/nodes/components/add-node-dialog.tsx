import {
  ADVERTISED_EARNINGS_PER_DAY_USD,
  agentPaths,
  ENROLLMENT_CODE_TTL_MINUTES,
  PRODUCT_NAME,
} from '@fabric/contract';
import { Apple, Check, Copy, Download, KeyRound, Monitor, Plus, Terminal } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { formatTime } from '@/lib/format';
import { useCreateEnrollmentCode } from '../api/create-enrollment-code';

const AGENT_FILE = 'fabric-agent.mjs';

const platforms = [
  { name: 'macOS (Apple Silicon)', requirement: 'Requires macOS 11+', comingSoon: false },
  { name: 'macOS (Intel)', requirement: 'Requires macOS 10.15+', comingSoon: false },
  { name: 'Windows', requirement: 'Native installer Coming Soon', comingSoon: true },
  { name: 'Linux', requirement: 'Native installer Coming Soon', comingSoon: true },
] as const;

/** The command a provider runs on the device, for this server and this account. */
export function agentCommand(origin: string, email: string): string {
  return `node ${AGENT_FILE} --server ${origin} --email ${email}`;
}

/** The same with a one-time enrollment code instead of the account. */
export function agentCodeCommand(origin: string, code: string): string {
  return `node ${AGENT_FILE} --server ${origin} --code ${code}`;
}

/** A command to run, with a Copy button. */
function CommandLine({ command, testId }: { command: string; testId: string }) {
  const [copied, setCopied] = useState(false);

  async function copyCommand() {
    try {
      await navigator.clipboard.writeText(command);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="flex items-center gap-2 rounded-lg border bg-muted p-2">
      <Terminal aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
      <code className="min-w-0 flex-1 text-xs break-all" data-testid={testId}>
        {command}
      </code>
      <Button type="button" size="sm" variant="ghost" onClick={() => void copyCommand()}>
        {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </div>
  );
}

/** Enrolling with a one-time code: nothing until asked, then the code's command and its expiry. */
function EnrollmentCodeCommand() {
  const createCode = useCreateEnrollmentCode();
  const created = createCode.data;

  return (
    <div className="space-y-2 rounded-lg border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h4 className="text-sm font-medium">With a one-time code (recommended)</h4>
          <p className="text-xs text-muted-foreground">
            Nothing to type on the device: the code enrolls it into your account.
          </p>
        </div>
        <Button
          type="button"
          size="sm"
          variant={created ? 'outline' : 'default'}
          disabled={createCode.isPending}
          onClick={() => createCode.mutate()}
        >
          {createCode.isPending ? <Spinner /> : <KeyRound aria-hidden="true" />}
          {created ? 'New Code' : 'Create Enrollment Code'}
        </Button>
      </div>
      {createCode.isError ? (
        <Alert variant="destructive">
          <AlertDescription>
            {errorMessage(createCode.error, 'The code could not be created. Try again.')}
          </AlertDescription>
        </Alert>
      ) : null}
      {created ? (
        <>
          <CommandLine
            command={agentCodeCommand(window.location.origin, created.code)}
            testId="agent-code-command"
          />
          <p className="text-xs text-muted-foreground">
            Works once, until {formatTime(created.expires_at)}. The device never sees your password.
          </p>
        </>
      ) : null}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

/** Add Node: how it works, the agent download, the command to run, security notes and an FAQ. */
export function AddNodeDialog({ email }: { email: string }) {
  const command = agentCommand(window.location.origin, email || '<your email>');
  const { min, max } = ADVERTISED_EARNINGS_PER_DAY_USD;

  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" />
          Add Node
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Add a Node</DialogTitle>
          <DialogDescription>
            Share this device&apos;s spare compute with the {PRODUCT_NAME} network.
          </DialogDescription>
        </DialogHeader>

        <Section title="How it works">
          <ol className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
            {[
              ['1. Download', 'Get the agent file.'],
              ['2. Run', 'Start it with Node.js.'],
              ['3. Sign in', 'Enroll with a code or your account.'],
              ['4. Earn', 'Your device runs jobs.'],
            ].map(([step, text]) => (
              <li key={step} className="rounded-lg border p-3">
                <p className="font-medium">{step}</p>
                <p className="text-muted-foreground">{text}</p>
              </li>
            ))}
          </ol>
        </Section>

        <Section title="Download the agent">
          <p className="text-sm text-muted-foreground">
            The agent is a single JavaScript file ({AGENT_FILE}) that runs on any operating system
            with Node.js 20 or later.
          </p>
          <ul className="grid gap-2 sm:grid-cols-2">
            {platforms.map((platform) => (
              <li key={platform.name} className="flex flex-col gap-2 rounded-lg border p-3 text-sm">
                <div className="flex items-center gap-2 font-medium">
                  {platform.name.startsWith('macOS') ? (
                    <Apple aria-hidden="true" className="size-4" />
                  ) : (
                    <Monitor aria-hidden="true" className="size-4" />
                  )}
                  {platform.name}
                </div>
                <p className="text-muted-foreground">{platform.requirement}</p>
                {platform.comingSoon ? (
                  <p className="text-muted-foreground">
                    Works today: run the same file with Node.js 20+.
                  </p>
                ) : null}
                <Button asChild size="sm" variant="outline" className="w-fit">
                  <a href={agentPaths.download} download={AGENT_FILE}>
                    <Download aria-hidden="true" />
                    Download for {platform.name}
                  </a>
                </Button>
              </li>
            ))}
          </ul>
        </Section>

        <Section title="Install steps">
          <ol className="list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
            <li>Install Node.js 20 or later.</li>
            <li>Download {AGENT_FILE} and open a terminal in its folder.</li>
            <li>Run one of the commands below in that terminal.</li>
          </ol>
          <EnrollmentCodeCommand />
          <div className="space-y-2 rounded-lg border p-3">
            <div>
              <h4 className="text-sm font-medium">With your account</h4>
              <p className="text-xs text-muted-foreground">
                Enter your password when asked. To run it unattended, set the FABRIC_PASSWORD
                environment variable instead of typing the password.
              </p>
            </div>
            <CommandLine command={command} testId="agent-command" />
          </div>
        </Section>

        <Section title="Security">
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            <li>Your password is used once to enroll the device and is never stored on it.</li>
            <li>
              An enrollment code works once and for {ENROLLMENT_CODE_TTL_MINUTES} minutes only.
            </li>
            <li>The device keeps only its own device token, not your password.</li>
            <li>Jobs run in a sandboxed child process with CPU, memory and time limits.</li>
          </ul>
        </Section>

        <Section title="FAQ">
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="font-medium">How much can I earn?</dt>
              <dd className="text-muted-foreground">
                We estimate an average of ${min}-{max}/day per device; actual earnings depend on the
                jobs your device runs and are not guaranteed.
              </dd>
            </div>
            <div>
              <dt className="font-medium">Can I stop sharing?</dt>
              <dd className="text-muted-foreground">
                Yes. Stop the agent at any time; a job it was running is handed back to the network.
              </dd>
            </div>
            <div>
              <dt className="font-medium">Does it slow my device down?</dt>
              <dd className="text-muted-foreground">
                Each job runs within set CPU, memory and time limits.
              </dd>
            </div>
          </dl>
        </Section>
      </DialogContent>
    </Dialog>
  );
}
