import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Agent, AgentVersion } from '@chorus/shared/api/agents';
import type { KnowledgeBaseList } from '@chorus/shared/api/knowledge';
import type { HttpTool, McpServer } from '@chorus/shared/api/tools';
import { messageFor } from '@chorus/shared/error-catalogue';
import { fakeApi, json, openAiKeyRoute, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { AgentsPage } from './agents-page';
import { onceApprovalHint } from './agent-draft';

const agentId = '3c9a7b1e-2d4f-4e8a-9b6c-1a2b3c4d5e6f';
const httpToolId = '6d1c0f9e-0d3b-4d7e-9a55-2f6f0b1c2d3e';
const mcpToolId = '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f';
const otherMcpToolId = '1b2c3d4e-5f60-4a1b-8c2d-3e4f5a6b7c8d';
const stamp = '2026-01-01T00:00:00.000Z';

const agent = (over: Partial<Agent> = {}): Agent => ({
  id: agentId,
  name: 'Trip planner',
  handle: 'trip-planner',
  description: 'Plans days out around the weather',
  avatar: '🧭',
  instructions: 'Check the weather first.',
  provider: 'openai',
  model: 'gpt-5-mini',
  temperature: 0.2,
  max_steps: 8,
  tools: [
    { tool: 'builtin:calculator', approval: 'never' },
    { tool: `http:${httpToolId}`, approval: 'once' },
  ],
  knowledge_base_ids: [],
  version: 3,
  created_at: stamp,
  updated_at: stamp,
  ...over,
});

const httpTool: HttpTool = {
  id: httpToolId,
  key: `http:${httpToolId}`,
  name: 'get_weather',
  description: 'The weather in a city',
  method: 'GET',
  url_template: 'https://api.example.com/weather?city={city}',
  headers: [],
  input_schema: { type: 'object', properties: { city: { type: 'string' } } },
  created_at: stamp,
  updated_at: stamp,
};

const mcpServer: McpServer = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  name: 'Issue tracker',
  url: 'https://mcp.example.com/mcp',
  auth: 'none',
  token_hint: null,
  transport: 'streamable-http',
  status: 'ok',
  last_error: null,
  authorize_url: null,
  last_synced_at: stamp,
  tools: [
    {
      id: mcpToolId,
      key: `mcp:${mcpToolId}`,
      name: 'create_issue',
      description: 'Files an issue',
      input_schema: { type: 'object', properties: {} },
      enabled: true,
      state: 'approved',
      pending: null,
      hash: 'h1',
    },
    {
      id: otherMcpToolId,
      key: `mcp:${otherMcpToolId}`,
      name: 'drop_database',
      description: 'Turned off',
      input_schema: { type: 'object', properties: {} },
      enabled: false,
      state: 'approved',
      pending: null,
      hash: 'h2',
    },
  ],
  created_at: stamp,
  updated_at: stamp,
};

const bases: KnowledgeBaseList = { vectors_available: true, knowledge_bases: [] };

/** A stand-in server: the handler answers what the test is about, the rest is a plain default. */
const stubServer = (handler?: ApiHandler) =>
  fakeApi(
    {
      ...openAiKeyRoute,
      '/rest/v1/knowledge-bases': bases,
      '/rest/v1/tools': { tools: [httpTool] },
      '/rest/v1/mcp-servers': { servers: [mcpServer] },
    },
    handler,
  );

const listOf =
  (agents: Agent[]): ApiHandler =>
  (method, path) =>
    path === '/rest/v1/agents' && method === 'GET' ? json({ agents }) : undefined;

const renderPage = () =>
  renderRoutes({
    path: '/agents',
    routes: [
      { path: '/agents', element: <AgentsPage /> },
      { path: '/chat', element: <p>The chat</p> },
      { path: '/tools', element: <p>The tools</p> },
    ],
    session: signedInSession,
  });

const openNewDialog = async () => {
  fireEvent.click((await screen.findAllByRole('button', { name: 'New agent' }))[0]!);
  return screen.findByRole('dialog', { name: 'New agent' });
};

describe('the agents page', () => {
  it('says what an agent is and what to set up when there is none', async () => {
    stubServer(listOf([]));
    renderPage();
    expect(await screen.findByText('No agents yet')).toBeTruthy();
    expect(
      screen.getByText(/An agent is a model with instructions that can call tools/),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Set up tools' }).getAttribute('href')).toBe('/tools');
    expect(
      screen.getByRole('link', { name: 'Instructions and models: the guide' }).getAttribute('href'),
    ).toMatch(/^\/help\//);
  });

  it('lists each agent with its avatar, @handle, model, tools and version, and chats with it', async () => {
    stubServer(listOf([agent()]));
    const { router } = renderPage();
    const list = await screen.findByRole('list', { name: 'Your agents' });
    const card = within(list).getByRole('listitem', { name: 'Trip planner' });
    expect(card.textContent).toContain('🧭');
    expect(card.textContent).toContain('@trip-planner');
    expect(card.textContent).toContain('OpenAI · GPT-5 mini');
    expect(card.textContent).toContain('2 tools');
    expect(card.textContent).toContain('Version 3');
    expect(card.textContent).toContain('Type @trip-planner in any chat to hand it the turn.');

    fireEvent.click(within(card).getByRole('link', { name: 'Chat with it' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/chat'));
    expect(router.state.location.search).toBe(`?agent=${agentId}`);
  });

  it('says beside each field what to fix before it sends anything', async () => {
    const calls = stubServer(listOf([]));
    renderPage();
    const dialog = await openNewDialog();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Max steps').value).toBe('10');
    fireEvent.change(within(dialog).getByLabelText('Max steps'), { target: { value: '30' } });
    fireEvent.change(within(dialog).getByLabelText('Temperature'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create agent' }));

    expect(await within(dialog).findByText('Give the agent a name')).toBeTruthy();
    expect(within(dialog).getByText('An agent takes at most 25 steps')).toBeTruthy();
    expect(within(dialog).getByText('The temperature is between 0 and 2')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Name'));
    expect(calls.some((c) => c.path === '/rest/v1/agents' && c.method === 'POST')).toBe(false);
  });

  it('creates an agent with its tools, each with the approval policy chosen', async () => {
    let created: Agent | null = null;
    const calls = stubServer((method, path) => {
      if (path !== '/rest/v1/agents') return undefined;
      if (method === 'POST') {
        created = agent({ name: 'Helper', handle: 'helper' });
        return json(created, 201);
      }
      return json({ agents: created ? [created] : [] });
    });
    renderPage();
    const dialog = await openNewDialog();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Helper' } });
    fireEvent.change(within(dialog).getByLabelText('Instructions'), {
      target: { value: 'Be brief.' },
    });

    // The built-ins, the user's HTTP tools and the enabled tools of each MCP server.
    const builtins = within(dialog).getByRole('list', { name: 'Built-in' });
    fireEvent.click(within(builtins).getByRole('checkbox', { name: /Calculator/ }));
    // Ticked, a tool asks every time until told otherwise.
    const calculatorApproval = within(dialog).getByRole<HTMLSelectElement>('combobox', {
      name: 'Approval for Calculator',
    });
    expect(calculatorApproval.value).toBe('always');
    expect([...calculatorApproval.options].map((o) => o.text)).toEqual([
      'Always ask',
      'Ask once per conversation and address',
      'Never ask',
    ]);
    expect(dialog.textContent).not.toContain(onceApprovalHint);
    fireEvent.change(calculatorApproval, { target: { value: 'once' } });
    // Asked once, the picker says plainly what a yes covers, and what asks again.
    expect(dialog.textContent).toContain(onceApprovalHint);

    const http = await within(dialog).findByRole('list', { name: 'Your HTTP tools' });
    fireEvent.click(within(http).getByRole('checkbox', { name: /get_weather/ }));
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Approval for get_weather' }), {
      target: { value: 'never' },
    });
    const mcp = await within(dialog).findByRole('list', { name: 'MCP: Issue tracker' });
    expect(within(mcp).queryByRole('checkbox', { name: /drop_database/ })).toBeNull();
    fireEvent.click(within(mcp).getByRole('checkbox', { name: /create_issue/ }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create agent' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/rest/v1/agents')?.body).toEqual({
        name: 'Helper',
        avatar: '',
        description: '',
        instructions: 'Be brief.',
        provider: 'openai',
        model: null,
        temperature: null,
        max_steps: 10,
        tools: [
          { tool: 'builtin:calculator', approval: 'once' },
          { tool: `http:${httpToolId}`, approval: 'never' },
          { tool: `mcp:${mcpToolId}`, approval: 'always' },
        ],
        knowledge_base_ids: [],
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('listitem', { name: 'Helper' })).toBeTruthy();
  });

  it('shows the server’s refusal beside the field it is about, or above the buttons', async () => {
    let answer = json(
      { error: messageFor('agents:handle_taken'), code: 'agents:handle_taken' },
      409,
    );
    stubServer((method, path) => {
      if (path !== '/rest/v1/agents') return undefined;
      if (method === 'POST') return answer;
      return json({ agents: [] });
    });
    renderPage();
    const dialog = await openNewDialog();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Trip planner' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create agent' }));
    const name = within(dialog).getByLabelText('Name');
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe(
      messageFor('agents:handle_taken'),
    );

    answer = json({ error: messageFor('agents:too_many'), code: 'agents:too_many' }, 409);
    fireEvent.change(name, { target: { value: 'Another one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create agent' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      messageFor('agents:too_many'),
    );
  });

  it('edits an agent: the form starts from it, with each tool’s policy', async () => {
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/agents') return json({ agents: [agent()] });
      if (path === `/rest/v1/agents/${agentId}` && method === 'PATCH') return json(agent());
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Trip planner' });
    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit “Trip planner”' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Max steps').value).toBe('8');
    expect(
      within(dialog).getByRole<HTMLSelectElement>('combobox', { name: 'Approval for Calculator' })
        .value,
    ).toBe('never');
    const weather = await within(dialog).findByRole<HTMLSelectElement>('combobox', {
      name: 'Approval for get_weather',
    });
    expect(weather.value).toBe('once');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Calculator/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect((calls.find((c) => c.method === 'PATCH')?.body as Agent | undefined)?.tools).toEqual([
        { tool: `http:${httpToolId}`, approval: 'once' },
      ]),
    );
  });

  it('lists the versions of an agent and restores one after asking', async () => {
    const versions: AgentVersion[] = [2, 3].map((version) => ({
      version,
      created_at: stamp,
      agent: {
        name: 'Trip planner',
        handle: 'trip-planner',
        description: 'Plans days out around the weather',
        avatar: '🧭',
        instructions: version === 2 ? 'Old instructions' : 'Check the weather first.',
        provider: 'openai',
        model: 'gpt-5-mini',
        temperature: 0.2,
        max_steps: 8,
        tools: agent().tools,
        knowledge_base_ids: [],
      },
    }));
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/agents') return json({ agents: [agent()] });
      if (path === `/rest/v1/agents/${agentId}/versions`) return json({ versions });
      if (path === `/rest/v1/agents/${agentId}/versions/2/restore` && method === 'POST') {
        return json(agent({ version: 4 }));
      }
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Trip planner' });
    fireEvent.click(within(card).getByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'History of “Trip planner”' });
    const current = await within(dialog).findByRole('listitem', { name: 'Version 3' });
    expect(current.textContent).toContain('Current');
    expect(within(current).queryByRole('button', { name: 'Restore' })).toBeNull();
    const older = within(dialog).getByRole('listitem', { name: 'Version 2' });
    expect(older.textContent).toContain('Differs from the current version in: instructions.');
    fireEvent.click(within(older).getByRole('button', { name: 'Restore' }));

    const confirm = await screen.findByRole('dialog', { name: 'Restore version 2?' });
    expect(calls.some((c) => c.path.endsWith('/restore'))).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Restore this version' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
        `/rest/v1/agents/${agentId}/versions/2/restore`,
      ]),
    );
  });

  it('deletes an agent after asking', async () => {
    let deleted = false;
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/agents') return json({ agents: deleted ? [] : [agent()] });
      if (path === `/rest/v1/agents/${agentId}` && method === 'DELETE') {
        deleted = true;
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Trip planner' });
    fireEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “Trip planner”?' });
    expect(confirm.textContent).toContain('@trip-planner no longer answers');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete agent' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        `/rest/v1/agents/${agentId}`,
      ]),
    );
    expect(await screen.findByText('No agents yet')).toBeTruthy();
  });
});
