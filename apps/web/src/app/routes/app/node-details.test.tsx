import { apiPaths, type NodeEarningsResponse, type NodeJobAttempt } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { makeNode } from '@/testing/records';
import { renderApp } from '@/testing/render-app';

const NODE_ID = makeNode().id;
const ME = `GET ${apiPaths.auth.me}`;
const NODES = `GET ${apiPaths.nodes.list}`;
const NODE = `GET ${apiPaths.nodes.detail(NODE_ID)}`;
const EARNINGS = `GET ${apiPaths.nodes.earnings(NODE_ID)}`;
const JOBS = `GET ${apiPaths.nodes.jobs(NODE_ID)}`;
const PAUSE = `POST ${apiPaths.nodes.pause(NODE_ID)}`;
const RESUME = `POST ${apiPaths.nodes.resume(NODE_ID)}`;
const UNENROLL = `DELETE ${apiPaths.nodes.detail(NODE_ID)}`;

/** The screen's clock: "now" for relative times and the chart's last day. */
const NOW = new Date('2026-11-22T10:00:00.000Z');

function zeroEarnings(): NodeEarningsResponse {
  return { node_id: NODE_ID, total: '0.00', by_day: [], by_job: [] };
}

function makeAttempt(overrides: Partial<NodeJobAttempt> = {}): NodeJobAttempt {
  return {
    job_id: 'c0ffee00-0000-4000-8000-000000000001',
    job_type: 'matrix_multiply',
    attempt_number: 1,
    started_at: '2026-11-22T09:30:00.000Z',
    ended_at: '2026-11-22T09:30:02.500Z',
    outcome: 'completed',
    error: null,
    usage: { wall_ms: 2500, cpu_ms: 2400, peak_memory_bytes: 52_428_800 },
    earned: '0.00',
    ...overrides,
  };
}

/** A provider session and a network that knows this node; override any answer afterwards. */
function provider({
  node = makeNode(),
  earnings = zeroEarnings(),
  attempts = [] as NodeJobAttempt[],
} = {}) {
  storeSession();
  return stubFetch()
    .on(ME, () => jsonResponse(200, providerUser))
    .on(NODES, () => jsonResponse(200, { nodes: [] }))
    .on(NODE, () => jsonResponse(200, node))
    .on(EARNINGS, () => jsonResponse(200, earnings))
    .on(JOBS, () => jsonResponse(200, { attempts }));
}

describe('Node Details', () => {
  beforeAll(async () => {
    // The router loads this screen lazily, and it brings recharts: load it once up front so the
    // first test's wait for the screen does not also cover compiling the chart library.
    await import('./node-details');
  });

  beforeEach(() => {
    // jsdom lays nothing out; give recharts' ResponsiveContainer a real box to draw in.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
      new DOMRect(0, 0, 640, 240),
    );
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the node, its figures and its hardware', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    provider({
      node: makeNode({
        lifetime_earnings: '12.5',
        jobs_completed: 7,
        last_heartbeat: new Date(NOW.getTime() - 12_000).toISOString(),
        uptime_24h: 0.973,
        hardware_info: { cpu: 'Apple M2', cores: 8, memory: '16 GB', os: 'darwin', arch: 'arm64' },
        agent_version: '1.4.2',
        current_job_id: 'c0ffee00-0000-4000-8000-000000000009',
        supported_job_types: ['llm_inference', 'prime_sieve'],
      }),
    });
    renderApp(`/nodes/${NODE_ID}`);

    expect(await screen.findByTestId('node-name')).toHaveTextContent('Studio Mac');
    expect(screen.getByRole('heading', { level: 1, name: 'Node Details' })).toBeInTheDocument();
    expect(screen.getByTestId('device-id')).toHaveTextContent('device-studio-mac');

    const status = screen.getByRole('region', { name: 'Status' });
    expect(within(status).getByText('Online')).toBeInTheDocument();
    expect(within(status).getByText('Last heartbeat 12 s ago')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Uptime (24 h)' })).getByText('97%'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Jobs Completed' })).getByText('7'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Lifetime Earnings' })).getByText('$12.50'),
    ).toBeInTheDocument();

    const hardware = screen.getByRole('heading', { name: 'Hardware' }).closest('[data-slot=card]');
    if (!(hardware instanceof HTMLElement)) throw new Error('Hardware card missing');
    const facts = within(hardware);
    expect(facts.getByText('Apple M2')).toBeInTheDocument();
    expect(facts.getByText('8')).toBeInTheDocument();
    expect(facts.getByText('16 GB')).toBeInTheDocument();
    expect(facts.getByText('darwin / arm64')).toBeInTheDocument();
    expect(facts.getByText('1.4.2')).toBeInTheDocument();
    expect(facts.getByText('c0ffee00')).toBeInTheDocument();
    expect(facts.getByText('Nov 20, 2026, 9:00:00 AM', { exact: false })).toBeInTheDocument();
    const jobTypes = facts.getByRole('list', { name: 'Supported job types' });
    expect(within(jobTypes).getByText('LLM Inference')).toBeInTheDocument();
    expect(within(jobTypes).getByText('Prime Sieve')).toBeInTheDocument();
  });

  it('falls back for a node that has reported nothing yet', async () => {
    provider({
      node: makeNode({
        name: null,
        status: 'offline',
        hardware_info: null,
        last_heartbeat: null,
        uptime_24h: null,
        agent_version: null,
        supported_job_types: [],
        jobs_completed: 0,
      }),
    });
    renderApp(`/nodes/${NODE_ID}`);

    expect(await screen.findByTestId('node-name')).toHaveTextContent('Unnamed Node');
    expect(screen.getByText('Last heartbeat: never')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Uptime (24 h)' })).getByText('N/A'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Lifetime Earnings' })).getByText('$0.00'),
    ).toBeInTheDocument();
    // CPU, Cores, Memory, OS / Arch and Agent Version.
    expect(screen.getAllByText('N/A')).toHaveLength(6);
    expect(screen.getByText('None reported')).toBeInTheDocument();
    expect(screen.getByText('None')).toBeInTheDocument();
  });

  it('pauses an online node, says so and then offers Resume', async () => {
    // The server's node changes with the call, as a refetch after it would see.
    let current = makeNode({ status: 'online' });
    const network = provider()
      .on(NODE, () => jsonResponse(200, current))
      .on(PAUSE, () => {
        current = makeNode({ status: 'paused' });
        return jsonResponse(200, current);
      });
    const { user } = renderApp(`/nodes/${NODE_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Pause' }));

    expect(await screen.findByText('Node paused')).toBeInTheDocument();
    expect(network.callsTo(PAUSE)).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
  });

  it('shows the server message when pausing fails', async () => {
    provider().on(PAUSE, () => jsonResponse(409, { message: 'Node is unenrolled' }));
    const { user } = renderApp(`/nodes/${NODE_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Pause' }));

    expect(await screen.findByText('Node is unenrolled')).toBeInTheDocument();
  });

  it('offers Resume for a paused node and resumes it', async () => {
    let current = makeNode({ status: 'paused' });
    const network = provider()
      .on(NODE, () => jsonResponse(200, current))
      .on(RESUME, () => {
        current = makeNode({ status: 'online' });
        return jsonResponse(200, current);
      });
    const { user } = renderApp(`/nodes/${NODE_ID}`);

    const resume = await screen.findByRole('button', { name: 'Resume' });
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    await user.click(resume);

    expect(await screen.findByText('Node resumed')).toBeInTheDocument();
    expect(network.callsTo(RESUME)).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('asks before unenrolling, then unenrolls and returns to My Nodes', async () => {
    const network = provider().on(UNENROLL, () =>
      jsonResponse(200, { message: 'Node unenrolled' }),
    );
    const { user, router } = renderApp(`/nodes/${NODE_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Unenroll' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unenroll Studio Mac?' });
    expect(within(dialog).getByText(/no new jobs/)).toBeInTheDocument();
    expect(within(dialog).getByText(/handed back to the queue/)).toBeInTheDocument();
    expect(within(dialog).getByText(/agent stops/)).toBeInTheDocument();
    expect(within(dialog).getByText(/enroll the device again/)).toBeInTheDocument();
    expect(network.callsTo(UNENROLL)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Unenroll Node' }));

    expect(await screen.findByText('Node unenrolled')).toBeInTheDocument();
    expect(network.callsTo(UNENROLL)).toHaveLength(1);
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/nodes');
    });
  });

  it('stays on the node with the dialog open when unenrolling fails, and says why', async () => {
    provider().on(UNENROLL, () => jsonResponse(503, {}));
    const { user, router } = renderApp(`/nodes/${NODE_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Unenroll' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unenroll Studio Mac?' });
    await user.click(within(dialog).getByRole('button', { name: 'Unenroll Node' }));

    expect(await screen.findByText('Failed to unenroll node')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Unenroll Node' })).toBeEnabled();
    expect(dialog).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/nodes/${NODE_ID}`);
  });

  it('keeps the node when the unenroll dialog is cancelled', async () => {
    const network = provider();
    const { user, router } = renderApp(`/nodes/${NODE_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Unenroll' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(network.callsTo(UNENROLL)).toHaveLength(0);
    expect(router.state.location.pathname).toBe(`/nodes/${NODE_ID}`);
  });

  it('charts the last 30 days of earnings with their total', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    provider({
      earnings: {
        node_id: NODE_ID,
        total: '3.00',
        by_day: [
          { date: '2026-11-22', amount: '1.25' },
          { date: '2026-11-02', amount: '0.50' },
          // Outside the 30 days: part of the lifetime total, not of the chart.
          { date: '2026-10-01', amount: '1.25' },
        ],
        by_job: [],
      },
    });
    renderApp(`/nodes/${NODE_ID}`);

    const chart = await screen.findByRole('region', { name: 'Earnings (last 30 days)' });
    expect(await within(chart).findByTestId('earnings-total')).toHaveTextContent('$1.75');
    expect(within(chart).getByText('Lifetime $3.00')).toBeInTheDocument();
    const figure = within(chart).getByRole('figure');
    expect(figure).toHaveAccessibleDescription(
      '$1.75 earned from Oct 24, 2026 to Nov 22, 2026, on 2 of 30 days; the highest day was Nov 22, 2026 with $1.25.',
    );
    expect(within(chart).queryByText(/^No earnings yet/)).not.toBeInTheDocument();
  });

  it('draws a zero chart and says when earnings will appear while there are none', async () => {
    provider();
    renderApp(`/nodes/${NODE_ID}`);

    const chart = await screen.findByRole('region', { name: 'Earnings (last 30 days)' });
    expect(await within(chart).findByTestId('earnings-total')).toHaveTextContent('$0.00');
    expect(
      within(chart).getByText('No earnings yet. Each job this node completes adds its share here.'),
    ).toBeInTheDocument();
    expect(within(chart).getByRole('figure')).toHaveAccessibleDescription(/^Nothing earned from/);
  });

  it('lists the latest job attempts with their outcome, duration and earnings', async () => {
    const network = provider({
      attempts: [
        makeAttempt({
          job_id: 'aaaa1111-0000-4000-8000-000000000001',
          job_type: 'llm_inference',
          started_at: '2026-11-22T09:59:00.000Z',
          ended_at: null,
          outcome: null,
          usage: null,
        }),
        makeAttempt({ job_id: 'bbbb2222-0000-4000-8000-000000000002', earned: '0.42' }),
        makeAttempt({
          job_id: 'cccc3333-0000-4000-8000-000000000003',
          job_type: 'fibonacci',
          attempt_number: 2,
          ended_at: '2026-11-22T09:30:00.850Z',
          outcome: 'failed',
          error: 'Out of memory',
        }),
      ],
    });
    renderApp(`/nodes/${NODE_ID}`);

    const table = await screen.findByRole('table', { name: /Recent jobs/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    const [running, completed, failed] = rows.map((row) => within(row));

    expect(running?.getByText('aaaa1111')).toBeInTheDocument();
    expect(running?.getByText('LLM Inference')).toBeInTheDocument();
    expect(running?.getAllByText('running')).toHaveLength(2);

    expect(completed?.getByText('bbbb2222')).toBeInTheDocument();
    expect(completed?.getByText('Matrix Multiply')).toBeInTheDocument();
    expect(completed?.getByText('#1')).toBeInTheDocument();
    expect(completed?.getByText('2.5 s')).toBeInTheDocument();
    expect(completed?.getByText('completed')).toBeInTheDocument();
    expect(completed?.getByText('$0.42')).toBeInTheDocument();

    expect(failed?.getByText('#2')).toBeInTheDocument();
    expect(failed?.getByText('850 ms')).toBeInTheDocument();
    expect(failed?.getByText('failed')).toBeInTheDocument();
    expect(failed?.getByText('Out of memory')).toBeInTheDocument();

    // Phones get the same attempts as stacked entries.
    const list = screen.getByRole('list', { name: /Recent jobs/ });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);

    expect(network.callsTo(JOBS)[0]?.url).toContain('limit=20');
  });

  it("says 'No jobs yet' when the node has run nothing", async () => {
    provider();
    renderApp(`/nodes/${NODE_ID}`);

    expect(await screen.findByText('No jobs yet')).toBeInTheDocument();
    expect(screen.getByText(/Jobs appear here once this node runs one/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("shows 'Node not found' with a way back when the server does not know the node", async () => {
    provider().on(NODE, () => jsonResponse(404, { message: 'Node not found' }));
    renderApp(`/nodes/${NODE_ID}`);

    const notFound = await screen.findByRole('region', { name: 'Node not found' });
    expect(within(notFound).getByRole('link', { name: 'Back to My Nodes' })).toHaveAttribute(
      'href',
      '/nodes',
    );
    expect(screen.queryByRole('button', { name: 'Unenroll' })).not.toBeInTheDocument();
  });

  it("shows 'Node not found' for an address that cannot name a node, without asking", async () => {
    const network = provider();
    renderApp('/nodes/not-a-node');

    expect(await screen.findByRole('region', { name: 'Node not found' })).toBeInTheDocument();
    expect(network.calls.filter((call) => call.path.startsWith('/api/nodes'))).toHaveLength(0);
  });

  it('tells an enterprise that node details belong to node providers and loads nothing', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    const network = stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp(`/nodes/${NODE_ID}`);

    expect(await screen.findByText('Node details are for node providers')).toBeInTheDocument();
    expect(network.calls.filter((call) => call.path.startsWith('/api/nodes'))).toHaveLength(0);
  });
});
