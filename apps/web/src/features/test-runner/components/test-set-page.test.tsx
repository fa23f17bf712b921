import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Prompt } from '@chorus/shared/api/prompts';
import type { CreateTestCase, StartTestRun, TestRunEstimate } from '@chorus/shared/api/test-runs';
import { messageFor } from '@chorus/shared/error-catalogue';
import { fakeApi, json, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { customAiId, promptId, runId, runStatus, setId, testCase, testSet } from '../test/fixtures';
import { TestSetPage } from './test-set-page';

const prompt = {
  id: promptId,
  title: 'Reply to a ticket',
  variables: [
    { name: 'topic', default: null },
    { name: 'tone', default: 'friendly' },
  ],
} as Prompt;

const estimate = (over: Partial<TestRunEstimate> = {}): TestRunEstimate => ({
  calls: 4,
  judge_calls: 2,
  estimated_input_tokens: 1_200,
  estimated_output_tokens: 800,
  estimated_cost_usd: 0.0123,
  prompts_left_today: 100,
  missing_keys: [],
  ...over,
});

const setPath = `/rest/v1/test-sets/${setId}`;

/** A stand-in server: the handler answers what the test is about, the rest is a plain default. */
const stubServer = (handler: ApiHandler = () => undefined) =>
  fakeApi(
    {
      '/functions/v1/get-enabled-providers': { providers: ['openai', 'anthropic'] },
      '/rest/v1/test-runs': { items: [], next_cursor: null },
      [setPath]: testSet(),
      [`${setPath}/cases`]: { items: [testCase()] },
      [`/rest/v1/prompts/${promptId}`]: prompt,
    },
    handler,
  );

const renderPage = () =>
  renderRoutes({
    path: `/test-runner/sets/${setId}`,
    routes: [
      { path: '/test-runner/sets/:id', element: <TestSetPage /> },
      { path: '/test-runner/runs/:id', element: <p>The run page</p> },
      { path: '/test-runner', element: <p>The test runner</p> },
    ],
    session: signedInSession,
  });

const addAssertion = (dialog: HTMLElement, label: string) => {
  fireEvent.change(within(dialog).getByLabelText('Assertion to add'), {
    target: { value: label },
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Add assertion' }));
};

describe('a test set’s page', () => {
  it('shows the set’s subject and its cases', async () => {
    stubServer();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Support replies', level: 1 })).toBeTruthy();
    expect(screen.getByText(/Prompt: Reply to a ticket/)).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Cases' });
    const row = within(table).getByRole('row', { name: /Refund request/ });
    expect(row.textContent).toContain('topic = refund');
    expect(row.textContent).toContain('Contains');
    expect(screen.getByText(/No runs yet/)).toBeTruthy();
  });

  it('says the set cannot run when what it tests was deleted', async () => {
    stubServer((method, path) =>
      path === setPath ? json(testSet({ subject_name: null })) : undefined,
    );
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The prompt this set tests was deleted.',
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Run' }).disabled).toBe(true);
  });

  it('adds a case with the template’s variables and an assertion of each kind it needs', async () => {
    const calls = stubServer((method, path) =>
      path === `${setPath}/cases` && method === 'POST'
        ? json(testCase({ name: 'Angry refund' }), 201)
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Add case' }));
    const dialog = await screen.findByRole('dialog', { name: 'New case' });
    // A prompt fills its template: no input field, its variables are ready to fill in.
    expect(within(dialog).queryByLabelText('Input')).toBeNull();
    const topic = await within(dialog).findByLabelText<HTMLInputElement>('Value of topic');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Value of tone').value).toBe('friendly');
    fireEvent.change(topic, { target: { value: 'a late refund' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Angry refund' } });

    addAssertion(dialog, 'contains');
    addAssertion(dialog, 'regex');
    addAssertion(dialog, 'json_schema');
    addAssertion(dialog, 'judge');
    addAssertion(dialog, 'latency');

    const contains = within(dialog).getByRole('listitem', { name: 'Assertion 1: Contains' });
    fireEvent.change(within(contains).getByLabelText('Texts to look for'), {
      target: { value: 'refund\n\nsorry\n' },
    });
    fireEvent.change(within(contains).getByLabelText('Passes when'), { target: { value: 'all' } });

    const regex = within(dialog).getByRole('listitem', { name: 'Assertion 2: Matches a regex' });
    expect(within(regex).getByText(/RE2 syntax/)).toBeTruthy();
    fireEvent.change(within(regex).getByLabelText('Pattern'), { target: { value: '^Dear' } });
    fireEvent.click(within(regex).getByLabelText('i — ignore case'));

    const schema = within(dialog).getByRole('listitem', {
      name: 'Assertion 3: Matches a JSON schema',
    });
    const schemaField = within(schema).getByLabelText('JSON schema');
    fireEvent.change(schemaField, { target: { value: '{ "type": ' } });
    expect(within(schema).getByText(/The schema is not valid JSON/)).toBeTruthy();

    const judge = within(dialog).getByRole('listitem', { name: 'Assertion 4: LLM judge' });
    fireEvent.change(within(judge).getByLabelText('Rubric'), {
      target: { value: 'Apologises and explains the refund steps' },
    });
    fireEvent.change(within(judge).getByLabelText('Pass score'), { target: { value: '0.8' } });

    // The latency is left empty and the schema broken: both are said before anything is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add case' }));
    const latency = within(dialog).getByRole('listitem', { name: 'Assertion 5: Latency' });
    expect(within(latency).getByRole('alert').textContent).toBe(
      'Give the longest time an answer may take, in milliseconds',
    );
    expect(within(schema).getByRole('alert').textContent).toMatch(/not valid JSON/);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(schemaField, {
      target: { value: '{ "type": "object", "required": ["reply"] }' },
    });
    fireEvent.change(within(latency).getByLabelText('At most (milliseconds)'), {
      target: { value: '5000' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add case' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New case' })).toBeNull());

    const body = calls.find((c) => c.method === 'POST' && c.path === `${setPath}/cases`)
      ?.body as CreateTestCase;
    expect(body).toEqual({
      name: 'Angry refund',
      input: '',
      variables: { topic: 'a late refund', tone: 'friendly' },
      expected_output: null,
      assertions: [
        { type: 'contains', values: ['refund', 'sorry'], mode: 'all', ignore_case: true },
        { type: 'regex', pattern: '^Dear', flags: 'i' },
        { type: 'json_schema', schema: { type: 'object', required: ['reply'] } },
        {
          type: 'judge',
          rubric: 'Apologises and explains the refund steps',
          provider: 'openai',
          model: 'gpt-5-mini',
          pass_score: 0.8,
        },
        { type: 'latency', max_ms: 5000 },
      ],
    });
  });

  it('asks a custom AI’s case for its input, and edits an existing case', async () => {
    const calls = stubServer((method, path) => {
      if (path === setPath) {
        return json(testSet({ subject: { kind: 'custom_ai', id: customAiId } }));
      }
      if (path === `${setPath}/cases` && method === 'GET') {
        return json({
          items: [testCase({ input: 'Where is my money?', variables: {}, assertions: [] })],
        });
      }
      if (method === 'PATCH') return json(testCase());
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit “Refund request”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit “Refund request”' });
    const input = within(dialog).getByLabelText<HTMLTextAreaElement>('Input');
    expect(input.value).toBe('Where is my money?');
    fireEvent.change(input, { target: { value: 'Where is my refund?' } });
    addAssertion(dialog, 'is_json');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save case' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe(`${setPath}/cases/${testCase().id}`);
    expect(patch?.body).toMatchObject({
      input: 'Where is my refund?',
      assertions: [{ type: 'is_json' }],
    });
  });

  it('estimates the run as the models and repeats change, then starts it', async () => {
    const estimates: StartTestRun[] = [];
    const calls = stubServer((method, path) => {
      if (path === '/functions/v1/test-run/estimate') {
        // The estimate answers from what it was asked: the call just recorded.
        const asked = calls.at(-1)?.body as StartTestRun;
        estimates.push(asked);
        return json(
          estimate({
            calls: 2 * asked.targets.length * asked.repeats,
            missing_keys: asked.targets.some((t) => t.provider === 'anthropic')
              ? ['anthropic']
              : [],
          }),
        );
      }
      if (path === '/functions/v1/test-run' && method === 'POST') {
        return json(runStatus({ status: 'queued', done: 0 }), 202);
      }
      if (path === setPath && method === 'PATCH') return json(testSet());
      return undefined;
    });
    const { router } = renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run “Support replies”' });
    // The set's models and repeats come first.
    const first = within(dialog).getByRole('group', { name: 'Target 1' });
    expect(within(first).getByLabelText<HTMLSelectElement>('Provider').value).toBe('openai');
    expect(within(first).getByLabelText<HTMLSelectElement>('Model').value).toBe('gpt-5-mini');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Repeats').value).toBe('2');

    const shown = within(dialog).getByRole('region', { name: 'Estimate' });
    await waitFor(() => expect(shown.textContent).toContain('4 + 2 judge calls'));
    expect(shown.textContent).toContain('$0.0123');
    expect(shown.textContent).toContain('Prompts left today100');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add model' }));
    const second = within(dialog).getByRole('group', { name: 'Target 2' });
    fireEvent.change(within(second).getByLabelText('Provider'), {
      target: { value: 'anthropic' },
    });
    fireEvent.change(within(dialog).getByLabelText('Repeats'), { target: { value: '3' } });
    await waitFor(() => expect(shown.textContent).toContain('12 + 2 judge calls'));
    expect(shown.textContent).toContain('You have no key for Anthropic');
    expect(estimates.at(-1)).toEqual({
      test_set_id: setId,
      targets: [
        { provider: 'openai', model: 'gpt-5-mini' },
        { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      ],
      repeats: 3,
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/test-runner/runs/${runId}`));
    expect(calls.find((c) => c.path === '/functions/v1/test-run')?.body).toEqual(estimates.at(-1));
    // The next run of the set offers the same models first.
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH' && c.path === setPath)?.body).toEqual({
        targets: estimates.at(-1)?.targets,
        repeats: 3,
      }),
    );
  });

  it('imports a pasted CSV and lists the rows the server refused', async () => {
    const refusal = messageFor('test_sets:bad_import', {
      count: 2,
      first: 'row 2: The pattern cannot be empty',
    });
    let answer = json(
      {
        error: refusal,
        code: 'test_sets:bad_import',
        imported: 0,
        errors: [
          { row: 2, message: 'The pattern cannot be empty' },
          { row: 3, message: 'The name cannot be empty' },
        ],
      },
      422,
    );
    const calls = stubServer((method, path) =>
      path === `${setPath}/cases/import` ? answer : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Import cases into “Support replies”',
    });
    const content = 'name,topic,assert\nA,refund,regex:\n,x,judge:Polite';
    fireEvent.change(within(dialog).getByLabelText('Cases to import'), {
      target: { value: content },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import cases' }));
    const rows = await within(dialog).findByRole('list', { name: 'Rows to fix' });
    expect(within(dialog).getByRole('alert').textContent).toContain(refusal);
    expect(
      within(rows)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Row 2: The pattern cannot be empty', 'Row 3: The name cannot be empty']);
    expect(calls.find((c) => c.path.endsWith('/import'))?.body).toEqual({
      format: 'csv',
      content,
      judge: { provider: 'openai', model: 'gpt-5-mini' },
    });

    // Fixed: the cases go in and the dialog closes.
    answer = json({ imported: 3, errors: [] }, 201);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import cases' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Import cases/ })).toBeNull());
  });

  it('adds cases saved from scenario answers', async () => {
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/test-cases') {
        return json({
          items: [
            {
              id: 'd1b2c3d4-0000-4000-8000-000000000001',
              name: 'Saved greeting',
              system_prompt: '',
              prompt: 'Say hi',
              variables: {},
              expected_output: 'Hi!',
              scenario_id: null,
              scenario_run_id: null,
              provider: 'openai',
              model: 'gpt-5-mini',
              created_at: '2026-01-01T00:00:00.000Z',
            },
          ],
        });
      }
      if (path === `${setPath}/cases/file`) return json({ filed: 1 });
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Add saved cases' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add saved cases' });
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: /Saved greeting/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add 1 case' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === `${setPath}/cases/file`)?.body).toEqual({
        case_ids: ['d1b2c3d4-0000-4000-8000-000000000001'],
      }),
    );
    expect(calls.find((c) => c.path === '/rest/v1/test-cases')?.search).toBe(
      '?unfiled=true&limit=200',
    );
  });
});
