import { apiPaths } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { formatTime } from '@/lib/format';
import { makeNode } from '@/testing/records';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const NODES = `GET ${apiPaths.nodes.list}`;
const CREATE_CODE = `POST ${apiPaths.nodes.enrollmentCodes}`;

describe('My Nodes', () => {
  it("shows 'No Nodes Registered' when the provider has no nodes", async () => {
    storeSession();
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes: [] }));
    renderApp('/nodes');

    expect(await screen.findByText('No Nodes Registered')).toBeInTheDocument();
  });

  it('shows every field of a node card and the fallbacks of a bare node', async () => {
    storeSession();
    const full = makeNode({ lifetime_earnings: '12.5', jobs_completed: 7 });
    const bare = makeNode({
      id: 'b1b2c3d4-0000-4000-8000-000000000002',
      name: null,
      device_id: 'device-bare',
      status: 'offline',
      hardware_info: null,
      last_heartbeat: null,
      jobs_completed: 0,
    });
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes: [full, bare] }));
    renderApp('/nodes');

    const fullCard = await screen.findByRole('article', { name: 'Studio Mac' });
    expect(within(fullCard).getByText('device-studio-mac')).toBeInTheDocument();
    expect(within(fullCard).getByText('Online')).toBeInTheDocument();
    expect(within(fullCard).getByText('Apple M2')).toBeInTheDocument();
    expect(within(fullCard).getByText('16 GB')).toBeInTheDocument();
    expect(within(fullCard).getByText('7')).toBeInTheDocument();
    expect(within(fullCard).getByText('$12.50')).toBeInTheDocument();
    expect(within(fullCard).getByText('99%')).toBeInTheDocument();

    const bareCard = screen.getByRole('article', { name: 'Unnamed Node' });
    expect(within(bareCard).getByText('device-bare')).toBeInTheDocument();
    expect(within(bareCard).getByText('Offline')).toBeInTheDocument();
    // CPU, Memory and Uptime all fall back to N/A.
    expect(within(bareCard).getAllByText('N/A')).toHaveLength(3);
  });

  it("opens the node detail page when a card's link is chosen with the keyboard", async () => {
    storeSession();
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes: [makeNode()] }));
    const { router, user } = renderApp('/nodes');

    const card = await screen.findByRole('link', { name: 'Studio Mac' });
    card.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe(`/nodes/${makeNode().id}`);
    });
  });

  it('shows the agent command for this origin and the signed-in email in the Add Node dialog', async () => {
    storeSession();
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes: [] }));
    const { user } = renderApp('/nodes');

    await user.click(await screen.findByRole('button', { name: 'Add Node' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('agent-command')).toHaveTextContent(
      `node fabric-agent.mjs --server ${window.location.origin} --email ada@example.com`,
    );
    const downloads = within(dialog).getAllByRole('link', { name: /^Download for/ });
    expect(downloads.length).toBeGreaterThan(0);
    for (const link of downloads) expect(link).toHaveAttribute('href', '/api/agent/download');
    expect(within(dialog).getByText(/\$2-5\/day per device/)).toBeInTheDocument();
  });

  it('creates a one-time enrollment code in the Add Node dialog and shows the command with it', async () => {
    storeSession();
    const network = stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes: [] }))
      .on(CREATE_CODE, () =>
        jsonResponse(201, { code: 'ABCD-EFGH-JKMN', expires_at: '2026-11-22T10:15:00.000Z' }),
      );
    const { user } = renderApp('/nodes');

    await user.click(await screen.findByRole('button', { name: 'Add Node' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('agent-code-command')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create Enrollment Code' }));

    expect(await within(dialog).findByTestId('agent-code-command')).toHaveTextContent(
      `node fabric-agent.mjs --server ${window.location.origin} --code ABCD-EFGH-JKMN`,
    );
    expect(network.callsTo(CREATE_CODE)).toHaveLength(1);
    expect(
      within(dialog).getByText(
        `Works once, until ${formatTime('2026-11-22T10:15:00.000Z')}. The device never sees your password.`,
      ),
    ).toBeInTheDocument();
    // Another code can be made, e.g. for the next device.
    expect(within(dialog).getByRole('button', { name: 'New Code' })).toBeInTheDocument();
  });

  it('says why when no enrollment code could be created', async () => {
    storeSession();
    stubFetch()
      .on(ME, () => jsonResponse(200, providerUser))
      .on(NODES, () => jsonResponse(200, { nodes: [] }))
      .on(CREATE_CODE, () => jsonResponse(503, { message: 'Database unavailable' }));
    const { user } = renderApp('/nodes');

    await user.click(await screen.findByRole('button', { name: 'Add Node' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create Enrollment Code' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Database unavailable');
  });

  it('does not load the node list for an enterprise', async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    const network = stubFetch().on(ME, () => jsonResponse(200, enterpriseUser));
    renderApp('/nodes');

    expect(await screen.findByText('Nodes are for node providers')).toBeInTheDocument();
    expect(network.callsTo(NODES)).toHaveLength(0);
  });
});
