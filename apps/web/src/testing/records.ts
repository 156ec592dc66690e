import type { Job, Node } from '@fabric/contract';

/** A node as GET /api/nodes returns it; override any field. */
export function makeNode(overrides: Partial<Node> = {}): Node {
  return {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    name: 'Studio Mac',
    device_id: 'device-studio-mac',
    status: 'online',
    jobs_completed: 12,
    lifetime_earnings: '0.00',
    hardware_info: { cpu: 'Apple M2', memory: '16 GB' },
    last_heartbeat: '2026-11-22T09:00:00.000Z',
    supported_job_types: ['matrix_multiply', 'fibonacci', 'prime_sieve'],
    agent_version: '1.0.0',
    current_job_id: null,
    uptime_24h: 0.97,
    created_at: '2026-11-20T09:00:00.000Z',
    ...overrides,
  };
}

/** A job as GET /api/jobs returns it; override any field. */
export function makeJob(overrides: Partial<Job> = {}): Job {
  return {
    id: 'f00dcafe-0000-4000-8000-000000000001',
    job_type: 'fibonacci',
    status: 'completed',
    priority: 0,
    params: {},
    estimated_cost: 2.4,
    actual_cost: null,
    assigned_node_id: null,
    created_at: '2026-11-22T09:00:00.000Z',
    started_at: null,
    finished_at: null,
    attempts: 0,
    max_attempts: 3,
    progress: 0,
    progress_message: null,
    queue_reason: null,
    queue_expires_at: null,
    result: null,
    error: null,
    usage: null,
    billed_cpu_ms: null,
    replication: null,
    ...overrides,
  };
}
