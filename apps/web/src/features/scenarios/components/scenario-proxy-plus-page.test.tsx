import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ScenarioRun, ScenarioRunEvent } from '@chorus/shared/api/scenarios';
import { renderRoutes, signedInSession } from '@/test/render';
import { ScenarioProxyPlusPage } from './scenario-proxy-plus-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const targets = [
  { provider: 'openai', model: 'gpt-5-mini' },
  { provider: 'mistral', model: 'mistral-small-latest' },
];

const result = (provider: string, model: string, text: string) => ({
  provider,
  model,
  text,
  ttft_ms: 180,
  latency_ms: 1_420,
  input_tokens: 12,
  output_tokens: 40,
  cost_usd: 0.00042,
  error: null,
});

const events: ScenarioRunEvent[] = [
  { type: 'start', run_id: 'run-1', targets },
  { type: 'first_token', target: 0, ttft_ms: 180 },
  { type: 'delta', target: 0, text: 'Paris is ' },
  { type: 'delta', target: 0, text: 'the capital.' },
  { type: 'result', target: 0, result: result('openai', 'gpt-5-mini', 'Paris is the capital.') },
  {
    type: 'result',
    target: 1,
    result: {
      ...result('mistral', 'mistral-small-latest', ''),
      ttft_ms: null,
      latency_ms: null,
      input_tokens: null,
      output_tokens: null,
      cost_usd: null,
      error: { code: 'keys:missing', message: 'No Mistral API key is available to you.' },
    },
  },
  { type: 'end', run_id: 'run-1' },
];

/** The events as NDJSON, cut at arbitrary places so lines arrive split across chunks. */
const ndjsonStream = () => {
  const text = events.map((event) => JSON.stringify(event)).join('\n') + '\n';
  const chunks = [text.slice(0, 37), text.slice(37, 200), text.slice(200)];
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    }),
    { headers: { 'content-type': 'application/x-ndjson' } },
  );
};

const savedRun = (over: Partial<ScenarioRun> = {}): ScenarioRun => ({
  id: 'run-1',
  scenario_id: null,
  title: 'Capital check',
  system_prompt: '',
  user_prompt: 'What is the capital of France?',
  variables: {},
  parameters: {},
  status: 'done',
  results: [
    { ...result('openai', 'gpt-5-mini', 'Paris is the capital.'), rating: null },
    {
      ...result('mistral', 'mistral-small-latest', ''),
      ttft_ms: null,
      latency_ms: null,
      input_tokens: null,
      output_tokens: null,
      cost_usd: null,
      error: { code: 'keys:missing', message: 'No Mistral API key is available to you.' },
      rating: null,
    },
  ],
  winner: null,
  created_at: '2026-03-01T10:00:00.000Z',
  finished_at: '2026-03-01T10:00:02.000Z',
  ...over,
});

type Call = { method: string; path: string; body: unknown };

const stubServer = () => {
  const calls: Call[] = [];
  let stored = savedRun();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname, body });
      if (url.pathname === '/rest/v1/api-keys/availability') return json([]);
      if (url.pathname === '/functions/v1/scenario-run') return ndjsonStream();
      if (url.pathname === '/rest/v1/scenario-runs/run-1' && method === 'GET') return json(stored);
      if (url.pathname === '/rest/v1/scenario-runs/run-1' && method === 'PATCH') {
        const patch = body as { ratings?: (number | null)[]; winner?: number | null };
        stored = {
          ...stored,
          results: stored.results.map((r, i) => ({ ...r, rating: patch.ratings?.[i] ?? r.rating })),
          winner: patch.winner === undefined ? stored.winner : patch.winner,
        };
        return json(stored);
      }
      if (url.pathname === '/rest/v1/scenario-runs/run-1/test-cases') {
        return json({ id: 'tc-1' }, 201);
      }
      return json({ error: `unexpected ${method} ${url.pathname}` }, 500);
    }),
  );
  return calls;
};

const routes = [{ path: '/scenario-proxy-plus', element: <ScenarioProxyPlusPage /> }];

describe('the scenario run page', () => {
  it('estimates the cost, streams one column per model, and reopens the run from its URL', async () => {
    const calls = stubServer();
    const { router } = renderRoutes({
      path: '/scenario-proxy-plus',
      routes,
      session: signedInSession,
    });

    fireEvent.change(await screen.findByLabelText('Prompt'), {
      target: { value: 'What is the capital of {{country|France}}?' },
    });
    expect(screen.getByLabelText('{{country}}')).toHaveProperty('placeholder', 'France');
    fireEvent.change(screen.getByLabelText('Model 1'), { target: { value: 'gpt-5-mini' } });
    fireEvent.change(screen.getByLabelText('Provider of model 2'), {
      target: { value: 'mistral' },
    });
    fireEvent.change(screen.getByLabelText('Model 2'), {
      target: { value: 'mistral-small-latest' },
    });
    const estimate = screen.getByRole('table', { name: 'Estimated cost per model' });
    expect(within(estimate).getByRole('row', { name: /Mistral · Mistral Small/ })).toBeTruthy();
    expect(screen.getByText(/output assumes 500 tokens per model/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Run on 2 models' }));

    expect(await screen.findByText('Done: 1 of 2 models answered, 1 failed.')).toBeTruthy();
    expect(router.state.location.search).toBe('?run=run-1');
    const answers = screen.getByRole('list', { name: 'Answers' });
    const openai = within(answers).getByRole('listitem', { name: 'OpenAI · GPT-5 mini' });
    expect(openai.textContent).toContain('Paris is the capital.');
    expect(openai.textContent).toContain('180 ms');
    expect(openai.textContent).toContain('1.4 s');
    expect(openai.textContent).toContain('$0.00042');
    const mistral = within(answers).getByRole('listitem', { name: 'Mistral · Mistral Small' });
    expect(mistral.textContent).toContain('No Mistral API key is available to you.');
    expect(within(mistral).getByRole('link', { name: 'Open API keys' })).toBeTruthy();

    const run = calls.find((call) => call.path === '/functions/v1/scenario-run');
    expect(run?.body).toEqual({
      system_prompt: '',
      user_prompt: 'What is the capital of {{country|France}}?',
      variables: {},
      parameters: { temperature: null, max_tokens: null },
      targets,
      stream: true,
    });
  });

  it('rates a column, picks the winner and saves a column as a test case', async () => {
    const calls = stubServer();
    renderRoutes({ path: '/scenario-proxy-plus?run=run-1', routes, session: signedInSession });

    const openai = await screen.findByRole('listitem', { name: 'OpenAI · GPT-5 mini' });
    fireEvent.click(within(openai).getByRole('button', { name: '4 stars' }));
    await waitFor(() =>
      expect(
        within(openai).getByRole('button', { name: '4 stars' }).getAttribute('aria-pressed'),
      ).toBe('true'),
    );
    fireEvent.click(within(openai).getByRole('button', { name: 'Pick as winner' }));
    expect(await within(openai).findByRole('button', { name: 'Winner' })).toBeTruthy();
    fireEvent.click(within(openai).getByRole('button', { name: 'Save as test case' }));

    await waitFor(() =>
      expect(calls.filter((call) => call.method !== 'GET')).toEqual([
        { method: 'PATCH', path: '/rest/v1/scenario-runs/run-1', body: { ratings: [4, null] } },
        { method: 'PATCH', path: '/rest/v1/scenario-runs/run-1', body: { winner: 0 } },
        {
          method: 'POST',
          path: '/rest/v1/scenario-runs/run-1/test-cases',
          body: { target: 0 },
        },
      ]),
    );
    const mistral = screen.getByRole('listitem', { name: 'Mistral · Mistral Small' });
    expect(within(mistral).queryByRole('button', { name: 'Pick as winner' })).toBeNull();
  });
});
