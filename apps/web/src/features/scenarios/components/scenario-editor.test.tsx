import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes, signedInSession } from '@/test/render';
import { ScenarioDetailPage } from './scenario-detail-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const routes = [{ path: '/scenarios/:id', element: <ScenarioDetailPage /> }];

describe('the scenario form', () => {
  it("shows the server's validation message beside the fields it names", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), window.location.origin);
        if (url.pathname === '/rest/v1/api-keys/availability') return json([]);
        return json(
          {
            error:
              'Field title: Give the scenario a title. Field user_prompt: Write the prompt to send.',
            code: 'bad_request:validation',
          },
          400,
        );
      }),
    );
    renderRoutes({ path: '/scenarios/new', routes, session: signedInSession });

    fireEvent.click(await screen.findByRole('button', { name: 'Create scenario' }));

    await waitFor(() =>
      expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(screen.getByText('Give the scenario a title.')).toBeTruthy();
    expect(screen.getByLabelText('Prompt').getAttribute('aria-describedby')).toContain('error');
    expect(screen.getByText('Write the prompt to send.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'Fix the fields marked below, then save again.',
    );
  });

  it('says the scenario is not found when the server has none by that id', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ error: 'This scenario does not exist.', code: 'scenarios:not_found' }, 404),
      ),
    );
    renderRoutes({ path: '/scenarios/0f0f', routes, session: signedInSession });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Scenario not found' }),
    ).toBeTruthy();
  });
});
