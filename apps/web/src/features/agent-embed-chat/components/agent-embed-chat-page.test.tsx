import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Agent } from '@chorus/shared/api/agents';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import {
  widgetLimits,
  widgetOwnerMessages,
  type Widget,
  type WidgetConversationBrief,
  type WidgetVisitor,
  type WidgetWithSecret,
} from '@chorus/shared/api/widgets';
import { fakeApi, json, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { AgentEmbedChatPage } from './agent-embed-chat-page';

const widgetId = '2f6b1c3e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
const agentId = '7d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a';
const customAiId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const publicId = 'wgt_AbCdEfGhIjKlMnOpQrSt';
const secret = 'wsk_9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c';
const stamp = '2026-01-01T00:00:00.000Z';
const snippet = `<script src="https://chorus.example/embed.js" data-widget="${publicId}" async></script>`;

const agent = (over: Partial<Agent> = {}): Agent => ({
  id: agentId,
  name: 'Helper',
  handle: 'helper',
  description: '',
  avatar: '🤖',
  instructions: 'Help visitors.',
  provider: 'openai',
  model: null,
  temperature: null,
  max_steps: 6,
  tools: [
    { tool: 'builtin:calculator', approval: 'never' },
    { tool: 'builtin:web_fetch', approval: 'always' },
  ],
  knowledge_base_ids: [],
  version: 1,
  created_at: stamp,
  updated_at: stamp,
  ...over,
});

const customAi: CustomAi = {
  id: customAiId,
  name: 'Recipe bot',
  description: '',
  avatar: '🍳',
  system_prompt: 'You cook.',
  provider: 'openai',
  model: null,
  parameters: { temperature: null, top_p: null, max_tokens: null },
  starters: [],
  knowledge_base_ids: [],
  created_at: stamp,
  updated_at: stamp,
};

const widget = (over: Partial<Widget> = {}): Widget => ({
  id: widgetId,
  public_id: publicId,
  name: 'Shop support',
  target: { kind: 'agent', id: agentId, name: 'Helper' },
  allowed_origins: ['https://shop.example'],
  appearance: { title: 'Ask us', color: '#4f46e5', greeting: 'Hello!', position: 'bottom-right' },
  budget: {
    messages_per_visitor_hour: 20,
    daily_tokens: 200_000,
    monthly_tokens: 2_000_000,
    max_reply_tokens: 800,
  },
  require_signed_visitors: false,
  allowed_tools: [],
  tool_arguments: {},
  show_sources: true,
  enabled: true,
  secret_hint: 'wsk_9f8e',
  usage: { tokens_today: 50_000, tokens_this_month: 120_000, messages_today: 4 },
  snippet,
  created_at: stamp,
  updated_at: stamp,
  ...over,
});

const visitor = (over: Partial<WidgetVisitor> = {}): WidgetVisitor => ({
  id: 'c0ffee00-1111-4222-8333-444455556666',
  external_id: null,
  name: null,
  signed: false,
  blocked: false,
  created_at: stamp,
  last_seen_at: stamp,
  ...over,
});

const conversation = (over: Partial<WidgetConversationBrief> = {}): WidgetConversationBrief => ({
  id: 'conv-1',
  visitor: visitor(),
  title: 'Where is my order?',
  message_count: 2,
  snippet: 'Your order ships tomorrow.',
  input_tokens: 300,
  output_tokens: 120,
  created_at: stamp,
  updated_at: stamp,
  ...over,
});

type Server = {
  widgets?: Widget[];
  agents?: Agent[];
  customAis?: CustomAi[];
  handler?: ApiHandler;
};

/** A stand-in server: the lists the page reads, and the handler for what a test is about. */
const stubServer = ({ widgets = [], agents = [agent()], customAis = [], handler }: Server = {}) =>
  fakeApi(
    {
      '/rest/v1/agents': { agents },
      '/rest/v1/custom-ais': { custom_ais: customAis },
    },
    (method, path, url) => {
      const answer = handler?.(method, path, url);
      if (answer) return answer;
      if (method === 'GET' && path === '/rest/v1/widgets') return json({ items: widgets });
      if (method === 'GET' && path.endsWith('/sessions')) {
        return json({ items: [], next_cursor: null });
      }
      return undefined;
    },
  );

const renderPage = (path = '/agent-embed-chat') =>
  renderRoutes({
    path,
    routes: [
      { path: '/agent-embed-chat', element: <AgentEmbedChatPage /> },
      { path: '/agents', element: <p>The agents</p> },
    ],
    session: signedInSession,
  });

const openNewEditor = async () => {
  fireEvent.click((await screen.findAllByRole('button', { name: 'New widget' }))[0]!);
  return screen.findByRole('dialog', { name: 'New widget' });
};

const addOrigin = (dialog: HTMLElement, origin: string) => {
  fireEvent.change(within(dialog).getByLabelText('Add origin'), { target: { value: origin } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
};

describe('the embedded agent chat page', () => {
  it('explains a widget and sends a user with no agent or custom AI to make one first', async () => {
    stubServer({ agents: [], customAis: [] });
    renderPage();
    expect(await screen.findByText('No widgets yet')).toBeTruthy();
    expect(screen.getByText(/A widget puts one of your agents or custom AIs/)).toBeTruthy();
    expect(
      (await screen.findByRole('link', { name: 'Create an agent' })).getAttribute('href'),
    ).toBe('/agents');
    expect(screen.getByRole('link', { name: 'Create a custom AI' }).getAttribute('href')).toBe(
      '/custom-ais',
    );
    expect(
      screen.getByRole('link', { name: 'Agents and custom AIs: the guide' }).getAttribute('href'),
    ).toMatch(/^\/help\//);
    expect(screen.queryByRole('button', { name: 'New widget' })).toBeNull();
  });

  it('offers a new widget from the empty state once there is an agent', async () => {
    stubServer();
    renderPage();
    expect(await screen.findByRole('button', { name: 'New widget' })).toBeTruthy();
  });

  it('shows each widget with its target, origins, switch and token budgets', async () => {
    stubServer({
      widgets: [
        widget(),
        widget({
          id: 'other',
          name: 'Orphan',
          allowed_origins: [],
          target: { kind: 'custom_ai', id: customAiId, name: null },
        }),
      ],
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Shop support' });
    expect(card.textContent).toContain('Agent: Helper');
    expect(card.textContent).toContain('1 allowed origin');
    expect(card.textContent).not.toContain('No site can show it yet');
    const today = within(card).getByRole('progressbar', { name: 'Tokens today' });
    expect(today.getAttribute('aria-valuenow')).toBe('50000');
    expect(today.getAttribute('aria-valuemax')).toBe('200000');
    expect(
      within(card)
        .getByRole('progressbar', { name: 'Tokens this month' })
        .getAttribute('aria-valuemax'),
    ).toBe('2000000');
    expect(
      (within(card).getByRole('switch', { name: 'Enabled' }) as HTMLInputElement).checked,
    ).toBe(true);

    const orphan = screen.getByRole('listitem', { name: 'Orphan' });
    expect(orphan.textContent).toContain('No site can show it yet — add an allowed origin');
    expect(orphan.textContent).toContain('Custom AI: deleted');
    expect(screen.getAllByRole('button', { name: 'New widget' })).toHaveLength(1);
  });

  it('turns a widget off from its card', async () => {
    const calls = stubServer({
      widgets: [widget()],
      handler: (method, path) =>
        method === 'PATCH' && path === `/rest/v1/widgets/${widgetId}`
          ? json(widget({ enabled: false }))
          : undefined,
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Shop support' });
    fireEvent.click(within(card).getByRole('switch', { name: 'Enabled' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ enabled: false }),
    );
  });

  it('creates a widget, then shows its secret once with how to sign a visitor token', async () => {
    let created: WidgetWithSecret | null = null;
    const calls = stubServer({
      customAis: [customAi],
      handler: (method, path) => {
        if (method === 'POST' && path === '/rest/v1/widgets') {
          created = {
            ...widget({ name: 'Shop support', allowed_tools: ['builtin:calculator'] }),
            secret,
          };
          return json(created, 201);
        }
        if (method === 'GET' && path === '/rest/v1/widgets') {
          return json({ items: created ? [widget()] : [] });
        }
        return undefined;
      },
    });
    renderPage();
    const dialog = await openNewEditor();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Shop support' } });
    const picker = within(dialog).getByLabelText('Agent or custom AI');
    await within(picker).findByRole('option', { name: 'Helper' });
    expect(within(picker).getByRole('option', { name: 'Recipe bot' })).toBeTruthy();
    fireEvent.change(picker, { target: { value: `agent:${agentId}` } });
    addOrigin(dialog, 'https://Shop.example/');
    expect(
      within(within(dialog).getByRole('list', { name: 'Allowed origins' })).getByText(
        'https://shop.example',
      ),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Ask us' } });
    fireEvent.change(within(dialog).getByLabelText('Greeting'), { target: { value: 'Hello!' } });
    fireEvent.change(within(dialog).getByLabelText('Daily token budget'), {
      target: { value: '50,000' },
    });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Calculator/ }));
    const sourcesSwitch = within(dialog).getByRole('switch', {
      name: widgetOwnerMessages.showSources,
    }) as HTMLInputElement;
    expect(sourcesSwitch.checked).toBe(true);
    expect(dialog.textContent).toContain(
      widgetOwnerMessages.showSourcesHint(widgetLimits.sourceQuoteChars),
    );
    fireEvent.click(sourcesSwitch);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create widget' }));

    const secretDialog = await screen.findByRole('dialog', {
      name: 'Copy the widget’s secret now',
    });
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      name: 'Shop support',
      target: { agent_id: agentId, custom_ai_id: null },
      allowed_origins: ['https://shop.example'],
      appearance: {
        title: 'Ask us',
        color: '#4f46e5',
        greeting: 'Hello!',
        position: 'bottom-right',
      },
      budget: {
        messages_per_visitor_hour: 20,
        daily_tokens: 50_000,
        monthly_tokens: 2_000_000,
        max_reply_tokens: 800,
      },
      require_signed_visitors: false,
      allowed_tools: ['builtin:calculator'],
      tool_arguments: {},
      show_sources: false,
      enabled: true,
    });
    expect(within(secretDialog).getByLabelText('Widget secret').textContent).toBe(secret);
    expect(secretDialog.textContent).toContain('This is the only time the secret');
    const example = within(secretDialog).getByLabelText('Signing example').textContent ?? '';
    expect(example).toContain(`new SignJWT({ widget: '${publicId}', visitor_id`);
    expect(example).toContain(".setProtectedHeader({ alg: 'HS256' })");
    expect(
      within(secretDialog).getByLabelText('Snippet with a visitor token').textContent,
    ).toContain('data-visitor-token=');

    fireEvent.click(within(secretDialog).getByRole('button', { name: 'Done' }));
    // The widget's page, with its snippet and preview: the secret is not shown again.
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop support' })).toBeTruthy();
    expect(screen.getByLabelText('Snippet').textContent).toBe(snippet);
    expect(screen.getByTitle('Widget preview').getAttribute('src')).toBe(`/embed/${publicId}`);
    expect(document.body.textContent).not.toContain(secret);
  });

  it('checks an origin before adding it: a scheme and host, once', async () => {
    stubServer();
    renderPage();
    const dialog = await openNewEditor();
    addOrigin(dialog, 'example.com');
    expect(dialog.textContent).toContain('An origin is a scheme and host');
    addOrigin(dialog, 'https://example.com/shop');
    expect(dialog.textContent).toContain('without a path');
    addOrigin(dialog, 'http://localhost:5173');
    const list = within(dialog).getByRole('list', { name: 'Allowed origins' });
    expect(within(list).getByText('http://localhost:5173')).toBeTruthy();
    addOrigin(dialog, 'http://localhost:5173/');
    expect(dialog.textContent).toContain('That origin is listed already');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove http://localhost:5173' }));
    expect(within(list).queryByText('http://localhost:5173')).toBeNull();
    expect(dialog.textContent).toContain('Empty means no site');
  });

  it('never offers visitors an agent’s tools that need approval', async () => {
    stubServer({ customAis: [customAi] });
    renderPage();
    const dialog = await openNewEditor();
    expect(dialog.textContent).toContain('Pick an agent to choose its tools.');
    const picker = within(dialog).getByLabelText('Agent or custom AI');
    await within(picker).findByRole('option', { name: 'Helper' });
    fireEvent.change(picker, { target: { value: `agent:${agentId}` } });
    const calculator = within(dialog).getByRole('checkbox', { name: /Calculator/ });
    const fetchTool = within(dialog).getByRole('checkbox', { name: /Web fetch/ });
    expect((calculator as HTMLInputElement).disabled).toBe(false);
    expect((fetchTool as HTMLInputElement).disabled).toBe(true);
    expect(fetchTool.closest('label')?.textContent).toContain(
      'needs approval — never offered to visitors',
    );
    fireEvent.change(picker, { target: { value: `custom_ai:${customAiId}` } });
    expect(within(dialog).queryByRole('checkbox', { name: /Calculator/ })).toBeNull();
  });

  it('says what to fix before sending a widget with no target or a bad budget', async () => {
    const calls = stubServer();
    renderPage();
    const dialog = await openNewEditor();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Shop' } });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Ask us' } });
    fireEvent.change(within(dialog).getByLabelText('Daily token budget'), {
      target: { value: '3000000' },
    });
    fireEvent.change(within(dialog).getByLabelText('Max reply tokens'), {
      target: { value: 'lots' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create widget' }));
    expect(await within(dialog).findByText(/Pick the agent or custom AI/)).toBeTruthy();
    expect(dialog.textContent).toContain('The daily budget cannot be above the monthly one');
    expect(dialog.textContent).toContain('A reply is a whole number from 16 to 8,000');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('searches a widget’s sessions, reads one and blocks its visitor', async () => {
    const blocked = new Set<string>();
    const anon = visitor();
    const signed = visitor({
      id: 'signed-1',
      external_id: 'cust-42',
      name: 'Grace',
      signed: true,
    });
    const calls = stubServer({
      widgets: [widget()],
      handler: (method, path, url) => {
        const sessions = `/rest/v1/widgets/${widgetId}/sessions`;
        if (method === 'GET' && path === sessions) {
          const all = [
            conversation({ visitor: { ...anon, blocked: blocked.has(anon.id) } }),
            conversation({ id: 'conv-2', visitor: signed, title: 'Refunds', snippet: 'refund' }),
          ];
          const q = url.searchParams.get('q');
          return json({
            items: q ? all.filter((c) => c.snippet.includes(q)) : all,
            next_cursor: null,
          });
        }
        if (method === 'GET' && path === `${sessions}/conv-2`) {
          return json({
            ...conversation({ id: 'conv-2', visitor: signed, title: 'Refunds' }),
            messages: [
              {
                id: 'm1',
                role: 'user',
                content: 'Can I get a <b>refund</b>?',
                sources: [],
                status: 'done',
                created_at: stamp,
              },
              {
                id: 'm2',
                role: 'assistant',
                content: 'Yes, within 30 days [1].',
                sources: [{ document: 'Returns policy', position: 'p. 2', text: '30 days' }],
                status: 'done',
                created_at: stamp,
              },
            ],
          });
        }
        if (
          method === 'POST' &&
          path === `/rest/v1/widgets/${widgetId}/visitors/${anon.id}/block`
        ) {
          blocked.add(anon.id);
          return json({ ok: true });
        }
        return undefined;
      },
    });
    renderPage(`/agent-embed-chat?widget=${widgetId}`);
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const anonItem = within(list).getByRole('listitem', {
      name: /^Anonymous visitor c0ffee00: Where is my order\?/,
    });
    expect(anonItem.textContent).toContain('Anonymous');
    expect(anonItem.textContent).toContain('2 messages');
    expect(anonItem.textContent).toContain('420 tokens');
    expect(anonItem.textContent).toContain('Your order ships tomorrow.');
    const grace = within(list).getByRole('listitem', { name: 'Grace: Refunds' });
    expect(grace.textContent).toContain('Signed');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search conversations' }), {
      target: { value: 'refund' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem'),
      ).toHaveLength(1),
    );
    expect(calls.some((call) => call.search === '?q=refund')).toBe(true);

    fireEvent.click(
      within(screen.getByRole('listitem', { name: 'Grace: Refunds' })).getByRole('button', {
        name: 'Read',
      }),
    );
    const reading = await screen.findByRole('dialog', { name: 'Refunds' });
    expect(await within(reading).findByText('Can I get a <b>refund</b>?')).toBeTruthy();
    expect(reading.querySelector('b')).toBeNull();
    expect(reading.textContent).toContain('Returns policy');
    expect(reading.textContent).toContain('(p. 2)');
    fireEvent.click(within(reading).getByRole('button', { name: 'Close' }));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search conversations' }), {
      target: { value: '' },
    });
    const again = await screen.findByRole('listitem', { name: /^Anonymous visitor c0ffee00/ });
    fireEvent.click(within(again).getByRole('button', { name: 'Block visitor' }));
    const confirm = await screen.findByRole('dialog', { name: 'Block this visitor?' });
    // An anonymous visitor's block also holds against their network for a while: the owner is
    // told, with who else that turns away.
    expect(confirm.textContent).toContain(
      widgetOwnerMessages.blockAddressNote(widgetLimits.blockedAddressHours),
    );
    fireEvent.click(within(confirm).getByRole('button', { name: 'Block visitor' }));
    await waitFor(() =>
      expect(
        calls.some((call) => call.method === 'POST' && call.path.endsWith(`${anon.id}/block`)),
      ).toBe(true),
    );
    const blockedItem = await screen.findByRole('listitem', {
      name: /^Anonymous visitor c0ffee00/,
    });
    await waitFor(() => expect(blockedItem.textContent).toContain('Blocked'));
    expect(within(blockedItem).getByRole('button', { name: 'Unblock visitor' })).toBeTruthy();
  });

  it('asks which arguments of an HTTP tool visitors may set, warning of the owner’s credentials', async () => {
    const toolId = '7a1b2c3d-0000-4000-8000-00000000abcd';
    const key = `http:${toolId}`;
    const calls = stubServer({
      agents: [agent({ tools: [{ tool: key, approval: 'never' }] })],
      handler: (method, path) => {
        if (method === 'GET' && path === '/rest/v1/tools') {
          return json({
            tools: [
              {
                id: toolId,
                key,
                name: 'orders',
                description: 'Looks up an order',
                method: 'GET',
                url_template: 'https://api.shop.example/orders/{order_id}',
                headers: [{ name: 'Authorization', secret: true, value: null, hint: '…abcd' }],
                input_schema: {
                  type: 'object',
                  properties: {
                    order_id: { type: 'string' },
                    account: { type: 'string' },
                    limit: { type: 'integer' },
                  },
                },
                created_at: stamp,
                updated_at: stamp,
              },
            ],
          });
        }
        if (method === 'GET' && path === '/rest/v1/mcp-servers') return json({ servers: [] });
        if (method === 'POST' && path === '/rest/v1/widgets') {
          return json({ ...widget(), secret }, 201);
        }
        return undefined;
      },
    });
    renderPage();
    const dialog = await openNewEditor();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Orders' } });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Orders' } });
    const picker = within(dialog).getByLabelText('Agent or custom AI');
    await within(picker).findByRole('option', { name: 'Helper' });
    fireEvent.change(picker, { target: { value: `agent:${agentId}` } });
    addOrigin(dialog, 'https://shop.example');
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: /orders/ }));

    const rules = within(dialog).getByRole('group', { name: 'Arguments of orders' });
    expect(rules.textContent).toContain(widgetOwnerMessages.toolArgumentsWarning);
    // Nothing is left to visitors until the owner says so.
    const orderId = within(rules).getByLabelText('order_id of orders') as HTMLSelectElement;
    expect(orderId.value).toBe('omit');
    expect(rules.textContent).toContain('order_id *');
    fireEvent.change(orderId, { target: { value: 'visitor' } });
    expect(rules.textContent).toContain(widgetOwnerMessages.toolArgumentsVisitorSet('order_id'));
    fireEvent.change(within(rules).getByLabelText('account of orders'), {
      target: { value: 'fixed' },
    });
    fireEvent.change(within(rules).getByLabelText('Fixed value of account'), {
      target: { value: 'acct-7' },
    });
    fireEvent.change(within(rules).getByLabelText('limit of orders'), {
      target: { value: 'fixed' },
    });
    fireEvent.change(within(rules).getByLabelText('Fixed value of limit'), {
      target: { value: '5' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create widget' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const post = calls.find((call) => call.method === 'POST')!;
    expect((post.body as { tool_arguments: unknown }).tool_arguments).toEqual({
      [key]: { visitor: ['order_id'], fixed: { account: 'acct-7', limit: 5 } },
    });
  });

  it('shows a widget’s use per day', async () => {
    stubServer({
      widgets: [widget()],
      handler: (method, path) =>
        path === `/rest/v1/widgets/${widgetId}/usage`
          ? json({
              days: [
                {
                  day: '2026-01-01',
                  messages: 4,
                  input_tokens: 900,
                  output_tokens: 100,
                  visitors: 2,
                },
                {
                  day: '2026-01-02',
                  messages: 1,
                  input_tokens: 200,
                  output_tokens: 50,
                  visitors: 1,
                },
              ],
            })
          : undefined,
    });
    renderPage(`/agent-embed-chat?widget=${widgetId}`);
    const tab = await screen.findByRole('tab', { name: 'Usage' });
    fireEvent.mouseDown(tab);
    const table = await screen.findByRole('table', { name: /Usage per day/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('250');
    expect(rows[2]!.textContent).toContain('1,000');
    expect(screen.getByText(/5 messages, 1,250 tokens/)).toBeTruthy();
  });

  it('saves a widget’s appearance from its page and reloads the preview', async () => {
    let saved: Widget = widget();
    const calls = stubServer({
      handler: (method, path) => {
        if (method === 'PATCH' && path === `/rest/v1/widgets/${widgetId}`) {
          saved = widget({
            appearance: { ...saved.appearance, color: '#ff0000' },
            updated_at: '2026-01-02T00:00:00.000Z',
          });
          return json(saved);
        }
        if (method === 'GET' && path === '/rest/v1/widgets') return json({ items: [saved] });
        return undefined;
      },
    });
    const { router } = renderPage(`/agent-embed-chat?widget=${widgetId}`);
    const before = await screen.findByTitle('Widget preview');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit “Shop support”' });
    fireEvent.change(within(dialog).getByLabelText('Colour'), { target: { value: '#ff0000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?widget=${widgetId}`));
    const patch = calls.find((call) => call.method === 'PATCH')?.body as {
      appearance: { color: string };
    };
    expect(patch.appearance.color).toBe('#ff0000');
    await waitFor(() => expect(screen.getByTitle('Widget preview')).not.toBe(before));
  });

  it('rotates the secret after a yes and shows the new one once', async () => {
    const calls = stubServer({
      widgets: [widget()],
      handler: (method, path) =>
        method === 'POST' && path === `/rest/v1/widgets/${widgetId}/secret`
          ? json({ ...widget({ secret_hint: 'wsk_new0' }), secret: 'wsk_newsecret' })
          : undefined,
    });
    renderPage(`/agent-embed-chat?widget=${widgetId}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the secret?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate secret' }));
    const shown = await screen.findByRole('dialog', { name: 'Copy the widget’s secret now' });
    expect(within(shown).getByLabelText('Widget secret').textContent).toBe('wsk_newsecret');
    expect(calls.filter((call) => call.path.endsWith('/secret'))).toHaveLength(1);
  });

  it('deletes a widget from its page and goes back to the list', async () => {
    let gone = false;
    const calls = stubServer({
      handler: (method, path) => {
        if (method === 'DELETE' && path === `/rest/v1/widgets/${widgetId}`) {
          gone = true;
          return new Response(null, { status: 204 });
        }
        if (method === 'GET' && path === '/rest/v1/widgets') {
          return json({ items: gone ? [] : [widget()] });
        }
        return undefined;
      },
    });
    const { router } = renderPage(`/agent-embed-chat?widget=${widgetId}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete widget' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “Shop support”?' });
    expect(confirm.textContent).toContain('The widget stops at once on every site');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete widget' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
    expect(await screen.findByText('No widgets yet')).toBeTruthy();
  });

  it('says so when the widget in the address does not exist', async () => {
    stubServer({
      handler: (method, path) =>
        path === '/rest/v1/widgets/nope'
          ? json({ error: 'Widget not found', code: 'widgets:not_found' }, 404)
          : undefined,
    });
    renderPage('/agent-embed-chat?widget=nope');
    expect(await screen.findByText(/That widget was not found/)).toBeTruthy();
  });
});
