import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Trends } from '@chorus/shared/api/trends';
import { sampleTrendStats } from '@chorus/shared/sample-stats';
import { renderRoutes } from '@/test/render';
import { TrendsPage } from './trends-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const trends = (over: Partial<Trends> = {}): Trends => ({
  prompts: {
    days7: [{ id: 'p1', title: 'Polite follow-up email', count: 7 }],
    days30: [
      { id: 'p2', title: 'SQL from a question', count: 31 },
      { id: 'p1', title: 'Polite follow-up email', count: 12 },
    ],
  },
  scenarios: { days7: [], days30: [{ id: 's1', title: 'Review a pull request', count: 9 }] },
  min_count: 5,
  generated_at: '2026-05-01T10:00:00.000Z',
  ...over,
});

const stub = (answer: () => Response) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      new URL(String(input), window.location.origin).pathname === '/rest/v1/trends'
        ? answer()
        : json({ error: 'unexpected' }, 500),
    ),
  );

const renderTrends = () =>
  renderRoutes({ path: '/trends', routes: [{ path: '/trends', element: <TrendsPage /> }] });

describe('the trends page', () => {
  it('shows the sample list as a chart and a table, said to be sample figures', () => {
    stub(() => json(trends()));
    renderTrends();
    const uses = screen.getByRole('region', { name: 'Trending uses' });
    expect(within(uses).getByText('Sample figures')).toBeTruthy();
    expect(within(uses).getByTestId('trends-sample-uses-chart').children).toHaveLength(
      sampleTrendStats.length,
    );
    const rows = within(within(uses).getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(sampleTrendStats.length + 1);
    expect(rows[1]!.textContent).toBe('Comparing models side by side2,14024%');
    expect(document.title).toBe('Trends · Chorus');
    expect(
      screen.getAllByRole('link', { name: /Ask/ }).map((link) => link.getAttribute('href')),
    ).toEqual(['/trends-proxy', '/trends-proxy']);
  });

  it("shows this instance's aggregates for 7 days, then 30, with an empty list explained", async () => {
    stub(() => json(trends()));
    renderTrends();
    const prompts = await screen.findByRole('region', { name: 'Most-copied public prompts' });
    const scenarios = screen.getByRole('region', { name: 'Most-run cookbook scenarios' });
    expect(
      within(prompts)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['1. Polite follow-up email7 people']);
    expect(scenarios.textContent).toContain(
      'No cookbook scenario has been run by 5 or more people in the last 7 days yet.',
    );
    expect(screen.getByText(/below 5 people is\s+hidden/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
    expect(screen.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(
      within(prompts)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['1. SQL from a question31 people', '2. Polite follow-up email12 people']);
    expect(within(scenarios).getAllByRole('listitem')).toHaveLength(1);
  });

  it('keeps the sample figures when the aggregates fail, and offers to try again', async () => {
    stub(() => json({ error: 'The database is not answering.' }, 503));
    renderTrends();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The database is not answering.',
    );
    expect(screen.getByRole('region', { name: 'Trending uses' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
