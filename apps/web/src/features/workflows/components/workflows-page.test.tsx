import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Workflow, WorkflowRun, WorkflowStepRun } from '@chorus/shared/api/workflows';
import { messageFor } from '@chorus/shared/error-catalogue';
import { fakeApi, json, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { WorkflowsPage } from './workflows-page';

const workflowId = '5b0e3f0a-8c1d-4a3e-9f2b-7c6d5e4f3a21';
const runId = 'run-1';
const stamp = '2026-01-01T00:00:00.000Z';

const workflow = (over: Partial<Workflow> = {}): Workflow => ({
  id: workflowId,
  name: 'News digest',
  description: 'Summarises the news',
  inputs: [{ name: 'topic', label: 'Topic', type: 'text', required: true, default: null }],
  steps: [
    {
      id: 'summary',
      name: 'Summarise',
      kind: 'prompt',
      provider: 'openai',
      model: null,
      custom_ai_id: null,
      agent_id: null,
      system: '',
      prompt: 'Summarise {{inputs.topic}}',
      temperature: null,
    },
    { id: 'check', name: 'Is it urgent', kind: 'condition', expression: 'true' },
  ],
  version: 2,
  created_at: stamp,
  updated_at: stamp,
  ...over,
});

const stepRun = (over: Partial<WorkflowStepRun>): WorkflowStepRun => ({
  step_id: 'summary',
  kind: 'prompt',
  name: 'Summarise',
  status: 'pending',
  output: null,
  error: null,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: null,
  duration_ms: null,
  started_at: null,
  finished_at: null,
  ...over,
});

const run = (over: Partial<WorkflowRun> = {}): WorkflowRun => ({
  id: runId,
  workflow_id: workflowId,
  workflow_name: 'News digest',
  version: 2,
  status: 'complete',
  trigger: 'manual',
  inputs: { topic: 'rain' },
  steps: [],
  output: null,
  error: null,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: null,
  created_at: stamp,
  started_at: stamp,
  finished_at: null,
  ...over,
});

/** A stand-in server: the handler answers what the test is about, the rest is a plain default. */
const stubServer = (handler: ApiHandler = () => undefined) =>
  fakeApi(
    { '/functions/v1/get-enabled-providers': { providers: ['openai', 'anthropic'] } },
    (method, path, url) =>
      handler(method, path, url) ??
      (path.endsWith('/runs') ? json({ runs: [], next_cursor: null }) : undefined),
  );

const listOf =
  (workflows: Workflow[]): ApiHandler =>
  (method, path) =>
    path === '/rest/v1/workflows' && method === 'GET' ? json({ workflows }) : undefined;

const renderPage = (path = '/workflows') =>
  renderRoutes({
    path,
    routes: [
      { path: '/workflows', element: <WorkflowsPage /> },
      { path: '/tools', element: <p>The tools</p> },
    ],
    session: signedInSession,
  });

const openNewEditor = async () => {
  fireEvent.click((await screen.findAllByRole('button', { name: 'New workflow' }))[0]!);
  return screen.findByRole('dialog', { name: 'New workflow' });
};

const addStep = (dialog: HTMLElement, kind: string) =>
  fireEvent.click(
    within(within(dialog).getByRole('group', { name: 'Add a step' })).getByRole('button', {
      name: kind,
    }),
  );

const stepTitles = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('list', { name: 'Steps' }))
    .getAllByRole('listitem')
    .filter((item) => item.getAttribute('aria-label')?.startsWith('Step '))
    .map((item) => item.getAttribute('aria-label'));

describe('the workflows page', () => {
  it('says what a workflow is and what to set up when there is none', async () => {
    stubServer(listOf([]));
    renderPage();
    expect(await screen.findByText('No workflows yet')).toBeTruthy();
    expect(screen.getByText(/A workflow runs steps one after another/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Set up tools' }).getAttribute('href')).toBe('/tools');
    expect(
      screen.getByRole('link', { name: 'Templates and variables: the guide' }).getAttribute('href'),
    ).toMatch(/^\/help\//);
  });

  it('lists each workflow with its steps, version and the status of its last run', async () => {
    stubServer((method, path) => {
      if (path === '/rest/v1/workflows') return json({ workflows: [workflow()] });
      if (path === `/rest/v1/workflows/${workflowId}/runs`) {
        return json({ runs: [run({ status: 'failed' })], next_cursor: null });
      }
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'News digest' });
    expect(card.textContent).toContain('2 steps');
    expect(card.textContent).toContain('Version 2');
    await waitFor(() => expect(card.textContent).toContain('Last run: Failed'));
  });

  it('adds, reorders and removes steps, and saves them in that order', async () => {
    const calls = stubServer((method, path) => {
      if (path !== '/rest/v1/workflows') return undefined;
      if (method === 'POST') return json(workflow(), 201);
      return json({ workflows: [] });
    });
    renderPage();
    const dialog = await openNewEditor();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Digest' } });
    addStep(dialog, 'Prompt');
    addStep(dialog, 'Condition');
    addStep(dialog, 'Transform');
    expect(stepTitles(dialog)).toEqual([
      'Step 1: Prompt',
      'Step 2: Condition',
      'Step 3: Transform',
    ]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Move step 3 up' }));
    expect(stepTitles(dialog)).toEqual([
      'Step 1: Prompt',
      'Step 2: Transform',
      'Step 3: Condition',
    ]);
    expect(
      within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Move step 1 up' }).disabled,
    ).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove step 3' }));
    expect(stepTitles(dialog)).toEqual(['Step 1: Prompt', 'Step 2: Transform']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move step 1 down' }));
    expect(stepTitles(dialog)).toEqual(['Step 1: Transform', 'Step 2: Prompt']);

    const [transform, prompt] = within(dialog)
      .getAllByRole('listitem')
      .filter((item) => item.getAttribute('aria-label')?.startsWith('Step '));
    fireEvent.change(within(transform!).getByLabelText('Template'), {
      target: { value: 'Today' },
    });
    fireEvent.change(within(prompt!).getByLabelText('Prompt'), {
      target: { value: 'Write about {{steps.transform_1.output}}' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create workflow' }));
    await waitFor(() => {
      const body = calls.find((c) => c.method === 'POST' && c.path === '/rest/v1/workflows')
        ?.body as Workflow | undefined;
      expect(body?.steps.map((s) => `${s.kind}:${s.id}`)).toEqual([
        'transform:transform_1',
        'prompt:prompt_1',
      ]);
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('flags an unknown reference as it is typed, and inserts a known one at the cursor', async () => {
    stubServer(listOf([]));
    renderPage();
    const dialog = await openNewEditor();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add input' }));
    addStep(dialog, 'Prompt');
    addStep(dialog, 'Prompt');
    const [first, second] = within(dialog)
      .getAllByRole('listitem')
      .filter((item) => item.getAttribute('aria-label')?.startsWith('Step '));

    const prompt = within(first!).getByLabelText<HTMLTextAreaElement>('Prompt');
    fireEvent.change(prompt, {
      target: { value: 'About {{inputs.topik}} and {{steps.prompt_2.output}}' },
    });
    expect(prompt.getAttribute('aria-invalid')).toBe('true');
    expect(first!.textContent).toContain('{{inputs.topik}} is not an input of this workflow');
    expect(first!.textContent).toContain('“prompt_2” is not a step before this one');

    fireEvent.change(prompt, { target: { value: 'About {{inputs.topic}}' } });
    expect(prompt.getAttribute('aria-invalid')).toBeNull();
    expect(first!.textContent).not.toContain('is not');

    // The second step may use the first; the first may not use the second.
    const insert = within(second!).getByRole('group', { name: 'Insert a variable into Prompt' });
    expect(
      within(insert)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['{{inputs.topic}}', '{{steps.prompt_1.output}}']);
    expect(
      within(within(first!).getByRole('group', { name: 'Insert a variable into Prompt' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['{{inputs.topic}}']);

    const secondPrompt = within(second!).getByLabelText<HTMLTextAreaElement>('Prompt');
    fireEvent.change(secondPrompt, { target: { value: 'Check: ' } });
    secondPrompt.setSelectionRange(7, 7);
    fireEvent.click(within(insert).getByRole('button', { name: '{{steps.prompt_1.output}}' }));
    expect(secondPrompt.value).toBe('Check: {{steps.prompt_1.output}}');
  });

  it('shows the server’s refusal of an unknown reference on save', async () => {
    // What the server sends: the catalogue's detail for this step and reference.
    const message = messageFor('workflows:unknown_reference', {
      step: 'summary',
      reference: '{{inputs.place}}',
      why: 'it is not an input of this workflow',
    });
    stubServer((method, path) => {
      if (path === '/rest/v1/workflows') return json({ workflows: [workflow()] });
      if (path === `/rest/v1/workflows/${workflowId}` && method === 'PATCH') {
        return json({ error: message, code: 'workflows:unknown_reference' }, 400);
      }
      return undefined;
    });
    renderPage(`/workflows?edit=${workflowId}`);
    const dialog = await screen.findByRole('dialog', { name: 'Edit “News digest”' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(message);
  });

  it('dry-runs the draft with sample inputs and shows each step’s result', async () => {
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/workflows') return json({ workflows: [workflow()] });
      if (path === '/functions/v1/workflow-dry-run') {
        return json(
          run({
            steps: [
              stepRun({
                status: 'done',
                output: 'Rain all day',
                input_tokens: 12,
                output_tokens: 4,
              }),
              stepRun({
                step_id: 'check',
                kind: 'condition',
                name: 'Is it urgent',
                status: 'done',
                output: true,
              }),
            ],
          }),
        );
      }
      return undefined;
    });
    renderPage(`/workflows?edit=${workflowId}`);
    const dialog = await screen.findByRole('dialog', { name: 'Edit “News digest”' });
    const dryRun = within(dialog).getByRole('region', { name: 'Dry run' });
    fireEvent.click(within(dryRun).getByRole('button', { name: 'Dry run' }));
    expect(await within(dryRun).findByText('Fill in Topic')).toBeTruthy();
    fireEvent.change(within(dryRun).getByLabelText('Topic'), { target: { value: 'rain' } });
    fireEvent.click(within(dryRun).getByRole('button', { name: 'Dry run' }));
    const steps = await within(dryRun).findByRole('list', { name: 'Dry run steps' });
    expect(within(steps).getByLabelText('Output of step 1').textContent).toBe('Rain all day');
    expect(within(steps).getByLabelText('Output of step 2').textContent).toBe('true');
    expect(
      (calls.find((c) => c.path === '/functions/v1/workflow-dry-run')?.body as { inputs: unknown })
        .inputs,
    ).toEqual({ topic: 'rain' });
  });

  it('follows a run live, a step at a time, and stops asking once it has ended', async () => {
    // The first step as it stands once done: its output holds markup.
    const summarised = stepRun({
      status: 'done',
      output: '<b>Rain</b>',
      input_tokens: 10,
      output_tokens: 5,
      duration_ms: 1200,
    });
    const states = [
      run({ status: 'queued', steps: [stepRun({}), stepRun({ step_id: 'check', name: 'Check' })] }),
      run({
        status: 'running',
        steps: [
          summarised,
          stepRun({ step_id: 'check', name: 'Check', status: 'running', started_at: stamp }),
        ],
      }),
      run({
        status: 'complete',
        steps: [
          summarised,
          stepRun({
            step_id: 'check',
            name: 'Check',
            status: 'done',
            output: true,
            duration_ms: 5,
          }),
        ],
        finished_at: stamp,
      }),
    ];
    let reads = 0;
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/workflows') return json({ workflows: [workflow()] });
      if (path === `/rest/v1/workflow-runs/${runId}`) {
        const state = states[Math.min(reads, states.length - 1)];
        reads += 1;
        return json(state);
      }
      return undefined;
    });
    renderPage(`/workflows?run=${runId}`);
    const dialog = await screen.findByRole('dialog', { name: 'Workflow run' });
    expect(await within(dialog).findByText('Waiting for a worker to pick it up…')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Cancel run' })).toBeTruthy();
    expect(
      await within(dialog).findByText('Running: 1 of 2 steps finished', {}, { timeout: 4000 }),
    ).toBeTruthy();
    // Output is text: markup in it is shown, never rendered.
    expect(within(dialog).getByLabelText('Output of step 1').textContent).toBe('<b>Rain</b>');
    expect(
      within(dialog).getByRole('listitem', { name: 'Step 1: Summarise' }).textContent,
    ).toContain('10 in · 5 out');
    expect(
      await within(dialog).findByText(
        'Finished: 2 of 2 steps ran or were skipped',
        {},
        { timeout: 4000 },
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Cancel run' })).toBeNull();

    const readsWhenDone = calls.filter((c) => c.path === `/rest/v1/workflow-runs/${runId}`).length;
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(calls.filter((c) => c.path === `/rest/v1/workflow-runs/${runId}`).length).toBe(
      readsWhenDone,
    );
  }, 15_000);

  it('cancels a running run, and retries a failed one from its failed step', async () => {
    let status: WorkflowRun['status'] = 'running';
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/workflows') return json({ workflows: [] });
      if (path === `/rest/v1/workflow-runs/${runId}/cancel`) {
        status = 'failed';
        return json(run({ status: 'cancelled' }));
      }
      if (path === `/rest/v1/workflow-runs/${runId}/retry`)
        return json(run({ id: 'run-2', status: 'queued' }));
      if (path === `/rest/v1/workflow-runs/${runId}`) {
        return json(
          run({
            status,
            steps: [
              stepRun({
                status: status === 'failed' ? 'failed' : 'running',
                error: status === 'failed' ? 'The key was refused' : null,
              }),
            ],
            error:
              status === 'failed'
                ? {
                    code: 'workflows:step_failed',
                    message: 'The key was refused',
                    step_id: 'summary',
                  }
                : null,
          }),
        );
      }
      if (path === '/rest/v1/workflow-runs/run-2')
        return json(run({ id: 'run-2', status: 'complete' }));
      return undefined;
    });
    const { router } = renderPage(`/workflows?run=${runId}`);
    const dialog = await screen.findByRole('dialog', { name: 'Workflow run' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Cancel run' }));
    const retry = await within(dialog).findByRole('button', { name: 'Retry from failed step' });
    expect(within(dialog).getByRole('alert').textContent).toContain('The key was refused');
    fireEvent.click(retry);
    await waitFor(() => expect(router.state.location.search).toBe('?run=run-2'));
    expect(
      calls.filter((c) => c.method === 'POST' && c.path.startsWith('/rest/')).map((c) => c.path),
    ).toEqual([`/rest/v1/workflow-runs/${runId}/cancel`, `/rest/v1/workflow-runs/${runId}/retry`]);
  });
});
