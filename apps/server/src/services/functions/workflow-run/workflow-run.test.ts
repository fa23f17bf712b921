import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@chorus/shared/api/agents';
import type { CreateWorkflow, Workflow, WorkflowRun } from '@chorus/shared/api/workflows';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { createWorkflowRun, executeWorkflowRun } from '../../../workflows/engine.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

let t: TestApp;
let ann: Client;
let bob: Client;

const withKey = async (email: string) => {
  const u = await t.user(email);
  expect(
    (await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-openai' })).status,
  ).toBe(200);
  return u;
};

const save = async (who: Client, body: CreateWorkflow) => {
  const res = await who.post<Workflow>('/rest/v1/workflows', body);
  expect(res.status).toBe(201);
  return res.body;
};

const start = (who: Client, body: Record<string, unknown>) =>
  who.post<WorkflowRun & Refusal>('/functions/v1/workflow-run', body);

/** Polls the run until `done` holds (the job runs it in the background). */
const until = async (who: Client, runId: string, done: (run: WorkflowRun) => boolean) => {
  for (let i = 0; i < 100; i++) {
    const res = await who.get<WorkflowRun>(`/rest/v1/workflow-runs/${runId}`);
    expect(res.status).toBe(200);
    if (done(res.body)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} never got there`);
};
const ended = (run: WorkflowRun) => !['queued', 'running'].includes(run.status);

const threeSteps = (expression: string): CreateWorkflow => ({
  name: 'Draft and polish',
  inputs: [
    { name: 'topic', type: 'text' },
    { name: 'go', type: 'boolean', required: false, default: true },
  ],
  steps: [
    { id: 'draft', kind: 'prompt', provider: 'openai', prompt: 'Write about {{inputs.topic}}' },
    { id: 'check', kind: 'condition', expression },
    { id: 'polish', kind: 'prompt', provider: 'openai', prompt: 'Polish: {{steps.draft.output}}' },
  ],
});

beforeAll(async () => {
  t = await startTestApp({ providerSim: true, jobs: true });
  ann = await withKey('workflow-runs-ann@example.com');
  bob = await withKey('workflow-runs-bob@example.com');
});
afterAll(() => t.close());

describe('workflow runs', () => {
  it('runs prompt → condition → prompt as a job, handing the first output to the last step', async () => {
    const wf = await save(ann, threeSteps('steps.draft.output.contains("Hello") && inputs.go'));
    const res = await start(ann, { workflow_id: wf.id, inputs: { topic: 'tides' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', version: 1, trigger: 'manual' });
    expect(res.body.steps.map((s) => s.status)).toEqual(['pending', 'pending', 'pending']);

    const run = await until(ann, res.body.id, ended);
    expect(run.status).toBe('complete');
    expect(run.steps.map((s) => s.status)).toEqual(['done', 'done', 'done']);
    expect(run.steps[0]!.output).toContain('Write about tides');
    expect(run.steps[1]!.output).toBe(true);
    expect(run.steps[0]!.input_tokens).toBeGreaterThan(0);
    expect(run.steps[2]!.duration_ms).toEqual(expect.any(Number));
    expect(run.input_tokens).toBe(run.steps[0]!.input_tokens + run.steps[2]!.input_tokens);
    expect(run.output).toBe(run.steps[2]!.output);
    const last = JSON.stringify(t.sim.requests.at(-1)!.body);
    expect(last).toContain('Polish: Hello from the');

    const history = await ann.get<{ runs: WorkflowRun[] }>(`/rest/v1/workflows/${wf.id}/runs`);
    expect(history.body.runs.map((r) => r.id)).toEqual([run.id]);
  });

  it('skips every later step when a condition does not hold, and the run is complete', async () => {
    const wf = await save(ann, threeSteps('inputs.go'));
    const asked = t.sim.requests.length;
    const res = await start(ann, { workflow_id: wf.id, inputs: { topic: 'moon', go: false } });
    const run = await until(ann, res.body.id, ended);
    expect(run.status).toBe('complete');
    expect(run.steps.map((s) => s.status)).toEqual(['done', 'done', 'skipped']);
    expect(run.output).toBe(run.steps[0]!.output);
    expect(t.sim.requests.length).toBe(asked + 1);
  });

  it('checks inputs against their types: a missing required one and a wrong type are 400s', async () => {
    const wf = await save(ann, threeSteps('inputs.go'));
    const missing = await start(ann, { workflow_id: wf.id, inputs: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('workflows:missing_input');
    expect(missing.body.error).toContain('topic');
    const wrong = await start(ann, { workflow_id: wf.id, inputs: { topic: 'x', go: 'maybe' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('workflows:bad_input');
    expect(wrong.body.error).toContain('go');
    const typed = await start(ann, { workflow_id: wf.id, inputs: { topic: { a: 1 } } });
    expect(typed.status).toBe(400);
    const notId = await start(ann, { workflow_id: 'nope', inputs: {} });
    expect(notId.status).toBe(400);
  });

  it('cancels a running run, aborting its model call', async () => {
    const wf = await save(ann, {
      name: 'Hangs',
      steps: [
        { id: 'wait', kind: 'prompt', provider: 'openai', prompt: 'Take your time [sim:hang]' },
        { id: 'after', kind: 'transform', mode: 'template', template: 'never' },
      ],
    });
    const res = await start(ann, { workflow_id: wf.id, inputs: {} });
    await until(ann, res.body.id, (r) => r.steps[0]!.status === 'running');
    const cancel = await ann.post<WorkflowRun>(`/rest/v1/workflow-runs/${res.body.id}/cancel`);
    expect(cancel.status).toBe(200);
    const run = await until(ann, res.body.id, ended);
    expect(run.status).toBe('cancelled');
    expect(run.steps.map((s) => s.status)).toEqual(['cancelled', 'cancelled']);
    const again = await ann.post<Refusal>(`/rest/v1/workflow-runs/${res.body.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('workflows:run_finished');
  });

  it('retries a failed run from its failed step, keeping the outputs before it', async () => {
    const cleo = await withKey('workflow-runs-cleo@example.com');
    const wf = await save(cleo, {
      name: 'Two providers',
      steps: [
        { id: 'first', kind: 'prompt', provider: 'openai', prompt: 'One' },
        {
          id: 'second',
          kind: 'prompt',
          provider: 'anthropic',
          prompt: 'Two: {{steps.first.output}}',
        },
      ],
    });
    const res = await start(cleo, { workflow_id: wf.id, inputs: {} });
    const failed = await until(cleo, res.body.id, ended);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ step_id: 'second', code: 'workflows:step_failed' });
    expect(failed.steps[1]!.error).toContain('Anthropic');
    const notFailed = await ann.post<Refusal>(`/rest/v1/workflow-runs/${failed.id}/retry`);
    expect(notFailed.status).toBe(404);

    const put = await cleo.request('PUT', '/rest/v1/api-keys/anthropic', { api_key: 'sk-ant' });
    expect(put.status).toBe(200);
    const asked = t.sim.requests.length;
    const retry = await cleo.post<WorkflowRun>(`/rest/v1/workflow-runs/${failed.id}/retry`);
    expect(retry.status).toBe(202);
    expect(retry.body.steps.map((s) => s.status)).toEqual(['done', 'pending']);
    const run = await until(cleo, failed.id, ended);
    expect(run.status).toBe('complete');
    expect(run.steps[0]!.output).toBe(failed.steps[0]!.output);
    expect(t.sim.requests.length).toBe(asked + 1);
    const twice = await cleo.post<Refusal>(`/rest/v1/workflow-runs/${failed.id}/retry`);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('workflows:run_not_failed');
  });

  it('stops a run past its token budget with a clear error', async () => {
    const wf = await save(ann, {
      name: 'Wordy',
      steps: [
        { id: 'long', kind: 'prompt', provider: 'openai', prompt: 'Go on [sim:tokens 50]' },
        { id: 'more', kind: 'prompt', provider: 'openai', prompt: 'More' },
      ],
    });
    const row = await createWorkflowRun(t.deps, {
      userId: ann.id,
      workflowId: wf.id,
      inputs: {},
      trigger: 'manual',
    });
    const run = await executeWorkflowRun(t.deps, row.id, ann.id, { limits: { tokenBudget: 20 } });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'workflows:token_budget', step_id: 'long' });
    expect(run.error!.message).toContain('budget of 20');
    expect(run.steps.map((s) => s.status)).toEqual(['failed', 'cancelled']);
  });

  it('records the version a run ran, and runs an earlier version when asked', async () => {
    const wf = await save(ann, {
      name: 'Versioned',
      steps: [{ id: 'out', kind: 'transform', mode: 'template', template: 'first' }],
    });
    const patched = await ann.patch<Workflow>(`/rest/v1/workflows/${wf.id}`, {
      steps: [{ id: 'out', kind: 'transform', mode: 'template', template: 'second' }],
    });
    expect(patched.body.version).toBe(2);
    const latest = await start(ann, { workflow_id: wf.id, inputs: {} });
    const old = await start(ann, { workflow_id: wf.id, inputs: {}, version: 1 });
    expect((await until(ann, latest.body.id, ended)).output).toBe('second');
    const oldRun = await until(ann, old.body.id, ended);
    expect(oldRun).toMatchObject({ version: 1, output: 'first' });
    const none = await start(ann, { workflow_id: wf.id, inputs: {}, version: 9 });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('workflows:version_not_found');
  });

  it('fails an agent step whose tool needs approval: unattended runs never approve tools', async () => {
    const agent = await ann.post<Agent>('/rest/v1/agents', {
      name: 'Careful Calculator',
      instructions: 'Use your tools.',
      provider: 'openai',
      tools: [{ tool: 'builtin:calculator', approval: 'always' }],
    });
    expect(agent.status).toBe(201);
    const wf = await save(ann, {
      name: 'Agent step',
      steps: [
        {
          id: 'calc',
          kind: 'prompt',
          agent_id: agent.body.id,
          prompt: 'What is 6*7? [sim:tool calculator {"expression":"6*7"}]',
        },
      ],
    });
    const row = await createWorkflowRun(t.deps, {
      userId: ann.id,
      workflowId: wf.id,
      inputs: {},
      trigger: 'manual',
    });
    const run = await executeWorkflowRun(t.deps, row.id, ann.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'workflows:needs_approval', step_id: 'calc' });
    expect(run.steps[0]!.error).toContain('needs approval; unattended runs never approve tools');
  });

  it('dry-runs a draft at once and stores no run', async () => {
    const res = await ann.post<{ status: string; steps: { status: string; output: unknown }[] }>(
      '/functions/v1/workflow-dry-run',
      {
        workflow: {
          name: 'Draft',
          inputs: [{ name: 'raw', type: 'text' }],
          steps: [
            {
              id: 'json',
              kind: 'transform',
              mode: 'extract_json',
              template: 'Here: {{inputs.raw}}',
              path: 'a.1',
            },
            {
              id: 'say',
              kind: 'transform',
              mode: 'template',
              template: 'Got {{steps.json.output}}',
            },
          ],
        },
        inputs: { raw: 'text {"a": [1, "two"]} more' },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('complete');
    expect(res.body.steps.map((s) => s.output)).toEqual(['two', 'Got two']);
    const bad = await ann.post<Refusal & { details: { step_id: string } }>(
      '/functions/v1/workflow-dry-run',
      {
        workflow: {
          name: 'Draft',
          steps: [
            { id: 'say', kind: 'transform', mode: 'template', template: '{{steps.x.output}}' },
          ],
        },
        inputs: {},
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.step_id).toBe('say');
  });

  it("never lets a second user see, run, cancel or retry the first user's runs", async () => {
    const wf = await save(ann, {
      name: 'Private',
      steps: [{ id: 'out', kind: 'transform', mode: 'template', template: 'mine' }],
    });
    const res = await start(ann, { workflow_id: wf.id, inputs: {} });
    await until(ann, res.body.id, ended);
    const theirs = await start(bob, { workflow_id: wf.id, inputs: {} });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('workflows:not_found');
    expect((await bob.get<Refusal>(`/rest/v1/workflow-runs/${res.body.id}`)).status).toBe(404);
    expect((await bob.post(`/rest/v1/workflow-runs/${res.body.id}/cancel`)).status).toBe(404);
    expect((await bob.post(`/rest/v1/workflow-runs/${res.body.id}/retry`)).status).toBe(404);
    expect((await bob.get(`/rest/v1/workflows/${wf.id}/runs`)).status).toBe(404);
    expect((await bob.get('/rest/v1/workflow-runs/not-a-uuid')).status).toBe(404);
  });
});
