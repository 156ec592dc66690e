import { apiPaths } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { makeJob } from '@/testing/records';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const JOBS = `GET ${apiPaths.jobs.list}`;
const counts = { queued: 2, running: 1, completed: 4, failed: 3, cancelled: 1 };

function listOf(jobs: ReturnType<typeof makeJob>[], total = jobs.length, page = 1) {
  return { jobs, total, page, page_size: 20, counts };
}

describe('My Jobs', () => {
  it('shows each tab with its count: All sums every status, Running adds queued and running', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubFetch()
      .on(ME, () => jsonResponse(200, enterpriseUser))
      .on(JOBS, () => jsonResponse(200, listOf([makeJob()])));
    renderApp('/jobs');

    expect(await screen.findByRole('tab', { name: 'All 11' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Running 3' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Completed 4' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Failed 3' })).toBeInTheDocument();
  });

  it("shows short ids, cost and 'Unassigned' for a job without a node", async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    const assigned = makeJob({
      id: '11111111-aaaa-4000-8000-000000000001',
      assigned_node_id: '22222222-bbbb-4000-8000-000000000002',
      actual_cost: 1.5,
    });
    const waiting = makeJob({
      id: '33333333-cccc-4000-8000-000000000003',
      status: 'queued',
      job_type: 'llm_inference',
    });
    stubFetch()
      .on(ME, () => jsonResponse(200, enterpriseUser))
      .on(JOBS, () => jsonResponse(200, listOf([assigned, waiting])));
    renderApp('/jobs');

    const assignedRow = (await screen.findByText('11111111')).closest('tr');
    if (!assignedRow) throw new Error('no row');
    expect(within(assignedRow).getByText('22222222')).toBeInTheDocument();
    expect(within(assignedRow).getByText('$1.50')).toBeInTheDocument();
    expect(within(assignedRow).getByRole('link', { name: 'View job 11111111' })).toHaveAttribute(
      'href',
      `/jobs/${assigned.id}`,
    );

    const waitingRow = screen.getByText('33333333').closest('tr');
    if (!waitingRow) throw new Error('no row');
    expect(within(waitingRow).getByText('Unassigned')).toBeInTheDocument();
    expect(within(waitingRow).getByText('LLM Inference')).toBeInTheDocument();
    expect(within(waitingRow).getByText('$2.40')).toBeInTheDocument();
  });

  it('asks the server for the Running tab with status=running and pages with page', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    const network = stubFetch()
      .on(ME, () => jsonResponse(200, enterpriseUser))
      .on(JOBS, (call) => {
        const page = Number(new URL(call.url, 'http://localhost').searchParams.get('page'));
        return jsonResponse(200, listOf([makeJob({ status: 'running' })], 45, page));
      });
    const { user } = renderApp('/jobs');

    await user.click(await screen.findByRole('tab', { name: /Running/ }));
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();

    await waitFor(() => {
      const last = network.callsTo(JOBS).at(-1);
      const query = new URL(last?.url ?? '', 'http://localhost').searchParams;
      expect(query.get('status')).toBe('running');
      expect(query.get('page')).toBe('2');
    });

    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('Page 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  });

  it("shows 'No Jobs Yet' when there are no jobs", async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubFetch()
      .on(ME, () => jsonResponse(200, enterpriseUser))
      .on(JOBS, () =>
        jsonResponse(200, { jobs: [], total: 0, page: 1, page_size: 20, counts: {} }),
      );
    renderApp('/jobs');

    expect(await screen.findByText('No Jobs Yet')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All 0' })).toBeInTheDocument();
  });

  it('does not load the job list for a node provider', async () => {
    storeSession();
    const network = stubFetch().on(ME, () => jsonResponse(200, providerUser));
    renderApp('/jobs');

    expect(await screen.findByText('Jobs are for enterprises')).toBeInTheDocument();
    expect(network.callsTo(JOBS)).toHaveLength(0);
  });
});
