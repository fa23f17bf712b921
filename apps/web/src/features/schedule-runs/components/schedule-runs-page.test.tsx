import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Prompt } from '@chorus/shared/api/prompts';
import type { Schedule, ScheduleRun } from '@chorus/shared/api/schedules';
import { fakeApi, json, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { ScheduleRunsPage } from './schedule-runs-page';
import { formatInUserZone } from './schedule-times';

const scheduleId = 'c0ffee00-1111-4222-8333-444455556666';
const promptId = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const stamp = '2026-01-01T00:00:00.000Z';
const nextRuns = [
  '2026-03-27T08:00:00.000Z',
  '2026-03-30T07:00:00.000Z',
  '2026-03-31T07:00:00.000Z',
  '2026-04-01T07:00:00.000Z',
  '2026-04-02T07:00:00.000Z',
];

const occurrence = (over: Partial<ScheduleRun> = {}): ScheduleRun => ({
  id: 'occ-1',
  schedule_id: scheduleId,
  occurrence_at: '2026-03-26T08:00:00.000Z',
  trigger: 'cron',
  status: 'complete',
  output_text: '<script>alert(1)</script> Sunny',
  input_tokens: 30,
  output_tokens: 12,
  cost_usd: 0.0021,
  error: null,
  workflow_run_id: null,
  started_at: stamp,
  finished_at: stamp,
  ...over,
});

const schedule = (over: Partial<Schedule> = {}): Schedule => ({
  id: scheduleId,
  name: 'Morning weather',
  target: {
    kind: 'prompt',
    prompt_id: promptId,
    variables: { city: 'Berlin' },
    provider: 'openai',
    model: null,
  },
  target_name: 'Weather report',
  cron: '0 9 * * 1-5',
  time_zone: 'Europe/Berlin',
  description: 'At 09:00 AM, Monday through Friday',
  missed: 'skip',
  email_started: false,
  email_completed: true,
  email_failed: true,
  enabled: true,
  disabled_reason: null,
  consecutive_failures: 0,
  next_runs: nextRuns,
  last_run: occurrence(),
  created_at: stamp,
  updated_at: stamp,
  ...over,
});

const prompt: Prompt = {
  id: promptId,
  title: 'Weather report',
  content: 'The weather in {{city}}',
  description: '',
  category: '',
  tags: [],
  favorite: false,
  variables: [{ name: 'city', default: null }],
  use_count: 0,
  last_used_at: null,
  version: 1,
  sharing: 'private',
  created_at: stamp,
  updated_at: stamp,
};

/** A stand-in server: the handler answers what the test is about, the rest is a plain default. */
const stubServer = (handler?: ApiHandler) =>
  fakeApi(
    {
      '/functions/v1/get-enabled-providers': { providers: ['openai'] },
      '/rest/v1/prompts': { items: [prompt], next_cursor: null, categories: [] },
    },
    handler,
  );

const listOf =
  (schedules: Schedule[]): ApiHandler =>
  (method, path) =>
    path === '/rest/v1/schedules' && method === 'GET' ? json({ schedules }) : undefined;

const renderPage = () =>
  renderRoutes({
    path: '/schedule-runs',
    routes: [
      { path: '/schedule-runs', element: <ScheduleRunsPage /> },
      { path: '/workflows', element: <p>The workflows</p> },
    ],
    session: signedInSession,
  });

describe('the schedule runs page', () => {
  it('says what a schedule runs and what to do first when there is none', async () => {
    stubServer(listOf([]));
    renderPage();
    expect(await screen.findByText('No schedules yet')).toBeTruthy();
    expect(screen.getByText(/A schedule runs a saved prompt, a scenario/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the prompt library' }).getAttribute('href')).toBe(
      '/prompts',
    );
    expect(
      screen.getByRole('link', { name: 'Prompts and variables: the guide' }).getAttribute('href'),
    ).toMatch(/^\/help\//);
  });

  it('lists each schedule with its target, times in words, next run, state and last run', async () => {
    stubServer(
      listOf([
        schedule(),
        schedule({
          id: 'other',
          name: 'Broken digest',
          enabled: false,
          disabled_reason: 'Turned off after 5 failures in a row.',
          next_runs: [],
          last_run: occurrence({ status: 'failed' }),
        }),
      ]),
    );
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Morning weather' });
    expect(card.textContent).toContain('A saved prompt: Weather report');
    expect(card.textContent).toContain('At 09:00 AM, Monday through Friday');
    expect(card.textContent).toContain('Europe/Berlin');
    expect(card.textContent).toContain(formatInUserZone(nextRuns[0]));
    expect(card.textContent).toContain('Active');
    expect(card.textContent).toContain('Complete');
    const off = screen.getByRole('listitem', { name: 'Broken digest' });
    // Its state badge, apart from the reason (which itself begins "Turned off").
    expect(within(off).getByText('Turned off')).toBeTruthy();
    expect(within(off).getByRole('note').textContent).toContain(
      'Turned off after 5 failures in a row.',
    );
    expect(off.textContent).toContain('Failed');
    expect(within(off).getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('previews the expression in words and its next five runs as it is typed', async () => {
    const calls = stubServer((method, path, url) => {
      if (path === '/rest/v1/schedules') return json({ schedules: [] });
      if (path === '/rest/v1/schedules/preview') {
        return url.searchParams.get('cron') === '*/15 * * * *'
          ? json({ description: 'Every 15 minutes', next_runs: nextRuns })
          : json({ description: 'At 09:00 AM, Monday through Friday', next_runs: nextRuns });
      }
      return undefined;
    });
    renderPage();
    fireEvent.click((await screen.findAllByRole('button', { name: 'New schedule' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New schedule' });
    fireEvent.change(within(dialog).getByLabelText('Time zone'), {
      target: { value: 'Asia/Tokyo' },
    });
    fireEvent.change(within(dialog).getByLabelText('Cron expression'), {
      target: { value: '*/15 * * * *' },
    });
    expect(await within(dialog).findByText('Every 15 minutes')).toBeTruthy();
    const runs = within(dialog).getByRole('list', { name: 'Next runs' });
    const items = within(runs).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]!.textContent).toContain(formatInUserZone(nextRuns[0]));
    expect(items[0]!.textContent).toContain('in Asia/Tokyo');
    expect(dialog.textContent).toContain('It runs by the clock of Asia/Tokyo');
    // Asked for the starting expression, then once more after the changes settle.
    const previews = calls.filter((c) => c.path === '/rest/v1/schedules/preview');
    expect(previews).toHaveLength(2);
    expect(previews.at(-1)?.search).toBe('?cron=*%2F15+*+*+*+*&time_zone=Asia%2FTokyo');
  });

  it('creates a schedule of a saved prompt with its variables', async () => {
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/schedules' && method === 'POST') return json(schedule(), 201);
      if (path === '/rest/v1/schedules') return json({ schedules: [] });
      if (path === '/rest/v1/schedules/preview') {
        return json({ description: 'At 09:00 AM, Monday through Friday', next_runs: nextRuns });
      }
      return undefined;
    });
    renderPage();
    fireEvent.click((await screen.findAllByRole('button', { name: 'New schedule' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New schedule' });
    fireEvent.change(within(dialog).getByLabelText('Name'), {
      target: { value: 'Morning weather' },
    });
    fireEvent.change(await within(dialog).findByLabelText('Saved prompt'), {
      target: { value: promptId },
    });
    fireEvent.change(within(dialog).getByLabelText('city'), { target: { value: 'Berlin' } });
    fireEvent.change(within(dialog).getByLabelText('Time zone'), {
      target: { value: 'Europe/Berlin' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create schedule' }));
    await waitFor(() =>
      expect(
        calls.find((c) => c.method === 'POST' && c.path === '/rest/v1/schedules')?.body,
      ).toEqual({
        name: 'Morning weather',
        target: {
          kind: 'prompt',
          prompt_id: promptId,
          variables: { city: 'Berlin' },
          provider: 'openai',
          model: null,
        },
        cron: '0 9 * * 1-5',
        time_zone: 'Europe/Berlin',
        missed: 'skip',
        email_started: false,
        email_completed: true,
        email_failed: true,
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('pauses an active schedule and resumes a paused one', async () => {
    let enabled = true;
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/schedules') {
        return json({ schedules: [schedule({ enabled, next_runs: enabled ? nextRuns : [] })] });
      }
      if (path === `/rest/v1/schedules/${scheduleId}/pause`) {
        enabled = false;
        return json(schedule({ enabled }));
      }
      if (path === `/rest/v1/schedules/${scheduleId}/resume`) {
        enabled = true;
        return json(schedule({ enabled }));
      }
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Morning weather' });
    fireEvent.click(within(card).getByRole('button', { name: 'Pause' }));
    const resume = await within(card).findByRole('button', { name: 'Resume' });
    expect(card.textContent).toContain('Paused');
    expect(card.textContent).toContain('None while it is off');
    fireEvent.click(resume);
    expect(await within(card).findByRole('button', { name: 'Pause' })).toBeTruthy();
    expect(
      calls.filter((c) => c.method === 'POST' && c.path.startsWith('/rest/')).map((c) => c.path),
    ).toEqual([
      `/rest/v1/schedules/${scheduleId}/pause`,
      `/rest/v1/schedules/${scheduleId}/resume`,
    ]);
  });

  it('shows each occurrence with its output as text and links a workflow run', async () => {
    stubServer((method, path) => {
      if (path === '/rest/v1/schedules') return json({ schedules: [schedule()] });
      if (path === `/rest/v1/schedules/${scheduleId}/runs`) {
        return json({
          runs: [
            occurrence({ id: 'occ-2', workflow_run_id: 'wr-9', trigger: 'manual' }),
            occurrence({
              id: 'occ-3',
              status: 'failed',
              output_text: '',
              error: { code: 'provider:auth', message: 'The OpenAI key was refused' },
            }),
          ],
          next_cursor: null,
        });
      }
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Morning weather' });
    fireEvent.click(within(card).getByRole('button', { name: 'Runs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Runs of “Morning weather”' });
    const runs = await within(dialog).findByRole('list', { name: 'Runs' });
    const [first, second] = within(runs).getAllByRole('listitem');
    expect(first!.querySelector('pre')?.textContent).toBe('<script>alert(1)</script> Sunny');
    expect(first!.querySelector('script')).toBeNull();
    expect(first!.textContent).toContain('Run now');
    expect(first!.textContent).toContain('30 in · 12 out');
    expect(
      within(first!).getByRole('link', { name: 'Open the workflow run' }).getAttribute('href'),
    ).toBe('/workflows?run=wr-9');
    expect(second!.textContent).toContain('The OpenAI key was refused');
    expect(second!.textContent).toContain('Failed');
  });
});
