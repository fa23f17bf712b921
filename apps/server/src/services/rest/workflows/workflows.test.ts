import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@chorus/shared/api/agents';
import type { CreateWorkflow, Workflow } from '@chorus/shared/api/workflows';
import { messageFor } from '@chorus/shared/error-catalogue';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = {
  error: string;
  code: string;
  details?: { step_id: string | null; field: string; message: string };
};

let t: TestApp;
let ann: Client;
let bob: Client;

const basic: CreateWorkflow = {
  name: 'Summarise',
  inputs: [{ name: 'url', type: 'text' }],
  steps: [
    { id: 'fetch', kind: 'transform', mode: 'template', template: 'Page {{inputs.url}}' },
    {
      id: 'summarize',
      kind: 'prompt',
      provider: 'openai',
      prompt: 'Summarise {{steps.fetch.output}}',
    },
  ],
};

const refusal = async (who: Client, body: unknown) => {
  const res = await who.post<Refusal>('/rest/v1/workflows', body);
  return res;
};

beforeAll(async () => {
  t = await startTestApp();
  ann = await t.user('workflows-ann@example.com');
  bob = await t.user('workflows-bob@example.com');
});
afterAll(() => t.close());

describe('workflows', () => {
  it('saves, lists, changes and deletes a workflow, each change a new version', async () => {
    const created = await ann.post<Workflow>('/rest/v1/workflows', basic);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Summarise', version: 1 });
    expect(created.body.steps[1]).toMatchObject({ kind: 'prompt', custom_ai_id: null });

    const list = await ann.get<{ workflows: Workflow[] }>('/rest/v1/workflows');
    expect(list.body.workflows.map((w) => w.id)).toContain(created.body.id);

    const same = await ann.patch<Workflow>(`/rest/v1/workflows/${created.body.id}`, {
      name: 'Summarise',
    });
    expect(same.body.version).toBe(1);
    const renamed = await ann.patch<Workflow>(`/rest/v1/workflows/${created.body.id}`, {
      name: 'Summarise pages',
    });
    expect(renamed.body.version).toBe(2);

    const versions = await ann.get<{ versions: { version: number; workflow: Workflow }[] }>(
      `/rest/v1/workflows/${created.body.id}/versions`,
    );
    expect(versions.body.versions.map((v) => [v.version, v.workflow.name])).toEqual([
      [2, 'Summarise pages'],
      [1, 'Summarise'],
    ]);
    const restored = await ann.post<Workflow>(
      `/rest/v1/workflows/${created.body.id}/versions/1/restore`,
    );
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ name: 'Summarise', version: 3 });
    const noVersion = await ann.post<Refusal>(
      `/rest/v1/workflows/${created.body.id}/versions/77/restore`,
    );
    expect(noVersion.status).toBe(404);
    expect(noVersion.body.code).toBe('workflows:version_not_found');

    expect((await ann.del(`/rest/v1/workflows/${created.body.id}`)).status).toBe(204);
    expect((await ann.get(`/rest/v1/workflows/${created.body.id}`)).status).toBe(404);
  });

  it('refuses an unknown reference at save, naming the step and the variable', async () => {
    const res = await refusal(ann, {
      ...basic,
      steps: [basic.steps[1], basic.steps[0]],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('workflows:unknown_reference');
    expect(res.body.error).toBe(
      messageFor('workflows:unknown_reference', {
        step: 'summarize',
        reference: '{{steps.fetch.output}}',
        why: 'no earlier step is called fetch',
      }),
    );
    expect(res.body.error).toContain(
      'Step “summarize” uses {{steps.fetch.output}}, but no earlier step is called fetch.',
    );
    expect(res.body.details).toMatchObject({ step_id: 'summarize', field: 'prompt' });

    const input = await refusal(ann, {
      ...basic,
      steps: [{ id: 'a', kind: 'transform', mode: 'template', template: '{{inputs.nope}}' }],
    });
    expect(input.body.code).toBe('workflows:unknown_reference');
    expect(input.body.error).toContain('no input is called nope');

    const junk = await refusal(ann, {
      ...basic,
      steps: [{ id: 'a', kind: 'transform', mode: 'template', template: '{{ 7*7 }}' }],
    });
    expect(junk.body.code).toBe('workflows:unknown_reference');
  });

  it('refuses repeated step ids, and conditions that read later steps or are not CEL', async () => {
    const twice = await refusal(ann, { ...basic, steps: [basic.steps[0], basic.steps[0]] });
    expect(twice.body.code).toBe('workflows:duplicate_step');

    const later = await refusal(ann, {
      ...basic,
      steps: [
        { id: 'gate', kind: 'condition', expression: 'steps.fetch.output == "x"' },
        basic.steps[0],
      ],
    });
    expect(later.body.code).toBe('workflows:unknown_reference');
    expect(later.body.details).toMatchObject({ step_id: 'gate', field: 'expression' });

    for (const expression of [
      '{{inputs.url}} == "x"',
      'this.constructor.constructor("return process")()',
      'steps.fetch.output.matches("(a+)+$")',
    ]) {
      const res = await refusal(ann, {
        ...basic,
        steps: [basic.steps[0], { id: 'gate', kind: 'condition', expression }],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('workflows:bad_condition');
    }

    const noModel = await refusal(ann, {
      ...basic,
      steps: [{ id: 'ask', kind: 'prompt', prompt: 'Hi' }],
    });
    expect(noModel.body.code).toBe('workflows:bad_step');
  });

  it('answers 4xx, never 500, for malformed bodies, ids and cursors', async () => {
    for (const body of [
      {},
      { name: 'x', steps: [] },
      { name: 'x', steps: [{ id: 'Bad Id', kind: 'transform', mode: 'template', template: 'a' }] },
      { name: 'x', steps: [{ id: 'a', kind: 'shell', command: 'rm' }] },
      { name: 'x', steps: [{ id: 'a', kind: 'condition', expression: 'x'.repeat(1001) }] },
      { name: 'x', steps: 'nope' },
    ]) {
      const res = await refusal(ann, body);
      expect(res.status).toBe(400);
    }
    expect((await ann.get('/rest/v1/workflows/not-an-id')).status).toBe(404);
    expect((await ann.post('/rest/v1/workflows/not-an-id/versions/x/restore')).status).toBe(404);
    const wf = await ann.post<Workflow>('/rest/v1/workflows', basic);
    const cursor = await ann.get<Refusal>(`/rest/v1/workflows/${wf.body.id}/runs?cursor=zzz`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.code).toBe('workflows:bad_cursor');
  });

  it("refuses steps that name another user's agent, custom AI, knowledge base or tool", async () => {
    const agent = await bob.post<Agent>('/rest/v1/agents', {
      name: 'Bobs Agent',
      provider: 'openai',
    });
    expect(agent.status).toBe(201);
    const withAgent = await refusal(ann, {
      name: 'Borrow',
      steps: [{ id: 'ask', kind: 'prompt', agent_id: agent.body.id, prompt: 'Hi' }],
    });
    expect(withAgent.status).toBe(404);
    expect(withAgent.body.code).toBe('agents:not_found');
    const ghost = '00000000-0000-4000-8000-000000000000';
    const checks = [
      [{ id: 'a', kind: 'prompt', custom_ai_id: ghost, prompt: 'Hi' }, 'custom_ais:not_found'],
      [
        { id: 'a', kind: 'knowledge_search', knowledge_base_ids: [ghost], query: 'q' },
        'knowledge:not_found',
      ],
      [{ id: 'a', kind: 'http_tool', tool_id: ghost }, 'tools:not_found'],
    ] as const;
    for (const [step, code] of checks) {
      const res = await refusal(ann, { name: 'Borrow', steps: [step] });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(code);
    }
  });

  it("never lets a second user see, change, restore or delete the first user's workflow", async () => {
    const wf = (await ann.post<Workflow>('/rest/v1/workflows', basic)).body;
    const path = `/rest/v1/workflows/${wf.id}`;
    expect((await bob.get(path)).status).toBe(404);
    expect((await bob.patch(path, { name: 'Mine now' })).status).toBe(404);
    expect((await bob.get(`${path}/versions`)).status).toBe(404);
    expect((await bob.post(`${path}/versions/1/restore`)).status).toBe(404);
    expect((await bob.del(path)).status).toBe(404);
    const list = await bob.get<{ workflows: Workflow[] }>('/rest/v1/workflows');
    expect(list.body.workflows).toEqual([]);
    expect((await ann.get<Workflow>(path)).body.name).toBe('Summarise');
  });
});
