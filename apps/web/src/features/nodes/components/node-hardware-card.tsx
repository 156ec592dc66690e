import type { Node } from '@fabric/contract';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import {
  formatBytes,
  formatCpu,
  formatDateTime,
  formatJobType,
  formatMemory,
  shortId,
} from '@/lib/format';

/** The agent's own memory text, else its byte count. */
function memoryOf(node: Node): string {
  const stated = formatMemory(node);
  const bytes = node.hardware_info?.memory_bytes;
  return stated !== 'N/A' || bytes === undefined ? stated : formatBytes(bytes);
}

function systemOf(node: Node): string {
  const parts = [node.hardware_info?.os, node.hardware_info?.arch].filter(Boolean);
  return parts.length > 0 ? parts.join(' / ') : 'N/A';
}

/** What the device is and what its agent can run. */
export function NodeHardwareCard({ node }: { node: Node }) {
  const facts: [string, ReactNode][] = [
    ['CPU', formatCpu(node)],
    ['Cores', node.hardware_info?.cores ?? 'N/A'],
    ['Memory', memoryOf(node)],
    ['OS / Arch', systemOf(node)],
    ['Agent Version', node.agent_version ?? 'N/A'],
    ['Enrolled Since', formatDateTime(node.created_at)],
    [
      'Current Job',
      node.current_job_id ? (
        <span className="inline-flex items-center gap-1.5">
          <Spinner className="size-3.5 text-muted-foreground" />
          <span className="font-mono text-xs" title={node.current_job_id}>
            {shortId(node.current_job_id)}
          </span>
        </span>
      ) : (
        'None'
      ),
    ],
  ];

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Hardware</CardTitle>
      </CardHeader>
      <CardContent className="space-y-5">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2.5 text-sm">
          {facts.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="min-w-0 text-right font-medium break-words">{value}</dd>
            </div>
          ))}
        </dl>
        <div className="space-y-2">
          <h3 className="text-sm text-muted-foreground">Supported Job Types</h3>
          {node.supported_job_types.length > 0 ? (
            <ul className="flex flex-wrap gap-1.5" aria-label="Supported job types">
              {node.supported_job_types.map((jobType) => (
                <li key={jobType}>
                  <Badge variant="secondary">{formatJobType(jobType)}</Badge>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm font-medium">None reported</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
