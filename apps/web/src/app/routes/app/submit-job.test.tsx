import { apiPaths, IDEMPOTENCY_KEY_HEADER } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, storeSession } from '@/testing/fixtures';
import { makeJob } from '@/testing/records';
import { renderApp } from '@/testing/render-app';

const ME = `GET ${apiPaths.auth.me}`;
const SUBMIT = `POST ${apiPaths.jobs.submit}`;
const JOBS = `GET ${apiPaths.jobs.list}`;
const BALANCE = `GET ${apiPaths.payment.balance}`;

function balanceOf(credits: number, heldCredits = 0) {
  return {
    balance: credits,
    credits_balance: credits,
    held_credits: heldCredits,
    pending_earnings: 0,
    lifetime_earnings: 0,
    lifetime_spending: 0,
    this_month: 0,
    by_day: [],
  };
}

function signInAsEnterprise() {
  storeSession({ role: 'enterprise', email: enterpriseUser.email });
  return stubFetch()
    .on(ME, () => jsonResponse(200, enterpriseUser))
    .on(JOBS, () => jsonResponse(200, { jobs: [], total: 0, page: 1, page_size: 20, counts: {} }))
    .on(BALANCE, () => jsonResponse(200, balanceOf(10)));
}

describe('Submit New Job', () => {
  it("asks for a job type with 'Please select a job type' and sends nothing", async () => {
    const network = signInAsEnterprise();
    const { user } = renderApp('/jobs/submit');

    await user.click(await screen.findByRole('button', { name: 'Submit Job' }));
    expect(await screen.findByText('Please select a job type')).toBeInTheDocument();
    expect(network.callsTo(SUBMIT)).toHaveLength(0);
  });

  it("refuses parameters that are not JSON with 'Invalid JSON in parameters field'", async () => {
    const network = signInAsEnterprise();
    const { user } = renderApp('/jobs/submit');

    await user.selectOptions(await screen.findByLabelText('Job Type'), 'fibonacci');
    const params = screen.getByLabelText('Job Parameters (JSON)');
    await user.clear(params);
    await user.type(params, '{{"n": ');
    await user.click(screen.getByRole('button', { name: 'Submit Job' }));
    expect(await screen.findByText('Invalid JSON in parameters field')).toBeInTheDocument();
    expect(network.callsTo(SUBMIT)).toHaveLength(0);
  });

  it('sends job_type, parsed params and an integer priority, then toasts and opens My Jobs', async () => {
    const network = signInAsEnterprise().on(SUBMIT, () =>
      jsonResponse(201, makeJob({ status: 'queued' })),
    );
    const { user, router } = renderApp('/jobs/submit');

    await user.selectOptions(await screen.findByLabelText('Job Type'), 'prime_sieve');
    expect(screen.getByText(/Optional: limit/)).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Priority'), 'High');
    const params = screen.getByLabelText('Job Parameters (JSON)');
    await user.clear(params);
    await user.type(params, '{{"limit": 1000}');
    await user.click(screen.getByRole('button', { name: 'Submit Job' }));

    expect(await screen.findByText('Job submitted successfully!')).toBeInTheDocument();
    expect(network.callsTo(SUBMIT)[0]?.body).toEqual({
      job_type: 'prime_sieve',
      params: { limit: 1000 },
      priority: 1,
    });
    // One Idempotency-Key per submission, so a retried request cannot queue the job twice.
    expect(network.callsTo(SUBMIT)[0]?.headers.get(IDEMPOTENCY_KEY_HEADER)).toMatch(
      /^[0-9a-f-]{36}$/,
    );
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/jobs');
    });
  });

  it('sends the default empty params and Normal priority when left as they are', async () => {
    const network = signInAsEnterprise().on(SUBMIT, () => jsonResponse(201, makeJob()));
    const { user } = renderApp('/jobs/submit');

    await user.selectOptions(await screen.findByLabelText('Job Type'), 'fibonacci');
    await user.click(screen.getByRole('button', { name: 'Submit Job' }));
    await waitFor(() => {
      expect(network.callsTo(SUBMIT)[0]?.body).toEqual({
        job_type: 'fibonacci',
        params: {},
        priority: 0,
      });
    });
  });

  it("shows the server's message naming the bad param, and stays on the page", async () => {
    signInAsEnterprise().on(SUBMIT, () =>
      jsonResponse(400, { message: 'n must be at most 10000000', field: 'params.n' }),
    );
    const { user, router } = renderApp('/jobs/submit');

    await user.selectOptions(await screen.findByLabelText('Job Type'), 'fibonacci');
    const params = screen.getByLabelText('Job Parameters (JSON)');
    await user.clear(params);
    await user.type(params, '{{"n": 99999999999}');
    await user.click(screen.getByRole('button', { name: 'Submit Job' }));

    const form = screen.getByRole('form', { name: 'Submit New Job' });
    expect(await within(form).findByText('n must be at most 10000000')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/jobs/submit');
  });

  it("toasts 'Failed to submit job' when the server gives no message", async () => {
    signInAsEnterprise().on(SUBMIT, () => jsonResponse(500));
    const { user } = renderApp('/jobs/submit');

    await user.selectOptions(await screen.findByLabelText('Job Type'), 'fibonacci');
    await user.click(screen.getByRole('button', { name: 'Submit Job' }));
    expect(await screen.findByText('Failed to submit job')).toBeInTheDocument();
  });
  it('shows the available credits and how many jobs they cover: floor(balance / 2.40)', async () => {
    signInAsEnterprise().on(BALANCE, () => jsonResponse(200, balanceOf(10, 2.4)));
    renderApp('/jobs/submit');

    const panel = await screen.findByRole('region', { name: 'Credit Balance' });
    expect(await within(panel).findByText('$10.00')).toBeInTheDocument();
    expect(panel).toHaveTextContent('Enough for 4 jobs at $2.40 each');
    expect(panel).toHaveTextContent('$2.40 on hold for running jobs');
    expect(within(panel).queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows $0.00 and a link to add credits when the balance is empty or cannot be loaded', async () => {
    signInAsEnterprise().on(BALANCE, () => jsonResponse(500));
    renderApp('/jobs/submit');

    const panel = await screen.findByRole('region', { name: 'Credit Balance' });
    expect(await within(panel).findByText('$0.00')).toBeInTheDocument();
    expect(panel).toHaveTextContent('Enough for 0 jobs');
    expect(within(panel).getByRole('link', { name: 'Add credits to run jobs' })).toHaveAttribute(
      'href',
      '/billing',
    );
  });
  // The provider redirect is covered in app/router.test.tsx.
});
