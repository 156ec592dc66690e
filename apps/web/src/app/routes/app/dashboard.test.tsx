import { apiPaths } from '@fabric/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { providerUser, storeSession } from '@/testing/fixtures';
import { makeNode } from '@/testing/records';
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
