import { apiPaths } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { makeJob, makeNode } from '@/testing/records';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const NODES = `GET ${apiPaths.nodes.list}`;
const BALANCE = `GET ${apiPaths.payment.balance}`;

function balanceOf(balance: number, heldCredits = 0, lifetimeEarnings = 0) {
  return {
    balance,
    credits_balance: balance,
    held_credits: heldCredits,
    pending_earnings: 0,
    lifetime_earnings: lifetimeEarnings,
    lifetime_spending: 0,
    this_month: 0,
    by_day: [],
  };
}

function statValue(title: string) {
  return within(screen.getByRole('region', { name: title })).getByTestId('stat-value');
}

describe('provider dashboard', () => {
  it('sums the nodes into the stat cards and shows balance and lifetime earnings from the balance call', async () => {
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
      .on(NODES, () => jsonResponse(200, { nodes }))
      .on(BALANCE, () => jsonResponse(200, balanceOf(42.5, 0, 9.75)));
    renderApp('/');

    expect(await screen.findByText('Device 0')).toBeInTheDocument();
    expect(statValue('Active Nodes')).toHaveTextContent('2');
    expect(statValue('Jobs Completed')).toHaveTextContent('18');
    // From the ledger: it includes earnings of nodes no longer enrolled (the list sums to $7.50).
    await waitFor(() => {
      expect(statValue('Lifetime Earnings')).toHaveTextContent('$9.75');
    });
    expect(
      await within(screen.getByRole('region', { name: 'Current Balance' })).findByText('$42.50'),
    ).toBeInTheDocument();
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
      )
      .on(BALANCE, () => jsonResponse(200, balanceOf(97.6, 4.8)));
    renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Acme Research' })).toBeInTheDocument();
    expect(await screen.findByText('00000000')).toBeInTheDocument();
    expect(statValue('Jobs Running')).toHaveTextContent('5');
    expect(statValue('Jobs Completed')).toHaveTextContent('6');
    expect(statValue('Total Jobs')).toHaveTextContent('12');
    expect(
      await within(screen.getByRole('region', { name: 'Credit Balance' })).findByText('$97.60'),
    ).toBeInTheDocument();
    expect(screen.getByText('$4.80 on hold for running jobs')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^View job/ })).toHaveLength(5);
    expect(screen.getByRole('link', { name: 'Submit New Job' })).toHaveAttribute(
      'href',
      '/jobs/submit',
    );
  });
});

describe('dashboard balance card', () => {
  it('shows a dash, not an invented amount, when the balance cannot be loaded', async () => {
    storeSession();
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes: [] }))
      .on(BALANCE, () => jsonResponse(500));
    renderApp('/');

    const card = await screen.findByRole('region', { name: 'Current Balance' });
    expect(await within(card).findByText('—')).toBeInTheDocument();
  });
});
