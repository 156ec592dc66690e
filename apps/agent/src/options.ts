import { availableParallelism, homedir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { enrollmentCodeSchema } from '@fabric/contract';
import { z } from 'zod';

// Command-line flags of the agent. A device enrolls once, with a one-time code from Add Node
// (--code) or with the provider's email and password; the password is never a flag: it comes from
// FABRIC_PASSWORD or a prompt and is used once. Afterwards the device token in the data dir is used.

export const AGENT_VERSION = '0.1.0';

export const HELP_TEXT = `Fabric node agent ${AGENT_VERSION}: share this device's compute on the Fabric network.

Usage: node fabric-agent.mjs --server <url> --code <enrollment code> [options]
       node fabric-agent.mjs --server <url> --email <email> [options]
       npm run agent -- --server <url> ... (from the repository)

Options:
  --server <url>         Fabric server to join, e.g. http://localhost:8080 (required)
  --code <code>          one-time enrollment code from Add Node in My Nodes; enrolls this
                         device without your password (needed only the first time)
  --email <email>        or: your node-provider account, the first time on a device
                         (the password is read from FABRIC_PASSWORD or asked for, never a flag)
  --name <name>          name of this node as shown in My Nodes (default: the host name)
  --data-dir <dir>       where the device id, device token and log are kept
                         (default: ~/.fabric-agent)
  --max-cores <n>        cores a job may use (default: all, here ${availableParallelism()})
  --max-memory-mb <n>    memory a job may use before it is stopped (default: 2048)
  --job-timeout <sec>    wall-clock limit of one job (default: 3600)
  --log-file <file>      log file (default: <data-dir>/agent.log)
  --help                 show this help

Ctrl-C once: finish the current job, then stop. Ctrl-C twice: hand the job back to the network now.
`;

const optionsSchema = z.object({
  server: z
    .url({
      error: (issue) =>
        issue.input === undefined
          ? '--server is required, e.g. --server http://localhost:8080'
          : '--server must be a URL such as http://localhost:8080',
    })
    .transform((url) => url.replace(/\/+$/, '')),
  email: z.email('--email must be an email address').optional(),
  code: z
    .string()
    .optional()
    .transform((code, context) => {
      if (code === undefined) return undefined;
      const parsed = enrollmentCodeSchema.safeParse(code);
      if (parsed.success) return parsed.data;
      context.addIssue({
        code: 'custom',
        message: '--code must be the 12-character code from Add Node, like ABCD-EFGH-JKMN',
      });
      return z.NEVER;
    }),
  name: z
    .string()
    .trim()
    .min(1, '--name must not be empty')
    .max(100, '--name must be at most 100 characters')
    .optional(),
  dataDir: z.string().min(1),
  maxCores: z.coerce
    .number({ error: '--max-cores must be a whole number' })
    .int('--max-cores must be a whole number')
    .min(1, '--max-cores must be at least 1')
    .max(1024, '--max-cores must be at most 1024'),
  maxMemoryMb: z.coerce
    .number({ error: '--max-memory-mb must be a whole number' })
    .int('--max-memory-mb must be a whole number')
    .min(64, '--max-memory-mb must be at least 64'),
  jobTimeoutSeconds: z.coerce
    .number({ error: '--job-timeout must be a whole number of seconds' })
    .int('--job-timeout must be a whole number of seconds')
    .min(1, '--job-timeout must be at least 1 second'),
  logFile: z.string().min(1),
});
export type AgentOptions = z.infer<typeof optionsSchema>;

export type ParsedCommandLine =
  { kind: 'help' } | { kind: 'run'; options: AgentOptions } | { kind: 'error'; message: string };

export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: 'string' },
        email: { type: 'string' },
        code: { type: 'string' },
        name: { type: 'string' },
        'data-dir': { type: 'string' },
        'max-cores': { type: 'string' },
        'max-memory-mb': { type: 'string' },
        'job-timeout': { type: 'string' },
        'log-file': { type: 'string' },
        password: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };
  if (values.code !== undefined && values.email !== undefined) {
    return {
      kind: 'error',
      message: 'Give --code or --email, not both: the code enrolls the device on its own.',
    };
  }
  if (values.password !== undefined) {
    return {
      kind: 'error',
      message: 'The password is never given as a flag: set FABRIC_PASSWORD or type it when asked.',
    };
  }
  const dataDir = path.resolve(values['data-dir'] ?? path.join(homedir(), '.fabric-agent'));
  const parsed = optionsSchema.safeParse({
    server: values.server,
    email: values.email,
    code: values.code,
    name: values.name,
    dataDir,
    maxCores: values['max-cores'] ?? availableParallelism(),
    maxMemoryMb: values['max-memory-mb'] ?? 2048,
    jobTimeoutSeconds: values['job-timeout'] ?? 3600,
    logFile: path.resolve(values['log-file'] ?? path.join(dataDir, 'agent.log')),
  });
  if (!parsed.success)
    return { kind: 'error', message: parsed.error.issues[0]?.message ?? 'Invalid options' };
  return { kind: 'run', options: parsed.data };
}
