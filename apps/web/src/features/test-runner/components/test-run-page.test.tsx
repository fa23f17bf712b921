import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TestResult, TestRunMatrix } from '@chorus/shared/api/test-runs';
import { fakeApi, json, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import type { RunStatus } from '../api/test-runs';
import {
  baselineId,
  caseId,
  cell,
  matrix,
  otherCaseId,
  runBrief,
  runId,
  runStatus,
  totals,
} from '../test/fixtures';
import { TestRunPage } from './test-run-page';

const statusPath = `/functions/v1/test-run/${runId}`;
const matrixPath = `/rest/v1/test-runs/${runId}`;

const finished = runStatus({
  summary: {
    total: 12,
    passed: 9,
    failed: 3,
    errors: 1,
    pass_rate: 0.75,
    all_passed: false,
    baseline_run_id: baselineId,
    regressions: 1,
    improvements: 1,
    input_tokens: 1_800,
    output_tokens: 540,
    cost_usd: 0.0072,
  },
  notification: { sent: true, message: 'Test run notification sent successfully' },
});

const baseline = runBrief({
  id: baselineId,
  name: 'Support replies #1',
  created_at: '2026-01-01T09:00:00.000Z',
  pass_rate: 0.9,
});

const compared = (compareTo: string | null): TestRunMatrix =>
  matrix({
    run: finished,
    cells: [
      cell({
        target: 0,
        passed: 1,
        pass_rate: 1 / 3,
        change: compareTo ? 'regressed' : null,
        previous_pass_rate: compareTo ? 1 : null,
      }),
      cell({
        target: 1,
        change: compareTo ? 'improved' : null,
        previous_pass_rate: compareTo ? 1 / 3 : null,
      }),
      cell({
        case_id: otherCaseId,
        target: 0,
        passed: 2,
        errors: 1,
        pass_rate: 2 / 3,
        change: compareTo ? 'same' : null,
      }),
    ],
    totals: [
      totals({ target: 0, passed: 3, errors: 1, pass_rate: 0.5 }),
      totals({ target: 1, runs: 3, passed: 3 }),
    ],
    compared_to: compareTo ? baseline : null,
  });

/** A stand-in server: the handler answers what the test is about, the rest is a plain default. */
const stubServer = (handler: ApiHandler = () => undefined) =>
  fakeApi({}, (method, path, url) => {
    const answer = handler(method, path, url);
    if (answer) return answer;
    if (path === '/rest/v1/test-runs') {
      return json({ items: [runBrief({ status: finished.status }), baseline], next_cursor: null });
    }
    if (path === matrixPath && method === 'GET') {
      return json(compared(url.searchParams.get('compare_to')));
    }
    return undefined;
  });

const renderPage = (search = '') =>
  renderRoutes({
    path: `/test-runner/runs/${runId}${search}`,
    routes: [
      { path: '/test-runner/runs/:id', element: <TestRunPage /> },
      { path: '/test-runner/sets/:id', element: <p>The set page</p> },
    ],
    session: signedInSession,
  });

describe('a test run’s page', () => {
  it('shows the matrix compared with the previous run, in words as well as colour', async () => {
    const calls = stubServer((method, path) => (path === statusPath ? json(finished) : undefined));
    renderPage();
    const table = await screen.findByRole('table', { name: /one row per case/ });
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === matrixPath && c.search === `?compare_to=${baselineId}`),
      ).toBe(true),
    );
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Case', 'OpenAI · GPT-5 mini', 'Anthropic · Claude Sonnet 4.5']);

    const regressed = await within(table).findByRole('button', {
      name: 'Refund request on OpenAI GPT-5 mini: 1 of 3 passed, regressed',
    });
    expect(regressed.textContent).toContain('1/3');
    expect(regressed.textContent).toContain('Regressed');
    expect(regressed.textContent).toContain('(was 100%)');
    expect(regressed.textContent).toContain('p50 850 ms · p95 1.2 s');
    expect(regressed.textContent).toContain('300 in · 90 out');
    const improved = within(table).getByRole('button', {
      name: 'Refund request on Anthropic Claude Sonnet 4.5: 3 of 3 passed, improved',
    });
    expect(improved.textContent).toContain('Improved');
    expect(
      within(table).getByRole('button', {
        name: 'Greeting on OpenAI GPT-5 mini: 2 of 3 passed, 1 error',
      }).textContent,
    ).not.toMatch(/Regressed|Improved/);
    const greeting = within(table).getByRole('row', { name: /Greeting/ });
    expect(greeting.textContent).toContain('Not run yet');

    const footer = within(table).getByRole('cell', { name: 'Totals on OpenAI GPT-5 mini' });
    expect(footer.textContent).toContain('3/6');
    expect(footer.textContent).toContain('50%');

    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(summary.textContent).toContain(
      '9 of 12 answers passed (75%): 3 failed, 1 call errored.',
    );
    expect(summary.textContent).toContain('1 cell regressed, 1 cell improved');
    expect(summary.textContent).toContain('E-mail: Test run notification sent successfully');
    expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export JSON' })).toBeTruthy();
  });

  it('compares with nothing, or another earlier run, when asked', async () => {
    const calls = stubServer((method, path) => (path === statusPath ? json(finished) : undefined));
    const { router } = renderPage();
    await screen.findByRole('button', { name: /regressed$/ });
    const select = screen.getByLabelText<HTMLSelectElement>('Compare with');
    expect(select.value).toBe(baselineId);
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Nothing',
      expect.stringMatching(/^Run of .* · 90% passed$/),
    ]);
    fireEvent.change(select, { target: { value: 'none' } });
    await waitFor(() => expect(router.state.location.search).toBe('?compare=none'));
    await waitFor(() => expect(screen.queryByRole('button', { name: /regressed$/ })).toBeNull());
    expect(
      screen.getByRole('button', {
        name: 'Refund request on OpenAI GPT-5 mini: 1 of 3 passed',
      }),
    ).toBeTruthy();
    expect(calls.some((c) => c.path === matrixPath && c.search === undefined)).toBe(true);
  });

  it('opens a cell to every repeat’s input, output, error and verdicts, as text', async () => {
    const results: TestResult[] = [
      {
        id: 'r2',
        case_id: caseId,
        target: 0,
        repeat: 1,
        input: 'Reply about a refund',
        output: '',
        error: 'The provider timed out',
        passed: false,
        assertions: [],
        latency_ms: null,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: null,
        created_at: '2026-01-02T10:00:01.000Z',
      },
      {
        id: 'r1',
        case_id: caseId,
        target: 0,
        repeat: 0,
        input: 'Reply about a refund',
        output: '<b>Your refund</b> is on its way',
        error: null,
        passed: true,
        assertions: [
          { type: 'contains', passed: true, reason: 'Found “refund”', score: null },
          { type: 'judge', passed: true, reason: 'Polite and clear', score: 0.9 },
        ],
        latency_ms: 850,
        input_tokens: 100,
        output_tokens: 30,
        cost_usd: 0.0004,
        created_at: '2026-01-02T10:00:00.000Z',
      },
    ];
    const calls = stubServer((method, path) => {
      if (path === statusPath) return json(finished);
      if (path === `${matrixPath}/results`) return json({ items: results });
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /^Refund request on OpenAI/ }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Refund request on OpenAI · GPT-5 mini',
    });
    const repeats = await within(dialog).findByRole('list', { name: 'Repeats' });
    const [first, second] = within(repeats).getAllByRole('listitem', { name: /^Repeat/ });
    expect(first!.getAttribute('aria-label')).toBe('Repeat 1: passed');
    // Markup in an answer is shown as it is, never rendered.
    expect(within(first!).getByLabelText('Output of repeat 1').textContent).toBe(
      '<b>Your refund</b> is on its way',
    );
    expect(within(first!).getByLabelText('Output of repeat 1').querySelector('b')).toBeNull();
    expect(within(first!).getByLabelText('Input of repeat 1').textContent).toBe(
      'Reply about a refund',
    );
    const verdicts = within(first!).getByRole('list', { name: 'Assertions of repeat 1' });
    expect(verdicts.textContent).toContain('LLM judge');
    expect(verdicts.textContent).toContain('score 0.90');
    expect(verdicts.textContent).toContain('Polite and clear');
    expect(within(second!).getByRole('alert').textContent).toBe(
      'The call failed: The provider timed out',
    );
    expect(
      within(dialog).getByRole('list', { name: 'Assertions over all repeats' }).textContent,
    ).toContain('3 of 3 passed');
    expect(calls.find((c) => c.path === `${matrixPath}/results`)?.search).toBe(
      `?case_id=${caseId}&target=0`,
    );
  });

  it('follows a run live until it ends, and cancels one that is going', async () => {
    const states: RunStatus[] = [
      runStatus({ status: 'queued', done: 0, summary: null }),
      runStatus({ status: 'running', done: 4, summary: null }),
      finished,
    ];
    let reads = 0;
    const calls = stubServer((method, path) => {
      if (path === statusPath) {
        const state = states[Math.min(reads, states.length - 1)];
        reads += 1;
        return json(state);
      }
      return undefined;
    });
    renderPage();
    expect(await screen.findByText('Waiting for a worker to pick it up…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel run' })).toBeTruthy();
    expect(
      await screen.findByText('Running: 4 of 12 calls done', {}, { timeout: 4000 }),
    ).toBeTruthy();
    expect(
      screen.getByRole<HTMLProgressElement>('progressbar', { name: 'Run progress' }).value,
    ).toBe(4);
    expect(await screen.findByText('Finished: 12 of 12 calls', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull();
    expect(await screen.findByRole('region', { name: 'Summary' })).toBeTruthy();

    const readsWhenDone = calls.filter((c) => c.path === statusPath).length;
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(calls.filter((c) => c.path === statusPath).length).toBe(readsWhenDone);
  }, 15_000);

  it('cancels a running run', async () => {
    let status: RunStatus = runStatus({ status: 'running', done: 4 });
    const calls = stubServer((method, path) => {
      if (path === `${statusPath}/cancel`) {
        status = runStatus({ status: 'cancelled', done: 4 });
        return json(status);
      }
      if (path === statusPath) return json(status);
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel run' }));
    expect(await screen.findByText('Cancelled after 4 of 12 calls')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === `${statusPath}/cancel`)).toBe(true);
    expect(screen.getByRole('button', { name: 'Delete run' })).toBeTruthy();
  });

  it('says so when the run is not there', async () => {
    stubServer((method, path) =>
      path === statusPath
        ? json({ error: 'This test run does not exist', code: 'test_runs:not_found' }, 404)
        : undefined,
    );
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Test run not found' })).toBeTruthy();
  });
});
