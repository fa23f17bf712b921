import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AccessToken, CreatedAccessToken, TestSet } from '@chorus/shared/api/test-runs';
import { fakeApi, json, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { customAiId, runBrief, runId, setId, testSet } from '../test/fixtures';
import { TestRunnerPage } from './test-runner-page';

const token: AccessToken = {
  id: 'c1b2c3d4-0000-4000-8000-000000000001',
  name: 'GitHub Actions',
  hint: 'chorus_pat_AbC',
  scopes: ['test_runs'],
  created_at: '2026-01-01T00:00:00.000Z',
  last_used_at: null,
  expires_at: '2099-01-01T00:00:00.000Z',
};

/** A stand-in server: the handler answers what the test is about, the rest is a plain default. */
const stubServer = (handler: ApiHandler = () => undefined) =>
  fakeApi(
    {
      '/functions/v1/get-enabled-providers': { providers: ['openai', 'anthropic'] },
      '/rest/v1/test-runs': { items: [], next_cursor: null },
      '/rest/v1/access-tokens': { items: [] },
      '/rest/v1/custom-ais': {
        custom_ais: [{ id: customAiId, name: 'Support bot' }],
      },
      '/rest/v1/prompts': { items: [], next_cursor: null, categories: [] },
    },
    handler,
  );

const setsOf =
  (sets: TestSet[]): ApiHandler =>
  (method, path) =>
    path === '/rest/v1/test-sets' && method === 'GET' ? json({ items: sets }) : undefined;

const renderPage = () =>
  renderRoutes({
    path: '/test-runner',
    routes: [
      { path: '/test-runner', element: <TestRunnerPage /> },
      { path: '/test-runner/sets/:id', element: <p>The set page</p> },
    ],
    session: signedInSession,
  });

describe('the test runner page', () => {
  it('says what a test set is and where to start when there is none', async () => {
    stubServer(setsOf([]));
    renderPage();
    expect(await screen.findByText('No test sets yet')).toBeTruthy();
    expect(screen.getByText(/A test set is a list of cases/)).toBeTruthy();
    expect(
      screen
        .getByRole('link', { name: 'Test sets and assertions: the guide' })
        .getAttribute('href'),
    ).toBe('/help/test-runner#assertions');
    expect(screen.getByRole('link', { name: 'add a key' }).getAttribute('href')).toBe(
      '/copy-api-keys',
    );
    expect(await screen.findByText(/You have no access tokens yet/)).toBeTruthy();
  });

  it('lists each set with its subject, cases and last run, and the recent runs', async () => {
    stubServer((method, path) => {
      if (path === '/rest/v1/test-sets') {
        return json({
          items: [
            testSet({ last_run: runBrief({ status: 'done', pass_rate: 0.75 }) }),
            testSet({
              id: 'other',
              name: 'Old bot',
              subject: { kind: 'agent', id: customAiId },
              subject_name: null,
              case_count: 1,
            }),
          ],
        });
      }
      if (path === '/rest/v1/test-runs') {
        return json({ items: [runBrief({ status: 'running', done: 4 })], next_cursor: null });
      }
      return undefined;
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Your test sets' });
    const card = within(list).getByRole('listitem', { name: 'Support replies' });
    expect(card.textContent).toContain('Prompt: Reply to a ticket');
    expect(card.textContent).toContain('2 cases');
    expect(card.textContent).toContain('Last run: Done 75% passed');
    const gone = within(list).getByRole('listitem', { name: 'Old bot' });
    expect(gone.textContent).toContain('Agent: subject deleted');
    expect(gone.textContent).toContain('Never run');
    expect(within(card).getByRole('link', { name: 'Support replies' }).getAttribute('href')).toBe(
      `/test-runner/sets/${setId}`,
    );

    const runs = await screen.findByRole('table', { name: 'Recent runs' });
    const row = within(runs).getByRole('row', { name: /Support replies #2/ });
    expect(row.textContent).toContain('Running');
    expect(row.textContent).toContain('4 of 12 calls');
    expect(
      within(row)
        .getByRole('link', { name: /^Run of / })
        .getAttribute('href'),
    ).toBe(`/test-runner/runs/${runId}`);
    expect(within(row).getByRole('link', { name: 'Support replies #2' }).getAttribute('href')).toBe(
      `/test-runner/sets/${setId}`,
    );
  });

  it('creates a set for a custom AI and opens it', async () => {
    const calls = stubServer((method, path) => {
      if (path !== '/rest/v1/test-sets') return undefined;
      if (method === 'POST') return json(testSet({ name: 'Bot checks' }), 201);
      return json({ items: [] });
    });
    const { router } = renderPage();
    fireEvent.click((await screen.findAllByRole('button', { name: 'New test set' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New test set' });

    // Nothing picked yet: the browser says what is missing before anything is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create test set' }));
    expect(await within(dialog).findByText('The name cannot be empty')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Bot checks' } });
    fireEvent.change(within(dialog).getByLabelText('What to test'), {
      target: { value: 'custom_ai' },
    });
    const pick = await within(dialog).findByLabelText('Custom AI to test');
    fireEvent.change(pick, { target: { value: customAiId } });
    fireEvent.click(within(dialog).getByLabelText(/E-mail me the summary/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create test set' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/test-runner/sets/${setId}`));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/rest/v1/test-sets')?.body).toEqual(
      {
        name: 'Bot checks',
        description: '',
        subject: { kind: 'custom_ai', id: customAiId },
        notify: false,
      },
    );
  });

  it('shows a new access token once, with a curl example, and revokes one after asking', async () => {
    let tokens: AccessToken[] = [];
    const created: CreatedAccessToken = {
      ...token,
      token: 'chorus_pat_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg',
    };
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/test-sets') return json({ items: [] });
      if (path === '/rest/v1/access-tokens' && method === 'POST') {
        tokens = [token];
        return json(created, 201);
      }
      if (path === '/rest/v1/access-tokens') return json({ items: tokens });
      if (path === `/rest/v1/access-tokens/${token.id}` && method === 'DELETE') {
        tokens = [];
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
    renderPage();
    const section = await screen.findByRole('region', { name: 'API access' });
    fireEvent.change(within(section).getByLabelText('Token name'), {
      target: { value: 'GitHub Actions' },
    });
    fireEvent.change(within(section).getByLabelText('Expires after'), {
      target: { value: '30' },
    });
    fireEvent.click(within(section).getByRole('button', { name: 'Create token' }));

    const shown = await within(section).findByRole('region', { name: 'Copy your token now' });
    expect(within(shown).getByLabelText('New access token').textContent).toBe(created.token);
    expect(within(shown).getByLabelText('Example with curl').textContent).toContain(
      `export CHORUS_TOKEN='${created.token}'`,
    );
    expect(within(shown).getByRole('button', { name: 'Copy token' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'GitHub Actions',
      expires_in_days: 30,
    });

    // The list has only the token's first characters.
    const table = await within(section).findByRole('table', { name: 'Your access tokens' });
    await waitFor(() => expect(table.textContent).toContain('chorus_pat_AbC…'));
    expect(table.textContent).not.toContain(created.token);

    // Once dismissed, the whole token is nowhere on the page.
    fireEvent.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByText(created.token)).toBeNull();
    expect(document.body.textContent).not.toContain(created.token);

    fireEvent.click(within(table).getByRole('button', { name: 'Revoke “GitHub Actions”' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke “GitHub Actions”?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path.endsWith(token.id))).toBe(true),
    );
    expect(await within(section).findByText(/You have no access tokens yet/)).toBeTruthy();
  });
});
