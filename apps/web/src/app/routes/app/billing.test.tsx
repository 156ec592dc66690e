import { apiPaths, type BalanceResponse, type Transaction } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch, type RecordedCall } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const BALANCE = `GET ${apiPaths.payment.balance}`;
const TRANSACTIONS = `GET ${apiPaths.payment.transactions}`;
const PAYOUT = `POST ${apiPaths.payment.payout}`;
const ADD_CREDITS = `POST ${apiPaths.payment.addCredits}`;
const STATEMENT = `GET ${apiPaths.payment.statement}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function makeBalance(overrides: Partial<BalanceResponse> = {}): BalanceResponse {
  return {
    balance: 0,
    credits_balance: 0,
    held_credits: 0,
    pending_earnings: 0,
    lifetime_earnings: 0,
    lifetime_spending: 0,
    this_month: 0,
    by_day: [],
    ...overrides,
  };
}

function makeTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: '7a3b9c1d-0000-4000-8000-000000000001',
    created_at: '2026-11-20T10:15:00.000Z',
    description: 'Credits purchased (sandbox card)',
    amount: 25,
    kind: 'credit_purchase',
    job_id: null,
    ...overrides,
  };
}

function page(transactions: Transaction[], { total = transactions.length, page = 1 } = {}) {
  return jsonResponse(200, { transactions, page, page_size: 20, total });
}

function queryOf(call: RecordedCall | undefined): URLSearchParams {
  return new URL(call?.url ?? '/', 'http://localhost').searchParams;
}

function signIn(role: 'node_provider' | 'enterprise', balance: BalanceResponse = makeBalance()) {
  const user = role === 'enterprise' ? enterpriseUser : providerUser;
  storeSession({ role, email: user.email });
  return stubFetch()
    .on(ME, () => jsonResponse(200, user))
    .on(BALANCE, () => jsonResponse(200, balance))
    .on(TRANSACTIONS, () => page([]));
}

function statValue(title: string) {
  return within(screen.getByRole('region', { name: title })).getByTestId('stat-value');
}

async function openDialog(user: ReturnType<typeof renderApp>['user'], name: string) {
  await user.click(await screen.findByRole('button', { name }));
  return screen.findByRole('dialog');
}

describe('Billing for a node provider', () => {
  it("is titled Earnings with the provider's three cards and captions from the balance", async () => {
    signIn(
      'node_provider',
      makeBalance({
        balance: 42.5,
        credits_balance: 42.5,
        pending_earnings: 3.2,
        lifetime_earnings: 120.75,
        this_month: 3.2,
      }),
    );
    renderApp('/billing');

    expect(await screen.findByRole('heading', { name: 'Earnings', level: 1 })).toBeVisible();
    await waitFor(() => {
      expect(statValue('Current Balance')).toHaveTextContent('$42.50');
    });
    expect(statValue('Pending Earnings')).toHaveTextContent('$3.20');
    expect(statValue('Lifetime Earnings')).toHaveTextContent('$120.75');
    for (const caption of ['Ready for payout', 'Processing', 'Total earned']) {
      expect(screen.getByText(caption)).toBeInTheDocument();
    }
    expect(screen.getByRole('region', { name: 'Earnings (last 30 days)' })).toBeInTheDocument();
    const note = screen.getByRole('region', { name: 'How billing works' });
    expect(note).toHaveTextContent('You receive 80% of each job’s charge');
    expect(note).toHaveTextContent('minimum payout (default $50.00');
    expect(screen.queryByRole('button', { name: 'Add Credits' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download Invoice' })).not.toBeInTheDocument();
  });

  it('shows 0.00 in every card when the balance cannot be loaded', async () => {
    signIn('node_provider').on(BALANCE, () => jsonResponse(500));
    renderApp('/billing');

    await waitFor(() => {
      expect(statValue('Current Balance')).toHaveTextContent('$0.00');
    });
    expect(statValue('Pending Earnings')).toHaveTextContent('$0.00');
    expect(statValue('Lifetime Earnings')).toHaveTextContent('$0.00');
  });

  it('Payment Methods opens Settings', async () => {
    signIn('node_provider');
    const { user, router } = renderApp('/billing');

    await user.click(await screen.findByRole('link', { name: 'Payment Methods' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/settings');
    });
  });

  it("refuses an amount that is not above 0 with 'Please enter a valid amount' and one above the balance with 'Insufficient balance'", async () => {
    const network = signIn('node_provider', makeBalance({ balance: 12.5, credits_balance: 12.5 }));
    const { user } = renderApp('/billing');
    await waitFor(() => {
      expect(statValue('Current Balance')).toHaveTextContent('$12.50');
    });

    const dialog = await openDialog(user, 'Request Payout');
    expect(within(dialog).getByText('$12.50')).toBeInTheDocument();
    const amount = within(dialog).getByLabelText('Amount (USD)');
    expect(amount).toHaveAttribute('type', 'number');
    expect(amount).toHaveAttribute('min', '0');
    expect(amount).toHaveAttribute('step', '0.01');

    const submit = within(dialog).getByRole('button', { name: 'Request Payout' });
    await user.click(submit);
    expect(await within(dialog).findByText('Please enter a valid amount')).toBeInTheDocument();
    await user.type(amount, '0');
    await user.click(submit);
    expect(await within(dialog).findByText('Please enter a valid amount')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '12.51');
    await user.click(submit);
    expect(await within(dialog).findByText('Insufficient balance')).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(network.callsTo(PAYOUT)).toHaveLength(0);
  });

  it('requests the payout with an Idempotency-Key, toasts, closes, clears and refreshes the balance', async () => {
    const network = signIn('node_provider', makeBalance({ balance: 60, credits_balance: 60 })).on(
      PAYOUT,
      () =>
        jsonResponse(200, {
          message: 'Payout requested',
          payout: {
            id: '9c0ffee0-0000-4000-8000-000000000001',
            amount: 50,
            status: 'pending',
            created_at: '2026-11-22T10:00:00.000Z',
          },
          balance: makeBalance({ balance: 10, credits_balance: 10 }),
        }),
    );
    const { user } = renderApp('/billing');
    await waitFor(() => {
      expect(statValue('Current Balance')).toHaveTextContent('$60.00');
    });

    const dialog = await openDialog(user, 'Request Payout');
    await user.type(within(dialog).getByLabelText('Amount (USD)'), '50');
    await user.click(within(dialog).getByRole('button', { name: 'Request Payout' }));

    expect(await screen.findByText('Payout requested successfully')).toBeInTheDocument();
    const [call] = network.callsTo(PAYOUT);
    expect(call?.body).toEqual({ amount: 50 });
    expect(call?.headers.get('Idempotency-Key')).toMatch(UUID);
    expect(call?.headers.get('Authorization')).toBe('Bearer access-1');
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    await waitFor(() => {
      expect(network.callsTo(BALANCE).length).toBeGreaterThan(1);
    });

    const reopened = await openDialog(user, 'Request Payout');
    expect(within(reopened).getByLabelText('Amount (USD)')).toHaveValue(null);
  });

  it("toasts the server's refusal and keeps the dialog open; 'Failed to request payout' without a message", async () => {
    const refusal =
      'Connect a bank account that can receive payouts in Settings before requesting a payout.';
    let answer = jsonResponse(409, { message: refusal });
    const network = signIn('node_provider', makeBalance({ balance: 60, credits_balance: 60 })).on(
      PAYOUT,
      () => answer,
    );
    const { user } = renderApp('/billing');
    await waitFor(() => {
      expect(statValue('Current Balance')).toHaveTextContent('$60.00');
    });

    const dialog = await openDialog(user, 'Request Payout');
    await user.type(within(dialog).getByLabelText('Amount (USD)'), '20');
    await user.click(within(dialog).getByRole('button', { name: 'Request Payout' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    answer = jsonResponse(500);
    await user.click(within(dialog).getByRole('button', { name: 'Request Payout' }));
    expect(await screen.findByText('Failed to request payout')).toBeInTheDocument();
    // Each submission is its own request, with its own key.
    const keys = network.callsTo(PAYOUT).map((call) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('Billing for an enterprise', () => {
  it('is titled Billing & Credits with the enterprise cards, captions and credits on hold', async () => {
    signIn(
      'enterprise',
      makeBalance({
        balance: 97.6,
        credits_balance: 97.6,
        held_credits: 2.4,
        this_month: 4.35,
        lifetime_spending: 18.05,
      }),
    );
    renderApp('/billing');

    expect(
      await screen.findByRole('heading', { name: 'Billing & Credits', level: 1 }),
    ).toBeVisible();
    await waitFor(() => {
      expect(statValue('Credit Balance')).toHaveTextContent('$97.60');
    });
    expect(statValue('This Month')).toHaveTextContent('$4.35');
    expect(statValue('Lifetime Spending')).toHaveTextContent('$18.05');
    for (const caption of ['Available credits', 'Current month activity', 'Total spent']) {
      expect(screen.getByText(caption)).toBeInTheDocument();
    }
    expect(screen.getByText('$2.40 on hold for running jobs')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Spending (last 30 days)' })).toBeInTheDocument();
    const note = screen.getByRole('region', { name: 'How billing works' });
    expect(note).toHaveTextContent('Each job holds $2.40');
    expect(note).toHaveTextContent('$0.01 plus $0.002 per CPU-second');
    expect(screen.queryByRole('button', { name: 'Request Payout' })).not.toBeInTheDocument();
  });

  it('shows 0.00 in every card when the balance cannot be loaded, and no hold line', async () => {
    signIn('enterprise').on(BALANCE, () => jsonResponse(500));
    renderApp('/billing');

    await waitFor(() => {
      expect(statValue('Credit Balance')).toHaveTextContent('$0.00');
    });
    expect(statValue('This Month')).toHaveTextContent('$0.00');
    expect(statValue('Lifetime Spending')).toHaveTextContent('$0.00');
    expect(screen.queryByText(/on hold/)).not.toBeInTheDocument();
  });

  it('adds credits: validates, posts with an Idempotency-Key, toasts, closes and clears', async () => {
    const network = signIn('enterprise').on(ADD_CREDITS, () =>
      jsonResponse(200, {
        message: 'Credits added',
        status: 'completed',
        checkout_url: null,
        balance: makeBalance({ balance: 25, credits_balance: 25 }),
      }),
    );
    const { user } = renderApp('/billing');

    const dialog = await openDialog(user, 'Add Credits');
    const amount = within(dialog).getByLabelText('Amount (USD)');
    await user.type(amount, '-5');
    await user.click(within(dialog).getByRole('button', { name: 'Add Credits' }));
    expect(await within(dialog).findByText('Please enter a valid amount')).toBeInTheDocument();
    expect(network.callsTo(ADD_CREDITS)).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '25.50');
    await user.click(within(dialog).getByRole('button', { name: 'Add Credits' }));
    expect(await screen.findByText('Credits added successfully')).toBeInTheDocument();
    const [call] = network.callsTo(ADD_CREDITS);
    expect(call?.body).toEqual({ amount: 25.5 });
    expect(call?.headers.get('Idempotency-Key')).toMatch(UUID);
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    const reopened = await openDialog(user, 'Add Credits');
    expect(within(reopened).getByLabelText('Amount (USD)')).toHaveValue(null);
  });

  it('sends the browser to the card checkout when the purchase is pending', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', {
      href: window.location.href,
      origin: window.location.origin,
      assign,
    });
    signIn('enterprise').on(ADD_CREDITS, () =>
      jsonResponse(200, {
        message: 'Pay at checkout',
        status: 'pending',
        checkout_url: 'https://checkout.stripe.test/c/pay_123',
        balance: makeBalance(),
      }),
    );
    const { user } = renderApp('/billing');

    const dialog = await openDialog(user, 'Add Credits');
    await user.type(within(dialog).getByLabelText('Amount (USD)'), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Add Credits' }));
    await waitFor(() => {
      expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay_123');
    });
    expect(screen.queryByText('Credits added successfully')).not.toBeInTheDocument();
  });

  it('says the payment was received when the card checkout returns, and cleans the URL', async () => {
    signIn('enterprise');
    const { router } = renderApp('/billing?credits=added');

    expect(
      await screen.findByText(
        'Payment received. Your credits appear as soon as the card processor confirms it.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => {
      expect(router.state.location.search).toBe('');
    });
  });

  it("toasts the server's message, else 'Failed to add credits'", async () => {
    let answer = jsonResponse(502, { message: 'The card processor is unavailable' });
    signIn('enterprise').on(ADD_CREDITS, () => answer);
    const { user } = renderApp('/billing');

    const dialog = await openDialog(user, 'Add Credits');
    await user.type(within(dialog).getByLabelText('Amount (USD)'), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Add Credits' }));
    expect(await screen.findByText('The card processor is unavailable')).toBeInTheDocument();

    answer = jsonResponse(500);
    await user.click(within(dialog).getByRole('button', { name: 'Add Credits' }));
    expect(await screen.findByText('Failed to add credits')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('Transaction History', () => {
  it('asks the server by direction per tab and shows each empty message', async () => {
    const network = signIn('node_provider');
    const { user } = renderApp('/billing');

    expect(await screen.findByText('No transactions yet')).toBeInTheDocument();
    expect(queryOf(network.callsTo(TRANSACTIONS)[0]).get('direction')).toBeNull();
    expect(queryOf(network.callsTo(TRANSACTIONS)[0]).get('page_size')).toBe('20');

    await user.click(screen.getByRole('tab', { name: 'Earnings' }));
    expect(await screen.findByText('No income transactions')).toBeInTheDocument();
    expect(queryOf(network.callsTo(TRANSACTIONS).at(-1)).get('direction')).toBe('in');

    await user.click(screen.getByRole('tab', { name: 'Payouts' }));
    expect(await screen.findByText('No expense transactions')).toBeInTheDocument();
    expect(queryOf(network.callsTo(TRANSACTIONS).at(-1)).get('direction')).toBe('out');
  });

  it('names the enterprise tabs Credits and Expenses', async () => {
    signIn('enterprise');
    renderApp('/billing');

    expect(await screen.findByRole('tab', { name: 'Credits' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Expenses' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows skeleton rows while loading', async () => {
    signIn('enterprise').on(TRANSACTIONS, () => new Promise<Response>(() => undefined));
    renderApp('/billing');

    expect(await screen.findAllByTestId('transaction-skeleton')).not.toHaveLength(0);
  });

  it('shows date, short id, description and the absolute amount, green in and red out', async () => {
    signIn('enterprise').on(TRANSACTIONS, () =>
      page([
        makeTransaction(),
        makeTransaction({
          id: 'b4c5d6e7-0000-4000-8000-000000000002',
          description: 'Fibonacci job charged',
          amount: -0.03,
          kind: 'job_charge',
          job_id: 'f00dcafe-0000-4000-8000-000000000001',
        }),
      ]),
    );
    renderApp('/billing');

    expect(await screen.findByText('Fibonacci job charged')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Date' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Transaction ID' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Description' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Amount' })).toBeInTheDocument();
    expect(within(table).getByText('7a3b9c1d')).toBeInTheDocument();
    expect(within(table).getAllByText(/Nov 20, 2026/)).toHaveLength(2);
    expect(within(table).getByRole('link', { name: 'Fibonacci job charged' })).toHaveAttribute(
      'href',
      '/jobs/f00dcafe-0000-4000-8000-000000000001',
    );
    const [income, expense] = within(table).getAllByTestId('transaction-amount');
    expect(income).toHaveTextContent('$25.00');
    expect(income).toHaveClass('text-success');
    expect(expense).toHaveTextContent(/^\$0\.03$/);
    expect(expense).toHaveClass('text-destructive');
  });

  it('pages on the server, 20 at a time, with Previous and Next', async () => {
    const network = signIn('node_provider').on(TRANSACTIONS, (call) => {
      const pageNumber = Number(queryOf(call).get('page'));
      return page(
        [
          makeTransaction({
            id: `00000000-0000-4000-8000-00000000000${pageNumber}`,
            description: `Earnings page ${pageNumber}`,
          }),
        ],
        { total: 45, page: pageNumber },
      );
    });
    const { user } = renderApp('/billing');

    expect(await screen.findByText('Earnings page 1')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Earnings page 2')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(queryOf(network.callsTo(TRANSACTIONS).at(-1)).get('page')).toBe('2');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Earnings page 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Earnings page 2')).toBeInTheDocument();
  });
});

describe('Download Invoice', () => {
  const createObjectURL = vi.fn((_blob: Blob) => 'blob:statement-1');
  const revokeObjectURL = vi.fn();

  beforeEach(() => {
    createObjectURL.mockClear();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });
  afterEach(() => {
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  function currentMonth() {
    return new Date().toISOString().slice(0, 7);
  }

  it("fetches the chosen month's statement with the bearer and opens it in a new tab", async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.fn(() => tab);
    vi.stubGlobal('open', open);
    const network = signIn('enterprise').on(
      STATEMENT,
      () =>
        new Response('<!doctype html><title>Statement</title>', {
          status: 200,
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    const { user } = renderApp('/billing');

    const month = await screen.findByLabelText('Statement month');
    expect(month).toHaveValue(currentMonth());
    await user.click(screen.getByRole('button', { name: 'Download Invoice' }));

    await waitFor(() => {
      expect(tab.location.href).toBe('blob:statement-1');
    });
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    const [call] = network.callsTo(STATEMENT);
    expect(queryOf(call).get('month')).toBe(currentMonth());
    expect(call?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(createObjectURL.mock.calls[0]?.[0].type).toBe('text/html');
  });

  it('saves the statement as a file when the pop-up is blocked', async () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    );
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    signIn('enterprise').on(STATEMENT, () => new Response('<html></html>', { status: 200 }));
    const { user } = renderApp('/billing');

    await user.click(await screen.findByRole('button', { name: 'Download Invoice' }));
    await waitFor(() => {
      expect(clicked).toHaveLength(1);
    });
    expect(clicked[0]?.download).toBe(`fabric-statement-${currentMonth()}.html`);
    expect(clicked[0]?.href).toBe('blob:statement-1');
  });

  it("closes the new tab and toasts the server's message when the statement fails", async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    signIn('enterprise').on(STATEMENT, () =>
      jsonResponse(400, { message: 'month must not be in the future' }),
    );
    const { user } = renderApp('/billing');

    await user.click(await screen.findByRole('button', { name: 'Download Invoice' }));
    expect(await screen.findByText('month must not be in the future')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
  });
});
