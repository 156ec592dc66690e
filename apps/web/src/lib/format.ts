import { SHORT_ID_LENGTH, type Job, type Node } from '@fabric/contract';

const longDate = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});

/** "November 22, 2026". */
export function formatLongDate(date: Date): string {
  return longDate.format(date);
}

/** Job and node ids are shown as their first SHORT_ID_LENGTH characters. */
export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "$1,234.50" from a number or a decimal string; an unreadable value shows as "$0.00". */
export function formatUsd(value: number | string): string {
  const amount = typeof value === 'number' ? value : Number.parseFloat(value);
  return usd.format(Number.isFinite(amount) ? amount : 0);
}

/** The cost shown for a job: the actual cost, else the estimate, to 2 decimals; a dash when neither is known. */
export function formatJobCost(job: Pick<Job, 'actual_cost' | 'estimated_cost'>): string {
  const cost = job.actual_cost ?? job.estimated_cost;
  return cost === null ? '—' : formatUsd(cost);
}

/** Uptime as the spec states it: "99%" once the node has sent a heartbeat, else "N/A". */
export function formatUptime(node: Pick<Node, 'last_heartbeat'>): string {
  return node.last_heartbeat ? '99%' : 'N/A';
}

export function formatCpu(node: Pick<Node, 'hardware_info'>): string {
  return node.hardware_info?.cpu || 'N/A';
}

export function formatMemory(node: Pick<Node, 'hardware_info'>): string {
  return node.hardware_info?.memory || 'N/A';
}

const ACRONYMS = new Set(['llm', 'ai', 'ml']);

/** A readable name for a job type: "neural_network_training" → "Neural Network Training". */
export function formatJobType(jobType: string): string {
  return jobType
    .split('_')
    .filter(Boolean)
    .map((word) =>
      ACRONYMS.has(word) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join(' ');
}
