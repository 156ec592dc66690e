import type { Node } from '@fabric/contract';
import { Activity, CircleCheck, DollarSign, Gauge } from 'lucide-react';
import { useEffect, useState } from 'react';
import { StatCard } from '@/components/stat-card';
import { formatDateTime, formatPercent, formatUsd } from '@/lib/format';

const statusLabels: Record<Node['status'], string> = {
  online: 'Online',
  paused: 'Paused',
  offline: 'Offline',
};

/** "just now", "12 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function formatTimeAgo(iso: string, now: number): string {
  const elapsed = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (elapsed < 1) return 'just now';
  if (elapsed < 60) return `${elapsed} s ago`;
  const minutes = Math.floor(elapsed / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** The current time, renewed every second: the one clock this screen keeps (no polling). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function LastHeartbeat({ at }: { at: string }) {
  const now = useNow();
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      Last heartbeat {formatTimeAgo(at, now)}
    </time>
  );
}

/** Status with its last heartbeat, measured uptime, jobs completed and lifetime earnings. */
export function NodeStats({ node }: { node: Node }) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard
        title="Status"
        icon={Activity}
        value={statusLabels[node.status]}
        note={
          node.last_heartbeat ? <LastHeartbeat at={node.last_heartbeat} /> : 'Last heartbeat: never'
        }
      />
      <StatCard
        title="Uptime (24 h)"
        icon={Gauge}
        value={formatPercent(node.uptime_24h)}
        note={
          node.uptime_24h === null
            ? 'Measured once the agent checks in'
            : 'Measured from heartbeats'
        }
      />
      <StatCard title="Jobs Completed" icon={CircleCheck} value={node.jobs_completed} />
      <StatCard
        title="Lifetime Earnings"
        icon={DollarSign}
        value={formatUsd(node.lifetime_earnings)}
      />
    </div>
  );
}
