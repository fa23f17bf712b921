import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateWorkflow, Workflow, WorkflowRun } from '@chorus/shared/api/workflows';
import { chatMessages } from '@chorus/shared/messages';
import { ApiError } from '../http/errors.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { embedTexts, prepareModelCall } from './model-call.ts';

// Every model call, streamed or not, is held to the provider idle limit (PROVIDER_IDLE_TIMEOUT_MS,
// 1 s here): a provider that goes silent fails the call within it, with a message naming the
// provider, and is asked once (a retry would wait the hang out again). A long answer that keeps
// coming is not a stall.

const IDLE_MS = 1_000;

let t: TestApp;
let ann: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp({
    providerSim: true,
    jobs: true,
    env: { PROVIDER_IDLE_TIMEOUT_MS: String(IDLE_MS) },
  });
  ann = await t.user('stall-limits@example.com');
  await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-stall-limits-01' });
});
afterAll(() => t.close());

const refusal = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof ApiError) return error;
  throw new Error(`expected an ApiError, got ${String(error)}`);
};

const stalled = chatMessages.providerStoppedResponding('OpenAI');

const requestsFor = (marker: string) =>
  t.sim.requests.filter((r) => JSON.stringify(r.body ?? '').includes(marker));

describe('the idle limit of calls that are not streamed to anyone', () => {
  const generate = async (content: string) => {
    const call = await prepareModelCall(t.deps, {
      userId: ann.id,
      source: 'workflow',
      provider: 'openai',
      rateLimit: 'none',
    });
    return call.generate({ messages: [{ role: 'user', content }], timeoutMs: 120_000 });
  };

  it('fails a provider that goes silent, names it, and asks it once', async () => {
    for (const [marker, hang] of [
      ['silent-after-a-word', '[sim:hang]'],
      ['silent-after-headers', '[sim:hang 0]'],
    ] as const) {
      const error = await refusal(generate(`${marker} ${hang}`));
      expect([error.status, error.code, error.message]).toEqual([504, 'provider:stalled', stalled]);
      expect(requestsFor(marker)).toHaveLength(1);
    }
  });

  it('lets a long answer run past the idle limit while it keeps coming', async () => {
    // 30 words 100 ms apart: three times the idle limit in all, never silent for long.
    const { text } = await generate('steady [sim:tokens 30] [sim:delay-ms 100]');
    expect(text.split(' ')).toHaveLength(30);
  });

  it('holds embeddings to the same limit', async () => {
    const error = await refusal(
      embedTexts(t.deps, {
        userId: ann.id,
        source: 'knowledge',
        provider: 'openai',
        model: 'text-embedding-3-small',
        values: ['fine', 'embed-me [sim:hang]'],
      }),
    );
    expect([error.status, error.code, error.message]).toEqual([504, 'provider:stalled', stalled]);
    expect(requestsFor('embed-me')).toHaveLength(1);
  });

  it('fails a workflow step on a hanging provider with that message, not the run’s time limit', async () => {
    const body: CreateWorkflow = {
      name: 'Hangs under a step',
      steps: [
        { id: 'ask', kind: 'prompt', provider: 'openai', prompt: 'workflow-hang [sim:hang]' },
        { id: 'after', kind: 'transform', mode: 'template', template: 'never' },
      ],
    };
    const wf = (await ann.post<Workflow>('/rest/v1/workflows', body)).body;
    const started = Date.now();
    const res = await ann.post<WorkflowRun>('/functions/v1/workflow-run', {
      workflow_id: wf.id,
      inputs: {},
    });
    expect(res.status).toBe(202);
    let run = res.body;
    while (['queued', 'running'].includes(run.status)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = (await ann.get<WorkflowRun>(`/rest/v1/workflow-runs/${run.id}`)).body;
      // A liveness bound, far above the 1 s idle limit and far below the run's 10 minutes.
      expect(Date.now() - started).toBeLessThan(20_000);
    }
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ step_id: 'ask', code: 'workflows:step_failed' });
    expect(run.steps.map((s) => [s.status, s.error])).toEqual([
      ['failed', stalled],
      ['cancelled', null],
    ]);
    expect(requestsFor('workflow-hang')).toHaveLength(1);
  });
});
