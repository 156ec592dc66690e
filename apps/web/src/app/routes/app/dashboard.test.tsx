import { apiPaths } from '@fabric/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { makeJob, makeNode } from '@/testing/records';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const NODES = `GET ${apiPaths.nodes.list}`;

function statValue(title: string) {
  return within(screen.getByRole('region', { name: title })).getByTestId('stat-value');
}

describe('provider dashboard', () => {
  it('sums the nodes into the stat cards and shows no invented balance', async () => {
    storeSession();
    const nodes = Array.from({ length: 6 }, (_, index) =>
      makeNode({
        id: `a1b2c3d4-0000-4000-8000-00000000000${index}`,
        name: `Device ${index}`,
        status: index < 2 ? 'online' : 'offline',
        jobs_completed: 3,
        lifetime_earnings: '1.25',
      }),
    );
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes }));
    renderApp('/');

    expect(await screen.findByText('Device 0')).toBeInTheDocument();
    expect(statValue('Active Nodes')).toHaveTextContent('2');
    expect(statValue('Jobs Completed')).toHaveTextContent('18');
    expect(statValue('Lifetime Earnings')).toHaveTextContent('$7.50');
    expect(statValue('Current Balance')).toHaveTextContent('—');
    expect(screen.getByText('Available with billing')).toBeInTheDocument();
    // The table shows the first 5 nodes only.
    expect(screen.getByText('Device 4')).toBeInTheDocument();
    expect(screen.queryByText('Device 5')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'View' })).toHaveLength(5);
  });
});

describe('enterprise dashboard', () => {
  it('shows the organization as heading, job figures from counts and the first 5 jobs', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    const jobs = Array.from({ length: 5 }, (_, index) =>
      makeJob({ id: `${index}0000000-aaaa-4000-8000-000000000000`, status: 'running' }),
    );
    stubFetch()
      .on(ME, () => jsonResponse(200, enterpriseUser))
      .on(`GET ${apiPaths.jobs.list}`, () =>
        jsonResponse(200, {
          jobs,
          total: 12,
          page: 1,
          page_size: 5,
          counts: { queued: 2, running: 3, completed: 6, failed: 1 },
        }),
      );
    renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Acme Research' })).toBeInTheDocument();
    expect(await screen.findByText('00000000')).toBeInTheDocument();
    expect(statValue('Jobs Running')).toHaveTextContent('5');
    expect(statValue('Jobs Completed')).toHaveTextContent('6');
    expect(statValue('Total Jobs')).toHaveTextContent('12');
    expect(statValue('Credit Balance')).toHaveTextContent('—');
    expect(screen.getAllByRole('link', { name: /^View job/ })).toHaveLength(5);
    expect(screen.getByRole('link', { name: 'Submit New Job' })).toHaveAttribute(
      'href',
      '/jobs/submit',
    );
  });
});
