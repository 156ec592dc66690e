import { jobTypeDefinition, SHORT_ID_LENGTH, type Job, type Node } from '@fabric/contract';

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

/**
 * A job type's name as people see it: its definition's display name, or for a name the client does
 * not know (a newer server) the words of its API name: "some_new_type" → "Some New Type".
 */
export function formatJobType(jobType: string): string {
  const known = jobTypeDefinition(jobType);
  if (known) return known.displayName;
  return jobType
    .split('_')
    .filter(Boolean)
    .map((word) =>
      ACRONYMS.has(word) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join(' ');
}

const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** "10:41 AM" from an ISO timestamp, for moments within the hour (an expiry); a dash when none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : timeOfDay.format(date);
}

/** "Nov 22, 2026, 10:41:07 AM" from an ISO timestamp; a dash when there is none. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : dateTime.format(date);
}

/** A length of time in milliseconds: "850 ms", "12.4 s", "3 min 05 s", "2 h 07 min". */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '—';
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const totalSeconds = Math.round(seconds);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const rest = totalSeconds % 60;
  if (hours === 0) return `${minutes} min ${String(rest).padStart(2, '0')} s`;
  return `${hours} h ${String(minutes).padStart(2, '0')} min`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in binary units, as operating systems show memory: "512 B", "1.5 MB", "16 GB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits)).toString()} ${BYTE_UNITS[unit] ?? 'B'}`;
}

/** A 0..1 share as a whole-number percentage ("97%"); null shows "N/A". */
export function formatPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return 'N/A';
  return `${Math.round(share * 100).toString()}%`;
}
