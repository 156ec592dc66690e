import { apiPaths, type Notification, type NotificationListResponse } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { providerUser, storeSession } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const LIST = `GET ${apiPaths.notifications.list}`;
const UNREAD_COUNT = `GET ${apiPaths.notifications.unreadCount}`;
const READ_ALL = `POST ${apiPaths.notifications.readAll}`;

function makeNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    kind: 'job_completed',
    title: 'Job completed',
    body: 'Fibonacci job f00dcafe finished on Studio Mac.',
    link: '/jobs/f00dcafe-0000-4000-8000-000000000001',
    created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    read_at: null,
    ...overrides,
  };
}

const offline = makeNotification({
  id: 'c0ffee00-0000-4000-8000-000000000002',
  kind: 'node_offline',
  title: 'Node went offline',
  body: 'Studio Mac has not sent a heartbeat for 5 minutes.',
  link: null,
});
const payout = makeNotification({
  id: 'c0ffee00-0000-4000-8000-000000000003',
  kind: 'payout_sent',
  title: 'Payout sent',
  body: '$52.10 is on its way to your bank account.',
  link: '/billing',
  created_at: '2026-10-01T09:00:00.000Z',
  read_at: '2026-10-01T10:00:00.000Z',
});

/**
 * A small notification server: pages of 20, newest first, marking read as the real one does.
 * `total` pads the list with read notifications after the given ones.
 */
function stubNotifications(given: Notification[], { total = given.length } = {}) {
  const all = [...given];
  for (let index = given.length; index < total; index += 1) {
    all.push(
      makeNotification({
        id: `01de0000-0000-4000-8000-${index.toString().padStart(12, '0')}`,
        title: `Older notice ${index.toString()}`,
        link: null,
        read_at: '2026-10-01T10:00:00.000Z',
      }),
    );
  }
  const unread = () => all.filter((notification) => notification.read_at === null).length;
  storeSession();
  const network = stubFetch()
    .on(ME, () => jsonResponse(200, providerUser))
    .on(UNREAD_COUNT, () => jsonResponse(200, { unread: unread() }))
    .on(LIST, (call) => {
      const page = Number(new URL(call.url, 'http://localhost').searchParams.get('page') ?? '1');
      const body: NotificationListResponse = {
        notifications: all.slice((page - 1) * 20, page * 20),
        unread: unread(),
        page,
        page_size: 20,
        total: all.length,
      };
      return jsonResponse(200, body);
    })
    .on(READ_ALL, () => {
      for (const notification of all) notification.read_at ??= new Date().toISOString();
      return jsonResponse(200, { message: 'All notifications marked as read' });
    });
  for (const notification of all) {
    network.on(`POST ${apiPaths.notifications.read(notification.id)}`, () => {
      notification.read_at ??= new Date().toISOString();
      return jsonResponse(200, notification);
    });
  }
  return network;
}

async function notificationList() {
  const section = await screen.findByRole('region', { name: 'All notifications' });
  return within(section).getAllByRole('listitem');
}

describe('notifications', () => {
  it("says 'No notifications yet' when there are none", async () => {
    stubNotifications([]);
    renderApp('/notifications');

    expect(
      await screen.findByRole('heading', { level: 2, name: 'No notifications yet' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
  });

  it('lists the notifications with their title, body and time, unread ones marked', async () => {
    stubNotifications([makeNotification(), offline, payout]);
    renderApp('/notifications');

    const items = await notificationList();
    expect(items).toHaveLength(3);
    const [first, second, third] = items;
    expect(first).toHaveTextContent('Unread: Job completed');
    expect(first).toHaveTextContent('Fibonacci job f00dcafe finished on Studio Mac.');
    expect(first).toHaveTextContent('5 minutes ago');
    expect(within(first ?? document.body).getByRole('link')).toHaveAttribute(
      'href',
      '/jobs/f00dcafe-0000-4000-8000-000000000001',
    );
    expect(second).toHaveTextContent('Unread: Node went offline');
    expect(within(second ?? document.body).getByRole('button')).toBeInTheDocument();
    // Read, older than a week: no unread mark, the date instead of "ago".
    expect(third).not.toHaveTextContent('Unread');
    expect(third).toHaveTextContent('Oct 1, 2026');
    expect(screen.getByText('2 unread')).toBeInTheDocument();
  });

  it('marks a notification read when it is opened, and follows its link', async () => {
    const network = stubNotifications([makeNotification(), offline]);
    const { user, router } = renderApp('/notifications');

    const [first] = await notificationList();
    await user.click(within(first ?? document.body).getByRole('link'));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/jobs/f00dcafe-0000-4000-8000-000000000001');
    });
    expect(
      network.callsTo(
        `POST ${apiPaths.notifications.read('c0ffee00-0000-4000-8000-000000000001')}`,
      ),
    ).toHaveLength(1);
  });

  it('marks a notification without a link read on click', async () => {
    const network = stubNotifications([offline]);
    const { user } = renderApp('/notifications');

    const [item] = await notificationList();
    await user.click(within(item ?? document.body).getByRole('button'));

    expect(await screen.findByText('All caught up')).toBeInTheDocument();
    expect(network.callsTo(`POST ${apiPaths.notifications.read(offline.id)}`)).toHaveLength(1);
    const [after] = await notificationList();
    expect(after).not.toHaveTextContent('Unread');
  });

  it('marks every notification read', async () => {
    const network = stubNotifications([makeNotification(), offline, payout]);
    const { user } = renderApp('/notifications');

    await notificationList();
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));

    expect(await screen.findByText('All caught up')).toBeInTheDocument();
    expect(network.callsTo(READ_ALL)).toHaveLength(1);
    for (const item of await notificationList()) expect(item).not.toHaveTextContent('Unread');
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    await waitFor(() => {
      expect(screen.getByRole('link', { name: 'Notifications' })).not.toHaveAttribute('aria-label');
    });
  });

  it('pages through 20 at a time with Previous and Next', async () => {
    const network = stubNotifications([makeNotification()], { total: 25 });
    const { user } = renderApp('/notifications');

    expect(await notificationList()).toHaveLength(20);
    const pagination = screen.getByRole('navigation', { name: 'Pagination' });
    expect(pagination).toHaveTextContent('Page 1 of 2');
    expect(within(pagination).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(within(pagination).getByRole('button', { name: 'Next' }));
    await waitFor(() => {
      expect(pagination).toHaveTextContent('Page 2 of 2');
    });
    await waitFor(async () => {
      expect(await notificationList()).toHaveLength(5);
    });
    expect(screen.getByText('Older notice 24')).toBeInTheDocument();
    expect(within(pagination).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(network.callsTo(LIST).map((call) => call.url)).toContain(
      `${apiPaths.notifications.list}?page=2`,
    );

    await user.click(within(pagination).getByRole('button', { name: 'Previous' }));
    await waitFor(() => {
      expect(pagination).toHaveTextContent('Page 1 of 2');
    });
  });

  it('refreshes when the server says a notification arrived', async () => {
    const network = stubNotifications([]);
    renderApp('/notifications');

    await screen.findByRole('heading', { level: 2, name: 'No notifications yet' });
    network.on(LIST, () =>
      jsonResponse(200, {
        notifications: [offline],
        unread: 1,
        page: 1,
        page_size: 20,
        total: 1,
      } satisfies NotificationListResponse),
    );
    network.on(UNREAD_COUNT, () => jsonResponse(200, { unread: 1 }));
    network.sendEvent('change', { kind: 'notification', id: offline.id });

    expect(await screen.findByText('Node went offline')).toBeInTheDocument();
    expect(
      await screen.findByRole('link', { name: 'Notifications, 1 unread' }),
    ).toBeInTheDocument();
  });
});
