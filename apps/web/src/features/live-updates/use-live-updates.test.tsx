import { apiPaths } from '@fabric/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { makeJob, makeNode } from '@/testing/records';
import { renderApp } from '@/testing/render-app';
import { staleKeysOf } from './use-live-updates';

const ME = `GET ${apiPaths.auth.me}`;
const JOBS = `GET ${apiPaths.jobs.list}`;
const NODES = `GET ${apiPaths.nodes.list}`;

describe('live updates', () => {
  it('names the stale queries of each change per role', () => {
    const jobChange = { type: 'change', change: { kind: 'job', id: 'j1' } } as const;
    const nodeChange = { type: 'change', change: { kind: 'node', id: 'n1' } } as const;
    expect(staleKeysOf(jobChange, 'enterprise')).toEqual([['jobs'], ['job', 'j1']]);
    expect(staleKeysOf(jobChange, 'node_provider')).toEqual([['nodes']]);
    expect(staleKeysOf(nodeChange, 'node_provider')).toEqual([['nodes']]);
    expect(staleKeysOf({ type: 'resync', isFirst: false }, 'enterprise')).toBe('all');
    const balance = { type: 'change', change: { kind: 'balance', id: 'u1' } } as const;
    const notification = { type: 'change', change: { kind: 'notification', id: 'x' } } as const;
    expect(staleKeysOf(balance, 'enterprise')).toEqual([['payment']]);
    expect(staleKeysOf(notification, 'node_provider')).toEqual([['notifications']]);
  });

  it('My Jobs shows a job’s new status when the server says it changed, without a reload', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    let status = 'queued';
    const stub = stubFetch()
      .on(ME, () => jsonResponse(200, enterpriseUser))
      .on(JOBS, () =>
        jsonResponse(200, {
          jobs: [makeJob({ id: 'abcdef12-0000-4000-8000-000000000001', status })],
          total: 1,
          page: 1,
          page_size: 20,
          counts: { [status]: 1 },
        }),
      );
    renderApp('/jobs');
    expect(await screen.findByText('queued')).toBeInTheDocument();
    await waitFor(() => {
      expect(stub.callsTo(JOBS)).toHaveLength(1);
    });

    status = 'completed';
    stub.sendEvent('change', { kind: 'job', id: 'abcdef12-0000-4000-8000-000000000001' });
    expect(await screen.findByText('completed')).toBeInTheDocument();
    expect(stub.callsTo(JOBS)).toHaveLength(2);
  });

  it('My Nodes refetches when one of the provider’s nodes changes', async () => {
    storeSession({ role: 'node_provider', email: providerUser.email });
    let status: 'online' | 'paused' = 'online';
    const stub = stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes: [makeNode({ status })] }));
    renderApp('/nodes');
    expect(await screen.findByText('Online')).toBeInTheDocument();

    status = 'paused';
    stub.sendEvent('change', { kind: 'node', id: makeNode().id });
    expect(await screen.findByText('Paused')).toBeInTheDocument();
  });
});
