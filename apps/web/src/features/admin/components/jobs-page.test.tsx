import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FailedJobs, JobQueueSummary } from '@chorus/shared/api/jobs';
import { JobsPage } from './jobs-page';

const queue = (over: Partial<JobQueueSummary>): JobQueueSummary => ({
  name: 'email-retry',
  title: 'E-mail retries',
  cron: null,
  ready: 0,
  deferred: 0,
  active: 0,
  failed: 0,
  completed: 0,
  last_completed_at: null,
  next_run_at: null,
  ...over,
});
const jobId = '6f1c2d3e-0000-4000-8000-000000000002';

describe('JobsPage', () => {
  it('lists each queue with its schedule in words and sizes, and retries a failed run', async () => {
    const retried: string[] = [];
    let failed: FailedJobs = {
      jobs: [
        {
          id: jobId,
          created_at: '2026-01-01T00:00:00.000Z',
          failed_at: '2026-01-01T00:01:00.000Z',
          retry_count: 2,
          error: 'Storage cannot be reached',
        },
      ],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/rest/v1/admin/jobs') {
          return Response.json({
            queues: [
              queue({ deferred: 3, completed: 12 }),
              queue({
                name: 'sweep-abandoned-uploads',
                title: 'Remove abandoned uploads',
                cron: '17 * * * *',
                failed: failed.jobs.length,
                next_run_at: '2026-01-01T01:17:00.000Z',
              }),
            ],
          });
        }
        if (url === '/rest/v1/admin/jobs/sweep-abandoned-uploads/failed') {
          return Response.json(failed);
        }
        if (init?.method === 'POST' && url.endsWith(`/failed/${jobId}/retry`)) {
          retried.push(url);
          failed = { jobs: [] };
          return Response.json({ retried: true });
        }
        return Response.json({ error: 'Not stubbed' }, { status: 404 });
      }),
    );
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <JobsPage />
      </QueryClientProvider>,
    );

    const sweep = (await screen.findByText('Remove abandoned uploads')).closest('tr')!;
    expect(within(sweep).getByText('At 17 minutes past the hour (UTC)')).toBeTruthy();
    const mail = screen.getByText('E-mail retries').closest('tr')!;
    expect(within(mail).getByText('When needed')).toBeTruthy();
    expect(within(mail).getByText('12')).toBeTruthy();

    fireEvent.click(within(sweep).getByRole('button', { name: /Show 1 failed/ }));
    expect(await screen.findByText('Storage cannot be reached')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: `Retry job ${jobId}` }));
    await waitFor(() => expect(retried).toHaveLength(1));
    expect(
      await screen.findByText('Nothing has failed in this queue. Failed runs are kept for a week.'),
    ).toBeTruthy();
  });
});
