import { apiPaths, NO_NODE_SUPPORTS_TYPE } from '@fabric/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { enterpriseUser, providerUser, storeSession } from '@/testing/fixtures';
import { formatDateTime } from '@/lib/format';
import { makeJob } from '@/testing/records';
import { renderApp } from '@/testing/render-app';

const JOB_ID = 'f00dcafe-0000-4000-8000-000000000001';
const NODE_ID = '22222222-bbbb-4000-8000-000000000002';
const ME = `GET ${apiPaths.auth.me}`;
const JOB = `GET ${apiPaths.jobs.detail(JOB_ID)}`;
const CANCEL = `POST ${apiPaths.jobs.cancel(JOB_ID)}`;
const JOBS = `GET ${apiPaths.jobs.list}`;

function signInAsEnterprise(job: ReturnType<typeof makeJob>) {
  storeSession({ role: 'enterprise', email: enterpriseUser.email });
  return stubFetch()
    .on(ME, () => jsonResponse(200, enterpriseUser))
    .on(JOB, () => jsonResponse(200, job))
    .on(JOBS, () => jsonResponse(200, { jobs: [], total: 0, page: 1, page_size: 20, counts: {} }));
}

/** jsdom's Blob has no text(); FileReader it does have. */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      resolve(typeof reader.result === 'string' ? reader.result : '');
    };
    reader.onerror = () => {
      reject(new Error('unreadable blob'));
    };
    reader.readAsText(blob);
  });
}

/** The value shown beside a summary label. */
function summaryValue(label: string): string {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

const finished = {
  status: 'completed',
  assigned_node_id: NODE_ID,
  started_at: '2026-11-22T09:00:05.000Z',
  finished_at: '2026-11-22T09:00:17.000Z',
  attempts: 1,
  progress: 1,
  usage: { wall_ms: 12_000, cpu_ms: 11_500, peak_memory_bytes: 48 * 1024 * 1024 },
} as const;

describe('Job Details', () => {
  it('shows a completed Fibonacci job: summary, cost, usage, parameters and the whole value', async () => {
    signInAsEnterprise(
      makeJob({
        ...finished,
        job_type: 'fibonacci',
        priority: 1,
        actual_cost: 0.03,
        params: { n: 10 },
        result: { n: 10, digits: 2, value: '55', head: '55', tail: '55', sha256: 'ab'.repeat(32) },
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByRole('heading', { name: 'Job Details', level: 1 })).toBeVisible();
    expect(await screen.findByText('completed')).toBeInTheDocument();
    expect(screen.getByText('f00dcafe')).toHaveClass('font-mono');
    expect(summaryValue('Type')).toBe('Fibonacci');
    expect(summaryValue('Priority')).toBe('High');
    expect(summaryValue('Node')).toBe('22222222');
    expect(summaryValue('Duration')).toBe('12 s');
    expect(summaryValue('Attempts')).toBe('1 of 3');
    expect(summaryValue('Verification')).toBe('Challenge passed');
    expect(summaryValue('Estimated cost')).toBe('$2.40');
    expect(summaryValue('Actual cost')).toBe('$0.03');
    expect(summaryValue('Wall time')).toBe('12 s');
    expect(summaryValue('CPU time')).toBe('12 s');
    expect(summaryValue('Peak memory')).toBe('48 MB');
    expect(screen.getByLabelText('Job parameters (JSON)')).toHaveTextContent('"n": 10');

    const result = screen.getByRole('heading', { name: 'Result' }).closest('[data-slot=card]');
    if (!(result instanceof HTMLElement)) throw new Error('no result card');
    expect(within(result).getByText('55', { selector: 'pre' })).toBeInTheDocument();
    expect(within(result).getByText('ab'.repeat(32))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument();
  });

  it("shows the CPU time the cost charges: the verified work, or a cancelled run's time", async () => {
    signInAsEnterprise(makeJob({ ...finished, actual_cost: 0.17, billed_cpu_ms: 80_000 }));
    const { unmount } = renderApp(`/jobs/${JOB_ID}`);
    expect(await screen.findByText('Billed CPU time', { selector: 'dt' })).toBeInTheDocument();
    expect(summaryValue('Billed CPU time')).toBe('1 min 20 sThe work its verified result needed');
    // What the node reported is shown apart, and said not to be billed.
    expect(screen.getByText('As the node reported it. Billing never depends on it.')).toBeVisible();
    unmount();

    signInAsEnterprise(
      makeJob({
        ...finished,
        status: 'cancelled',
        usage: null,
        actual_cost: 0.03,
        billed_cpu_ms: 15_000,
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);
    expect(await screen.findByText('Billed CPU time', { selector: 'dt' })).toBeInTheDocument();
    expect(summaryValue('Billed CPU time')).toBe('15 sThe time it ran, on one core');
  });

  it('has no billed CPU time for a job that cost nothing', async () => {
    signInAsEnterprise(makeJob({ ...finished, status: 'failed', actual_cost: 0 }));
    renderApp(`/jobs/${JOB_ID}`);
    expect(await screen.findByText('Actual cost', { selector: 'dt' })).toBeInTheDocument();
    expect(screen.queryByText('Billed CPU time')).not.toBeInTheDocument();
  });

  it('says how a completed result was verified: confirmed by a second provider, or not replicated', async () => {
    signInAsEnterprise(makeJob({ ...finished, replication: 'agreed' }));
    const { unmount } = renderApp(`/jobs/${JOB_ID}`);
    expect(await screen.findByText('Verification', { selector: 'dt' })).toBeInTheDocument();
    expect(summaryValue('Verification')).toBe('Challenge passed, confirmed by a second provider');
    unmount();

    signInAsEnterprise(makeJob({ ...finished, replication: 'not_replicated' }));
    renderApp(`/jobs/${JOB_ID}`);
    expect(await screen.findByText('Verification', { selector: 'dt' })).toBeInTheDocument();
    expect(summaryValue('Verification')).toBe(
      'Challenge passed; no second provider was free to replicate it',
    );
  });

  it('shows the first and last digits of a Fibonacci value too long to return whole', async () => {
    signInAsEnterprise(
      makeJob({
        ...finished,
        job_type: 'fibonacci',
        params: { n: 100_000 },
        result: {
          n: 100_000,
          digits: 20_899,
          head: '25974',
          tail: '68875',
          sha256: 'cd'.repeat(32),
        },
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByText('25974…68875')).toBeInTheDocument();
    expect(screen.getByText('20,899')).toBeInTheDocument();
  });

  it('shows a trained network: final metrics, both curves in words, the dataset and its weights', async () => {
    const zeros = (count: number) => btoa(String.fromCharCode(...new Uint8Array(count * 4)));
    signInAsEnterprise(
      makeJob({
        ...finished,
        job_type: 'neural_network_training',
        params: { epochs: 2 },
        result: {
          history: [
            { epoch: 1, loss: 1.9, accuracy: 0.41, val_loss: 1.5, val_accuracy: 0.6 },
            { epoch: 2, loss: 0.8, accuracy: 0.82, val_loss: 0.7, val_accuracy: 0.91 },
          ],
          final: { loss: 0.75, accuracy: 0.84, val_loss: 0.7, val_accuracy: 0.9137 },
          parameters: 4522,
          dataset: {
            name: 'digits',
            samples: 1797,
            features: 64,
            classes: 10,
            training_samples: 1438,
            validation_samples: 359,
          },
          weights: {
            format: 'float32-le-base64',
            activation: 'relu',
            output_activation: 'softmax',
            layers: [
              { kernel_shape: [64, 2], kernel: zeros(128), bias: zeros(2) },
              { kernel_shape: [2, 10], kernel: zeros(20), bias: zeros(10) },
            ],
          },
        },
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByText('Validation accuracy')).toBeInTheDocument();
    expect(screen.getByText('91.4%')).toBeInTheDocument();
    expect(screen.getByText('64 → 2 → 10')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Training loss went from 1.9 at epoch 1 to 0.8 at epoch 2; validation loss ended at 0.7.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Training accuracy went from 41% at epoch 1 to 82% at epoch 2; validation accuracy ended at 91%.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/1,438 trained on, 359 held out for validation/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download weights' })).toBeEnabled();
  });

  it('shows a matrix product: dimensions, checksum, Freivalds check and the matrix C', async () => {
    signInAsEnterprise(
      makeJob({
        ...finished,
        job_type: 'matrix_multiply',
        params: { a: [[1, 2]], b: [[3], [4]] },
        result: {
          rows: 2,
          inner: 3,
          cols: 2,
          checksum: 101.5,
          projection: [1, 2],
          freivalds: { rounds: 8, passed: true },
          c: [
            [19.25, 22],
            [43, 17.25],
          ],
        },
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByText('2×3 · 3×2')).toBeInTheDocument();
    expect(screen.getByText('101.5')).toBeInTheDocument();
    expect(screen.getByText('Passed')).toBeInTheDocument();
    expect(screen.getByText('8 rounds')).toBeInTheDocument();
    const matrix = screen.getByRole('region', { name: 'Product matrix C, scrollable' });
    expect(
      within(matrix)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['19.25', '22', '43', '17.25']);
  });

  it('says only the checksum and projection come back for a large matrix product', async () => {
    signInAsEnterprise(
      makeJob({
        ...finished,
        job_type: 'matrix_multiply',
        params: { size: 512 },
        result: {
          rows: 512,
          inner: 512,
          cols: 512,
          checksum: 123.25,
          projection: [],
          freivalds: { rounds: 4, passed: true },
        },
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByText('512×512 · 512×512')).toBeInTheDocument();
    expect(screen.getByText(/C has 262,144 entries/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Product matrix C/ })).not.toBeInTheDocument();
  });

  it('shows a prime sieve: limit, count, largest prime and the first primes', async () => {
    signInAsEnterprise(
      makeJob({
        ...finished,
        job_type: 'prime_sieve',
        params: { limit: 100 },
        result: { limit: 100, count: 25, largest: 97, first: [2, 3, 5, 7, 11] },
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByText('First 5 primes')).toBeInTheDocument();
    expect(screen.getByText('2, 3, 5, 7, 11')).toBeInTheDocument();
    expect(screen.getByText('Primes up to the limit').nextElementSibling).toHaveTextContent('25');
    expect(screen.getByText('Largest prime').nextElementSibling).toHaveTextContent('97');
    expect(screen.getByText('Limit').nextElementSibling).toHaveTextContent('100');
  });

  describe('Download JSON', () => {
    let savedBlob: Blob | undefined;
    beforeEach(() => {
      savedBlob = undefined;
      URL.createObjectURL = vi.fn((blob: Blob) => {
        savedBlob = blob;
        return 'blob:job-result';
      });
      URL.revokeObjectURL = vi.fn();
    });
    afterEach(() => {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    });

    it('saves the job id, type, params and whole result as job-<shortid>-result.json', async () => {
      const result = { limit: 10, count: 4, largest: 7, first: [2, 3, 5, 7] };
      signInAsEnterprise(
        makeJob({ ...finished, job_type: 'prime_sieve', params: { limit: 10 }, result }),
      );
      const clicked: HTMLAnchorElement[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        clicked.push(this);
      });
      const { user } = renderApp(`/jobs/${JOB_ID}`);

      await user.click(await screen.findByRole('button', { name: 'Download JSON' }));

      expect(clicked).toHaveLength(1);
      expect(clicked[0]?.download).toBe('job-f00dcafe-result.json');
      expect(clicked[0]?.href).toBe('blob:job-result');
      if (!savedBlob) throw new Error('no blob');
      expect(JSON.parse(await readText(savedBlob))).toEqual({
        job_id: JOB_ID,
        job_type: 'prime_sieve',
        params: { limit: 10 },
        result,
      });
    });
  });

  it('shows a running job with its progress bar, message, elapsed time and Cancel Job', async () => {
    signInAsEnterprise(
      makeJob({
        status: 'running',
        assigned_node_id: NODE_ID,
        started_at: new Date(Date.now() - 5000).toISOString(),
        attempts: 1,
        progress: 0.42,
        progress_message: 'Sieving segment 5 of 12',
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    const bar = await screen.findByRole('progressbar', { name: 'Progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '42');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByText('42%')).toBeInTheDocument();
    expect(screen.getByText('Sieving segment 5 of 12')).toBeInTheDocument();
    expect(summaryValue('Duration')).toMatch(/ s so far$/);
    expect(summaryValue('Finished')).toBe('—');
    expect(summaryValue('Actual cost')).toBe('—Charged when the job ends');
    expect(
      screen.getByText('The verified result appears here when the job completes.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Cancel Job' })).toBeInTheDocument();
  });

  it('shows why a queued job waits, and until when it waits before stopping free of charge', async () => {
    signInAsEnterprise(
      makeJob({
        status: 'queued',
        job_type: 'llm_inference',
        queue_reason: NO_NODE_SUPPORTS_TYPE,
        queue_expires_at: '2026-11-23T09:00:00.000Z',
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByText(NO_NODE_SUPPORTS_TYPE)).toBeInTheDocument();
    expect(
      screen.getByText(
        `If no node picks it up by ${formatDateTime('2026-11-23T09:00:00.000Z')}, it stops and nothing is charged.`,
      ),
    ).toBeInTheDocument();
    expect(summaryValue('Node')).toBe('Unassigned');
    expect(summaryValue('Duration')).toBe('—');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel Job' })).toBeInTheDocument();
  });

  it("says 'Waiting for a node' for a queued job without a reason", async () => {
    signInAsEnterprise(makeJob({ status: 'queued' }));
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByText('Waiting for a node')).toBeInTheDocument();
  });

  it('cancels after confirmation, posts to the cancel endpoint, toasts and shows the cancelled job', async () => {
    const running = makeJob({
      status: 'running',
      progress: 0.3,
      started_at: '2026-11-22T09:00:05.000Z',
    });
    const cancelled = makeJob({
      ...running,
      status: 'cancelled',
      error: 'Cancelled by its owner',
      finished_at: '2026-11-22T09:00:09.000Z',
    });
    let current = running;
    const network = signInAsEnterprise(running)
      .on(JOB, () => jsonResponse(200, current))
      .on(CANCEL, () => {
        current = cancelled;
        return jsonResponse(200, cancelled);
      });
    const { user } = renderApp(`/jobs/${JOB_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Cancel Job' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel job f00dcafe?' });
    expect(dialog).toHaveTextContent(/billed only for the compute it used up to cancellation/);
    expect(network.callsTo(CANCEL)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Job' }));

    expect(await screen.findByText('Job cancelled', { selector: '[data-title]' })).toBeVisible();
    expect(network.callsTo(CANCEL)).toHaveLength(1);
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(await screen.findByText('Cancelled by its owner')).toBeInTheDocument();
    expect(screen.getByText('cancelled', { selector: '[data-status]' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument();
    await waitFor(() => {
      expect(network.callsTo(JOB).length).toBeGreaterThanOrEqual(2);
    });
  });

  it('keeps the job when the dialog is dismissed', async () => {
    const network = signInAsEnterprise(makeJob({ status: 'queued' }));
    const { user } = renderApp(`/jobs/${JOB_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Cancel Job' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('The job leaves the queue and never runs.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep Job' }));

    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(network.callsTo(CANCEL)).toHaveLength(0);
  });

  it("toasts the server's message when the job can no longer be cancelled", async () => {
    signInAsEnterprise(makeJob({ status: 'running' })).on(CANCEL, () =>
      jsonResponse(409, { message: 'This job is already completed and cannot be cancelled' }),
    );
    const { user } = renderApp(`/jobs/${JOB_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Cancel Job' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, Cancel Job' }));

    expect(
      await screen.findByText('This job is already completed and cannot be cancelled'),
    ).toBeVisible();
  });

  it("toasts 'Failed to cancel job' when the server gives no message", async () => {
    signInAsEnterprise(makeJob({ status: 'queued' })).on(CANCEL, () => jsonResponse(500));
    const { user } = renderApp(`/jobs/${JOB_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Cancel Job' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, Cancel Job' }));

    expect(await screen.findByText('Failed to cancel job')).toBeVisible();
  });

  it('shows the error of a failed job in an alert, without a Cancel Job button', async () => {
    signInAsEnterprise(
      makeJob({
        status: 'failed',
        attempts: 3,
        error: 'The node stopped answering on each of 3 attempts',
        finished_at: '2026-11-22T09:10:00.000Z',
      }),
    );
    renderApp(`/jobs/${JOB_ID}`);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Job failed');
    expect(alert).toHaveTextContent('The node stopped answering on each of 3 attempts');
    expect(summaryValue('Attempts')).toBe('3 of 3');
    expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument();
  });

  it("shows 'Job not found' with a link back to My Jobs for an unknown id", async () => {
    storeSession({ role: 'enterprise', email: enterpriseUser.email });
    stubFetch()
      .on(ME, () => jsonResponse(200, enterpriseUser))
      .on(JOB, () => jsonResponse(404, { message: 'Job not found' }));
    renderApp(`/jobs/${JOB_ID}`);

    const notFound = await screen.findByRole('region', { name: 'Job not found' });
    expect(within(notFound).getByRole('link', { name: 'Back to My Jobs' })).toHaveAttribute(
      'href',
      '/jobs',
    );
  });

  it('tells a node provider that job details belong to the submitting enterprise, and loads nothing', async () => {
    storeSession();
    const network = stubFetch().on(ME, () => jsonResponse(200, providerUser));
    renderApp(`/jobs/${JOB_ID}`);

    expect(await screen.findByText('Job details are for enterprises')).toBeInTheDocument();
    expect(screen.getByText(/belong to the enterprise that submitted it/)).toBeInTheDocument();
    expect(network.callsTo(JOB)).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument();
  });
});
