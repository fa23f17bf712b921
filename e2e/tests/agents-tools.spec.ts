import type { Locator, Page } from '@playwright/test';
import { ChatPage } from '../pages/chat-page.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { expect, test } from '../support/fixtures.ts';
import { openAsSuperAdmin, superAdminRequest } from '../support/super-admin.ts';
import {
  allowedLoopbackHost,
  privatePageSecret,
  toolTargetHits,
  toolTargets,
} from '../support/tool-targets.ts';

// Issue 18's "Not done until", tried as a new user would: an agent with tools, approvals in the
// chat, an MCP server, and web fetch kept away from private addresses.
//
// The admin's allow-list of private hosts is instance-wide, so this file is the only one that
// changes it, and only with 127.0.0.2 (where the MCP test server and a redirect live): the private
// page on 127.0.0.1 stays refused for every test, whatever runs beside this one.

type ApprovalLabel = 'Always ask' | 'Ask once per conversation and address' | 'Never ask';

/** /agents: the user's agents as cards, and the dialog that creates or edits one. */
class AgentsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/agents');
    await expect(this.page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
  }

  card(name: string): Locator {
    return this.page
      .getByRole('list', { name: 'Your agents' })
      .getByRole('listitem', { name, exact: true });
  }

  /** Ticks a tool in the open agent dialog, under its group, and sets when a call waits. */
  async pickTool(dialog: Locator, group: string, title: string, approval: ApprovalLabel) {
    await dialog
      .getByRole('list', { name: group, exact: true })
      .getByRole('listitem')
      .filter({ has: this.page.getByText(title, { exact: true }) })
      .getByRole('checkbox')
      .check();
    await dialog.getByLabel(`Approval for ${title}`, { exact: true }).selectOption({
      label: approval,
    });
  }
}

/** /tools: the user's MCP servers and their tools. */
class ToolsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/tools');
    await expect(this.page.getByRole('heading', { name: 'Tools', level: 1 })).toBeVisible();
  }

  server(name: string): Locator {
    return this.page
      .getByRole('list', { name: 'Your MCP servers' })
      .getByRole('listitem', { name, exact: true });
  }

  async addMcpServer(name: string, url: string) {
    await this.page.getByRole('button', { name: 'Add an MCP server' }).first().click();
    const dialog = this.page.getByRole('dialog', { name: 'Add an MCP server' });
    await dialog.getByLabel('Server URL').fill(url);
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect(dialog).toBeHidden();
    await expect(this.server(name)).toBeVisible();
  }
}

/** One tool call shown in a reply, by the name the model called it. */
const toolCall = (reply: Locator, name: string) => reply.locator(`details[data-tool="${name}"]`);

/** The refusal web fetch returns for the private page, straight or after a redirect. */
const loopbackRefusal = (viaRedirect: boolean) =>
  `Chorus does not fetch private or local addresses (127.0.0.1${viaRedirect ? ', reached through a redirect' : ''}).`;

test.afterAll(async () => {
  // Leave the instance-wide allow-list as this file found it, even after a failure.
  const admin = await superAdminRequest();
  try {
    const settings = await admin.get('/rest/v1/admin/settings');
    expect(settings.status(), await settings.text()).toBe(200);
    const { outbound_allow_hosts: hosts } = (await settings.json()) as {
      outbound_allow_hosts: string[];
    };
    if (!hosts.includes(allowedLoopbackHost)) return;
    const saved = await admin.put('/rest/v1/admin/settings', {
      data: { outbound_allow_hosts: hosts.filter((host) => host !== allowedLoopbackHost) },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  } finally {
    await admin.dispose();
  }
});

test('a new user builds an agent with tools, answers its approvals, adds an MCP server, and web fetch never reaches a private address', async ({
  page,
  context,
  browser,
  signedInUser: _signedIn,
}) => {
  test.setTimeout(90_000);
  const agents = new AgentsPage(page);
  const tools = new ToolsPage(page);
  const chat = new ChatPage(page);
  const { mcpUrl, privatePageUrl, redirectUrl } = toolTargets();
  await saveKeyThroughApi(context.request, 'openai', 'sk-e2e-agents-tools-0001');

  await test.step('create an agent with the calculator and web fetch', async () => {
    await agents.goto();
    await expect(page.getByText('No agents yet')).toBeVisible();
    await page.getByRole('button', { name: 'New agent' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New agent' });
    await dialog.getByLabel('Name', { exact: true }).fill('Lab helper');
    await expect(dialog.getByText('Its handle is @lab-helper')).toBeVisible();
    await dialog
      .getByLabel('Instructions', { exact: true })
      .fill('Work things out with your tools, and say which ones you used.');
    await dialog.getByLabel('Provider', { exact: true }).selectOption({ label: 'OpenAI' });
    await agents.pickTool(dialog, 'Built-in', 'Calculator', 'Always ask');
    await agents.pickTool(dialog, 'Built-in', 'Web fetch', 'Ask once per conversation and address');
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect(dialog).toBeHidden();
    const card = agents.card('Lab helper');
    await expect(card).toContainText('@lab-helper');
    await expect(card).toContainText('2 tools');
  });

  const question =
    `What is 6*7, and what does ${privatePageUrl} say? ` +
    `[sim:tool calculator {"expression":"6*7"}] [sim:tool web_fetch {"url":"${privatePageUrl}"}]`;

  await test.step('a question needing two tool calls waits for an answer to each', async () => {
    await agents.card('Lab helper').getByRole('link', { name: 'Chat with it' }).click();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(chat.composer()).toHaveValue('@lab-helper ');
    await chat.send(`@lab-helper ${question}`);
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    const reply = chat.lastReply();
    await expect(reply).toContainText('Lab helper');
    for (const [name, argument] of [
      ['calculator', '"expression": "6*7"'],
      ['web_fetch', `"url": "${privatePageUrl}"`],
    ] as const) {
      const call = toolCall(reply, name);
      await expect(call).toHaveAttribute('data-state', 'awaiting-approval');
      await expect(call).toContainText('Waiting for your approval');
      await expect(call).toContainText(argument);
      await expect(call.getByRole('button', { name: 'Approve' })).toBeVisible();
      await expect(call.getByRole('button', { name: 'Refuse' })).toBeVisible();
    }
  });

  await test.step('one answer alone does not go on, and a reload shows the calls still waiting', async () => {
    const reply = chat.lastReply();
    await toolCall(reply, 'web_fetch').getByRole('button', { name: 'Approve' }).click();
    await expect(toolCall(reply, 'web_fetch')).toContainText(
      'You approved this call. Answer the other waiting calls to let the agent go on.',
    );
    await expect(toolCall(reply, 'calculator')).toHaveAttribute('data-state', 'awaiting-approval');

    await page.reload();
    await expect(chat.composer()).toBeVisible();
    // The answers go to the server together, so the one given before the reload is asked again.
    for (const name of ['calculator', 'web_fetch']) {
      const call = toolCall(chat.lastReply(), name);
      await expect(call).toHaveAttribute('data-state', 'awaiting-approval');
      await expect(call.getByRole('button', { name: 'Approve' })).toBeVisible();
    }
  });

  await test.step('refuse the calculator, approve web fetch: 127.0.0.1 is refused, inline', async () => {
    const reply = chat.lastReply();
    await toolCall(reply, 'calculator').getByRole('button', { name: 'Refuse' }).click();
    await toolCall(reply, 'web_fetch').getByRole('button', { name: 'Approve' }).click();
    await chat.waitForReplyTo(question);
    await expect(toolCall(reply, 'calculator')).toHaveAttribute('data-state', 'denied');
    await expect(toolCall(reply, 'calculator')).toContainText('Not allowed');
    await expect(toolCall(reply, 'web_fetch')).toHaveAttribute('data-state', 'done');
    await expect(toolCall(reply, 'web_fetch')).toContainText(loopbackRefusal(false));
    await expect(reply).toContainText('Tool web_fetch returned:');

    // Both outcomes are stored with the reply.
    await page.reload();
    await expect(toolCall(chat.lastReply(), 'calculator')).toHaveAttribute('data-state', 'denied');
    const fetched = toolCall(chat.lastReply(), 'web_fetch');
    await expect(fetched).toHaveAttribute('data-state', 'done');
    await expect(fetched).toContainText(loopbackRefusal(false));
    await expect(chat.pane()).not.toContainText(privatePageSecret);
  });

  const conversationUrl = page.url();

  await test.step(`a super admin lets tools reach ${allowedLoopbackHost}`, async () => {
    const admin = await openAsSuperAdmin(browser, '/admin/super-admin');
    try {
      await admin.getByLabel('Add a private host').fill(allowedLoopbackHost);
      await admin.getByRole('button', { name: 'Add host' }).click();
      await expect(admin.getByRole('list', { name: 'Allowed private hosts' })).toContainText(
        allowedLoopbackHost,
      );
      await admin.getByRole('button', { name: 'Save settings' }).click();
      await expect(admin.getByText('Settings saved')).toBeVisible();
    } finally {
      await admin.context().close();
    }
  });

  await test.step('web fetch of an allowed host that redirects to 127.0.0.1 is refused at the redirect', async () => {
    await page.goto(conversationUrl);
    await expect(chat.composer()).toBeVisible();
    const ask = `Read ${redirectUrl} [sim:tool web_fetch {"url":"${redirectUrl}"}]`;
    await chat.send(`@lab-helper ${ask}`);
    // Web fetch was approved once in this conversation, for another site: this one asks again,
    // and says what a yes covers.
    const waiting = toolCall(chat.lastReply(), 'web_fetch');
    await expect(waiting).toHaveAttribute('data-state', 'awaiting-approval');
    await expect(waiting).toContainText('when they go to the same site; another site asks again');
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await chat.waitForReplyTo(ask);
    const call = toolCall(chat.lastReply(), 'web_fetch');
    await expect(call).toHaveAttribute('data-state', 'done');
    await expect(call).toContainText(loopbackRefusal(true));
    await expect(chat.pane()).not.toContainText(privatePageSecret);
    // The allowed host answered; the private page never got a request.
    const hits = await toolTargetHits();
    expect(hits.redirect).toBeGreaterThan(0);
    expect(hits.privatePage).toBe(0);
  });

  await test.step('add the MCP test server over Streamable HTTP and turn on its "add" tool', async () => {
    await tools.goto();
    await tools.addMcpServer('Lab tools', mcpUrl);
    const server = tools.server('Lab tools');
    await expect(server).toContainText('Connected');
    await expect(server).toContainText('Streamable HTTP');
    const listed = server.getByRole('list', { name: 'Tools of Lab tools' });
    await expect(listed.getByRole('listitem', { name: 'add', exact: true })).toBeVisible();
    await expect(listed.getByRole('listitem', { name: 'echo', exact: true })).toBeVisible();
    const enable = server.getByRole('switch', { name: 'Enable add', exact: true });
    // The switch shows the server's answer: it turns on once the change is saved.
    await enable.click();
    await expect(enable).toBeChecked();
  });

  await test.step('give the agent the MCP tool and call it from the chat', async () => {
    await agents.goto();
    await agents.card('Lab helper').getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit “Lab helper”' });
    await agents.pickTool(dialog, 'MCP: Lab tools', 'add', 'Never ask');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(agents.card('Lab helper')).toContainText('3 tools');

    await page.goto(conversationUrl);
    await expect(chat.composer()).toBeVisible();
    const ask = 'Add 2 and 40 with the lab tools [sim:tool Lab_tools__add {"a":2,"b":40}]';
    await chat.send(`@lab-helper ${ask}`);
    await chat.waitForReplyTo(ask);
    const call = toolCall(chat.lastReply(), 'Lab_tools__add');
    await expect(call).toHaveAttribute('data-state', 'done');
    await expect(chat.lastReply()).toContainText('Tool Lab_tools__add returned: 42');
  });
});
