import { RUNNABLE_JOB_TYPES, type Node } from '@fabric/contract';
import { hostname } from 'node:os';
import { readHardwareInfo } from './hardware.ts';
import type { AgentLog } from './log.ts';
import { AGENT_VERSION, type AgentOptions } from './options.ts';
import { promptPassword } from './password-prompt.ts';
import type { ServerClient } from './server-client.ts';
import { saveState, type AgentState } from './state.ts';

export interface EnrollDependencies {
  options: AgentOptions;
  state: AgentState;
  client: ServerClient;
  log: AgentLog;
  /** FABRIC_PASSWORD, read by the CLI entry (the only place that reads the environment). */
  passwordFromEnvironment: string | undefined;
}

/**
 * Makes sure this device is enrolled on the server and the client carries its device token.
 * The first time (or after an unenroll) it enrolls with the one-time code from Add Node, or signs
 * in with the provider's email and password and registers the device; the password is used for
 * that one call and never stored.
 */
export async function ensureEnrolled({
  options,
  state,
  client,
  log,
  passwordFromEnvironment,
}: EnrollDependencies): Promise<void> {
  const existing = state.enrollments[options.server];
  if (existing) {
    client.useToken(existing.device_token);
    return;
  }
  const device = {
    device_id: state.device_id,
    name: options.name ?? hostname(),
    hardware_info: readHardwareInfo(options.maxCores),
    supported_job_types: [...RUNNABLE_JOB_TYPES],
    agent_version: AGENT_VERSION,
  };
  let registered;
  if (options.code) {
    registered = await client.enroll({ ...device, enrollment_code: options.code });
  } else if (options.email) {
    const password =
      passwordFromEnvironment ?? (await promptPassword(`Password for ${options.email}: `));
    const session = await client.login(options.email, password);
    registered = await client.register(session.access_token, device);
  } else {
    throw new Error(
      'This device is not enrolled on that server yet: give --code with a code from Add Node in My Nodes, or --email with your node-provider account.',
    );
  }
  state.enrollments[options.server] = {
    node_id: registered.node.id,
    device_token: registered.device_token,
    ...(options.email ? { email: options.email } : {}),
  };
  await saveState(options.dataDir, state);
  client.useToken(registered.device_token);
  log.info(`Enrolled this device as node ${describeNode(registered.node)} on ${options.server}`, {
    node_id: registered.node.id,
    device_id: state.device_id,
  });
}

/** Forget the enrollment (the server unenrolled the node or no longer knows the token). */
export async function forgetEnrollment(options: AgentOptions, state: AgentState): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the record is keyed by server URL
  delete state.enrollments[options.server];
  await saveState(options.dataDir, state);
}

function describeNode(node: Node): string {
  return `${node.name ?? 'Unnamed Node'} (${node.id.slice(0, 8)})`;
}
