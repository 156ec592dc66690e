import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { JobStatusBadge } from './job-status-badge';
import { NodeStatusBadge } from './node-status-badge';

describe('status badges', () => {
  it.each([
    ['online', 'Online'],
    ['paused', 'Paused'],
    ['offline', 'Offline'],
  ] as const)('shows node status %s as %s', (status, label) => {
    render(<NodeStatusBadge status={status} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });

  it('spins for queued and running jobs, which both count as running', () => {
    const { unmount } = render(<JobStatusBadge status="queued" />);
    expect(screen.getByText('queued')).toBeInTheDocument();
    expect(screen.getByTestId('status-spinner')).toBeInTheDocument();
    unmount();
    render(<JobStatusBadge status="running" />);
    expect(screen.getByTestId('status-spinner')).toBeInTheDocument();
  });

  it('does not spin for finished jobs', () => {
    render(<JobStatusBadge status="completed" />);
    expect(screen.getByText('completed')).toBeInTheDocument();
    expect(screen.queryByTestId('status-spinner')).not.toBeInTheDocument();
  });

  it('shows an unknown status as its own text in the red style', () => {
    render(<JobStatusBadge status="exploded" />);
    const badge = screen.getByText('exploded');
    expect(badge).toHaveAttribute('data-status', 'unknown');
    expect(badge.className).toContain('text-destructive');
  });
});
