import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  request as apiRequest,
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type Page,
} from '@playwright/test';
import {
  widgetUnavailableMessage,
  type VisitorSession,
  type WidgetWithSecret,
} from '../../packages/shared/src/api/widgets.ts';
import { EmbeddedWidget, EmbedWidgetsPage } from '../pages/embed-widget-page.ts';
import { signUpThroughApi } from '../support/accounts.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { uniqueClientIp } from '../support/client-ip.ts';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { findMails, waitForMail } from '../support/mailbox.ts';
import { newTestUser } from '../support/users.ts';

// Issue 21's "Not done until", tried as a new user would in Chromium: a widget for an agent, its
// snippet pasted into a page of another local origin, a visitor's chat, the owner's view of it and
// a small budget running out; then what the tests must also show: a site off the list gets no
// chat, signed visitor tokens are checked, and one widget's visitors cannot read another's.
//
// The app runs at http://localhost:{port}; the host pages are served from 127.0.0.1 (another
// site), as a customer's website would be.

// ---------------------------------------------------------------------------------------------
// A customer's website: a tiny HTTP server on the loopback address serving the pages it is given.

type HostSite = {
  origin: string;
  /** Serves `html` at `path` from now on. */
  serve: (path: string, html: string) => void;
  close: () => Promise<void>;
};

const openSites: HostSite[] = [];

const startHostSite = async (): Promise<HostSite> => {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? '/', 'http://host.invalid').pathname);
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const site: HostSite = {
    origin: `http://127.0.0.1:${port}`,
    serve: (path, html) => void pages.set(path, html),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  openSites.push(site);
  return site;
};

test.afterEach(async () => {
  await Promise.all(openSites.splice(0).map((site) => site.close()));
});

/** A page of the host site with the widget's snippet pasted before </body>. */
const hostPage = (heading: string, snippet: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${heading}</title><link rel="icon" href="data:,"></head>
<body>
<h1>${heading}</h1>
<p>Orders ship within two days.</p>
${snippet}
</body>
</html>
`;

/**
 * A visitor's browser: no cookies of the app, and no X-Forwarded-For either. The tests' contexts
 * add that header to every request, and a header of its own makes the loader's cross-origin fetch
 * of the config need a preflight, which no real visitor's browser sends.
 */
const visitorBrowser = (browser: Browser) => browser.newContext({ extraHTTPHeaders: {} });

// ---------------------------------------------------------------------------------------------
// Set-up through the REST API, for what is not the subject of a test.

/** A signed-in change must come from the app's own pages (its CSRF check reads Origin). */
const fromApp = { origin: baseURL() };

const createAgent = async (owner: APIRequestContext, name: string): Promise<string> => {
  const res = await owner.post('/rest/v1/agents', {
    data: { name, provider: 'openai', instructions: 'Help shoppers with their orders.' },
    headers: fromApp,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
};

/** An owner with an OpenAI key (the simulator's) and an agent, on its own cookie jar. */
const newOwner = async (label: string, agentName: string) => {
  const owner = await apiRequest.newContext({
    baseURL: baseURL(),
    extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() },
  });
  const user = await signUpThroughApi(owner, newTestUser(label));
  await saveKeyThroughApi(owner, 'openai', `sk-e2e-${label}-0001`);
  const agentId = await createAgent(owner, agentName);
  return { owner, user, agentId };
};

const createWidget = async (
  owner: APIRequestContext,
  body: { name: string; agentId: string; origins: string[]; requireSigned?: boolean },
): Promise<WidgetWithSecret> => {
  const res = await owner.post('/rest/v1/widgets', {
    data: {
      name: body.name,
      target: { agent_id: body.agentId },
      allowed_origins: body.origins,
      appearance: { title: body.name },
      require_signed_visitors: body.requireSigned ?? false,
    },
    headers: fromApp,
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as WidgetWithSecret;
};

// ---------------------------------------------------------------------------------------------
// The public widget API, as the iframe calls it: no cookies, the host page named by a header.

const refusal = async (res: APIResponse, status: number, code: string) => {
  expect(res.status(), await res.text()).toBe(status);
  expect(((await res.json()) as { code: string }).code).toBe(code);
};

const startSession = (
  visitor: APIRequestContext,
  publicId: string,
  embedder: string,
  body: { visitor_token?: string; session?: string } = {},
) =>
  visitor.post(`/widget/v1/${publicId}/session`, {
    data: body,
    headers: { 'x-chorus-embedder': embedder },
  });

const sessionOf = async (res: APIResponse): Promise<VisitorSession> => {
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as VisitorSession;
};

/** Sends a message and reads the whole streamed reply: its conversation and text. */
const chat = async (
  visitor: APIRequestContext,
  publicId: string,
  embedder: string,
  session: string,
  message: string,
  conversationId: string | null = null,
) => {
  const res = await visitor.post(`/widget/v1/${publicId}/chat`, {
    data: { conversation_id: conversationId, message },
    headers: {
      'x-chorus-embedder': embedder,
      authorization: `Bearer ${session}`,
      accept: 'text/event-stream',
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const events = (await res.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
  const start = events.find((event) => event.type === 'start');
  expect(events.at(-1)).toEqual({ type: 'done' });
  return {
    conversationId: String(start?.conversation_id),
    text: events.map((event) => (event.type === 'delta' ? String(event.text) : '')).join(''),
  };
};

const readConversation = (
  visitor: APIRequestContext,
  publicId: string,
  embedder: string,
  session: string,
  conversationId: string,
) =>
  visitor.get(`/widget/v1/${publicId}/conversations/${conversationId}`, {
    headers: { 'x-chorus-embedder': embedder, authorization: `Bearer ${session}` },
  });

/**
 * A visitor token as the host site's server signs it: an HS256 JWT with the widget's secret. Made
 * with node:crypto, not jose, to show any JWT library's token is read alike.
 */
const signVisitorToken = (secret: string, claims: Record<string, unknown>, alg = 'HS256') => {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  if (alg === 'none') return `${head}.`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
};

const inSeconds = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

/**
 * Frames the widget's own page (`/embed/{publicId}`) in `page` as any page could, without the
 * loader, and answers the frame's Content-Security-Policy and whether the widget came up in it.
 */
const frameWidgetPage = async (page: Page, publicId: string) => {
  const src = `${baseURL()}/embed/${publicId}`;
  const response = page.waitForResponse(src);
  await page.evaluate(
    (url) =>
      new Promise<void>((resolve) => {
        const frame = document.createElement('iframe');
        frame.title = 'Framed by hand';
        frame.src = url;
        // A frame the browser refuses still fires load (with its error page inside).
        frame.addEventListener('load', () => resolve(), { once: true });
        document.body.append(frame);
      }),
    src,
  );
  const csp = (await (await response).allHeaders())['content-security-policy'] ?? '';
  // A refused frame holds the browser's error page, not the widget's address.
  const frame = await page.locator('iframe[title="Framed by hand"]').elementHandle();
  const loaded = (await frame?.contentFrame())?.url() === src;
  return { csp, loaded };
};

// ---------------------------------------------------------------------------------------------

test('a new user puts an agent on another site: a visitor chats, the owner reads it, and a spent budget is polite', async ({
  page,
  context,
  browser,
  signedInUser,
}) => {
  test.setTimeout(60_000);
  const widgets = new EmbedWidgetsPage(page);
  await saveKeyThroughApi(context.request, 'openai', 'sk-e2e-embed-widget-0001');
  await createAgent(context.request, 'Shop helper');
  const site = await startHostSite();
  const title = 'Ask the shop';
  let snippet = '';
  let secret = '';

  await test.step('create a widget for the agent, allowing the shop’s origin', async () => {
    await widgets.goto();
    await expect(page.getByText('No widgets yet')).toBeVisible();
    await widgets.create({
      name: 'Shop widget',
      target: 'Shop helper',
      origins: [site.origin],
      title,
      color: '#0f766e',
      greeting: 'Hi! Ask me about your order.',
      dailyTokens: '50000',
      monthlyTokens: '500000',
      messagesPerHour: '10',
      maxReplyTokens: '200',
      requireSigned: false,
    });
    // The whole secret, once.
    await expect(widgets.secretDialog()).toContainText('This is the only time the secret');
    secret = await widgets.takeSecret();
    expect(secret).toMatch(/^whsec_/);

    await expect(page.getByRole('heading', { name: 'Shop widget', level: 1 })).toBeVisible();
    snippet = await widgets.snippet();
    expect(snippet).toMatch(
      new RegExp(
        `^<script src="${baseURL()}/embed\\.js" data-widget="wgt_[A-Za-z0-9]{20}" async></script>$`,
      ),
    );
    // Closed, the secret is gone from the page: only its first characters are named.
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(page.getByText(`${secret.slice(0, 10)}…`, { exact: true })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Allowed origins' })).toHaveText(site.origin);

    // The live preview is the widget itself, framed by the app.
    const preview = widgets.preview();
    await expect(preview.getByRole('heading', { name: title })).toBeVisible();
    await expect(preview.getByText('Hi! Ask me about your order.')).toBeVisible();
    await expect(preview.getByRole('textbox', { name: 'Your message' })).toBeEnabled();
  });

  site.serve('/', hostPage('Acme shop', snippet));
  const visitorContext = await visitorBrowser(browser);
  try {
    const visitorPage = await visitorContext.newPage();
    const widget = new EmbeddedWidget(visitorPage, title);
    const question = 'Where is my order 1234?';

    await test.step('a visitor of the shop opens the chat and gets a streamed reply', async () => {
      await visitorPage.goto(`${site.origin}/`);
      await expect(visitorPage.getByRole('heading', { name: 'Acme shop' })).toBeVisible();
      await widget.open();
      await expect(widget.frame().getByRole('heading', { name: title })).toBeVisible();
      await expect(widget.log()).toContainText('Hi! Ask me about your order.');
      await widget.send(question);
      await expect(widget.log()).toContainText(question);
      await expect(widget.log()).toContainText('Hello from the OpenAI simulator');
      await expect(widget.log()).toContainText(`You said: "${question}"`);
      // Nothing of the app's session reached the visitor's browser.
      expect(await visitorContext.cookies()).toEqual([]);
    });

    await test.step('the owner sees the conversation in the widget’s sessions, and finds it', async () => {
      await page.reload();
      const conversations = widgets.conversations();
      const item = conversations.getByRole('listitem').filter({ hasText: question });
      await expect(item).toContainText('Anonymous');
      await expect(item).toContainText('2 messages');
      await expect(item).toContainText('Hello from the OpenAI simulator');
      await expect(page.getByRole('progressbar', { name: 'Tokens today' })).toHaveAttribute(
        'aria-valuenow',
        /^[1-9]\d*$/,
      );

      await widgets.searchSessions('zebra');
      await expect(page.getByText('No conversation mentions “zebra”.')).toBeVisible();
      await widgets.searchSessions('order');
      await expect(conversations.getByRole('listitem')).toHaveCount(1);
      await item.getByRole('button', { name: 'Read' }).click();
      const dialog = page.getByRole('dialog', { name: question });
      const messages = dialog.getByRole('list', { name: 'Messages' });
      await expect(messages.getByRole('listitem')).toHaveCount(2);
      await expect(messages).toContainText('Hello from the OpenAI simulator');
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await expect(dialog).toBeHidden();
    });

    await test.step('a budget below what was spent: the visitor reads the polite message, the owner gets one e-mail', async () => {
      await widgets.edit('Shop widget', { 'Daily token budget': '10' });
      await expect(page.getByText(/\/ 10$/)).toBeVisible();

      await widget.send('And when will it ship?');
      await expect(widget.log()).toContainText(widgetUnavailableMessage);
      const mail = await waitForMail({
        to: signedInUser.email,
        subjectIncludes: 'has used its daily budget',
      });
      expect(mail.subject).toBe('Your widget “Shop widget” has used its daily budget');

      // Asking again is refused alike, and the owner is not mailed again for the same day.
      await widget.send('Hello?');
      await expect(widget.log().getByText(widgetUnavailableMessage)).toHaveCount(2);
      expect(findMails({ to: signedInUser.email, subjectIncludes: 'daily budget' })).toHaveLength(
        1,
      );
    });
  } finally {
    await visitorContext.close();
  }
});

test('a page from an origin not on the list gets neither the button nor the chat', async ({
  browser,
  request,
}) => {
  const { owner, agentId } = await newOwner('embed-origins', 'Origin helper');
  try {
    const allowed = await startHostSite();
    const stranger = await startHostSite();
    const widget = await createWidget(owner, {
      name: 'Allowed only',
      agentId,
      origins: [allowed.origin],
    });
    allowed.serve('/', hostPage('Allowed site', widget.snippet));
    stranger.serve('/', hostPage('Stranger site', widget.snippet));

    const visitorContext = await visitorBrowser(browser);
    try {
      const visitorPage = await visitorContext.newPage();
      const embedded = new EmbeddedWidget(visitorPage, 'Allowed only');

      await test.step('the loader on a stranger’s page draws no button', async () => {
        const warned = visitorPage.waitForEvent('console', (message) =>
          message.text().includes(`widget ${widget.public_id} could not be loaded`),
        );
        await visitorPage.goto(`${stranger.origin}/`);
        await warned;
        await expect(visitorPage.locator('[data-chorus-widget]')).toHaveCount(0);
        await expect(embedded.launcher()).toHaveCount(0);
      });

      await test.step('framed by hand on the stranger’s page, the browser refuses the widget', async () => {
        const refused = visitorPage.waitForEvent('console', (message) =>
          /Framing .* violates .*frame-ancestors/.test(message.text()),
        );
        const framed = await frameWidgetPage(visitorPage, widget.public_id);
        await refused;
        expect(framed.csp).toContain(`frame-ancestors 'self' ${allowed.origin}`);
        expect(framed.csp).not.toContain(stranger.origin);
        expect(framed.loaded).toBe(false);
        await expect(
          visitorPage
            .frameLocator('iframe[title="Framed by hand"]')
            .getByRole('textbox', { name: 'Your message' }),
        ).toHaveCount(0);
      });

      await test.step('the same on the allowed page shows the widget', async () => {
        await visitorPage.goto(`${allowed.origin}/`);
        await expect(embedded.launcher()).toBeVisible();
        const framed = await frameWidgetPage(visitorPage, widget.public_id);
        expect(framed.loaded).toBe(true);
        await expect(
          visitorPage
            .frameLocator('iframe[title="Framed by hand"]')
            .getByRole('textbox', { name: 'Your message' }),
        ).toBeEnabled();
      });
    } finally {
      await visitorContext.close();
    }

    await test.step('the API answers a stranger’s origin no CORS and no session', async () => {
      const config = await request.get(`/widget/v1/${widget.public_id}/config`, {
        headers: { origin: stranger.origin },
      });
      expect(config.status()).toBe(200);
      expect(config.headers()['access-control-allow-origin']).toBeUndefined();
      const allowedConfig = await request.get(`/widget/v1/${widget.public_id}/config`, {
        headers: { origin: allowed.origin },
      });
      expect(allowedConfig.headers()['access-control-allow-origin']).toBe(allowed.origin);
      await refusal(
        await startSession(request, widget.public_id, stranger.origin),
        403,
        'widgets:origin_not_allowed',
      );
      await sessionOf(await startSession(request, widget.public_id, allowed.origin));
    });

    await test.step('an empty list lets no site frame the widget', async () => {
      const none = await createWidget(owner, { name: 'Nowhere yet', agentId, origins: [] });
      const page = await request.get(`/embed/${none.public_id}`);
      expect(page.status()).toBe(200);
      expect(page.headers()['content-security-policy']).toContain("frame-ancestors 'self';");
      expect(page.headers()['set-cookie']).toBeUndefined();
      await refusal(
        await startSession(request, none.public_id, allowed.origin),
        403,
        'widgets:origin_not_allowed',
      );
    });
  } finally {
    await owner.dispose();
  }
});

test('signed visitors: without a token, with a wrong or expired one they are refused; a good one chats', async ({
  browser,
  request,
}) => {
  const { owner, agentId } = await newOwner('embed-signed', 'Members helper');
  try {
    const site = await startHostSite();
    const widget = await createWidget(owner, {
      name: 'Members only',
      agentId,
      origins: [site.origin],
      requireSigned: true,
    });
    const good = (claims: Record<string, unknown> = {}) =>
      signVisitorToken(widget.secret, {
        widget: widget.public_id,
        visitor_id: 'member-42',
        name: 'Ada Member',
        exp: inSeconds(3600),
        ...claims,
      });

    await test.step('the API refuses an unsigned visitor and every bad token', async () => {
      const start = (visitor_token?: string) =>
        startSession(
          request,
          widget.public_id,
          site.origin,
          visitor_token ? { visitor_token } : {},
        );
      await refusal(await start(), 401, 'widgets:signed_visitor_required');
      const bad = {
        'signed with another secret': signVisitorToken('whsec_not-the-widgets-secret', {
          widget: widget.public_id,
          visitor_id: 'member-42',
          exp: inSeconds(3600),
        }),
        expired: good({ exp: inSeconds(-3600) }),
        'valid for more than a day': good({ exp: inSeconds(48 * 3600) }),
        'for another widget': good({ widget: 'wgt_AAAAAAAAAAAAAAAAAAAA' }),
        'unsigned (alg none)': signVisitorToken(
          widget.secret,
          { widget: widget.public_id, visitor_id: 'member-42', exp: inSeconds(3600) },
          'none',
        ),
        'not a token': 'not-a-jwt',
      };
      for (const [why, token] of Object.entries(bad)) {
        const res = await start(token);
        expect(res.status(), why).toBe(401);
        expect(((await res.json()) as { code: string }).code, why).toBe(
          'widgets:bad_visitor_token',
        );
      }
      const session = await sessionOf(await start(good()));
      expect(session.visitor).toEqual({ name: 'Ada Member', signed: true });
    });

    const visitorContext = await visitorBrowser(browser);
    try {
      const visitorPage = await visitorContext.newPage();
      const embedded = new EmbeddedWidget(visitorPage, 'Members only');

      await test.step('in the browser, an unsigned visitor reads the refusal inside the widget', async () => {
        site.serve('/', hostPage('Members area', widget.snippet));
        await visitorPage.goto(`${site.origin}/`);
        await embedded.open();
        await expect(embedded.notice()).toContainText('This chat is for signed-in visitors only');
        await expect(embedded.input()).toBeDisabled();
      });

      await test.step('with the token the host’s server signed, the visitor chats', async () => {
        const signedSnippet = widget.snippet.replace(
          '<script ',
          `<script data-visitor-token="${good()}" `,
        );
        site.serve('/signed', hostPage('Members area', signedSnippet));
        await visitorPage.goto(`${site.origin}/signed`);
        await embedded.open();
        await embedded.send('Is my membership active?');
        await expect(embedded.log()).toContainText('You said: "Is my membership active?"');
        await expect(embedded.notice()).toBeHidden();
      });
    } finally {
      await visitorContext.close();
    }

    await test.step('the owner sees the signed visitor by the name the token gave', async () => {
      const res = await owner.get(`/rest/v1/widgets/${widget.id}/sessions`);
      expect(res.status(), await res.text()).toBe(200);
      const { items } = (await res.json()) as {
        items: { visitor: { external_id: string | null; name: string | null; signed: boolean } }[];
      };
      expect(items.map((item) => item.visitor)).toEqual([
        expect.objectContaining({ external_id: 'member-42', name: 'Ada Member', signed: true }),
      ]);
    });
  } finally {
    await owner.dispose();
  }
});

test('one widget’s visitors cannot read another’s conversations, nor another owner its sessions', async ({
  request,
}) => {
  const { owner, agentId } = await newOwner('embed-isolation', 'Two sites helper');
  const other = await apiRequest.newContext({
    baseURL: baseURL(),
    extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() },
  });
  try {
    await signUpThroughApi(other, newTestUser('embed-isolation-other'));
    const origin = 'https://shop.example.com';
    const a = await createWidget(owner, { name: 'Widget A', agentId, origins: [origin] });
    const b = await createWidget(owner, { name: 'Widget B', agentId, origins: [origin] });

    const visitorOfA = (await sessionOf(await startSession(request, a.public_id, origin))).session;
    const secondOfA = (await sessionOf(await startSession(request, a.public_id, origin))).session;
    const visitorOfB = (await sessionOf(await startSession(request, b.public_id, origin))).session;
    const { conversationId, text } = await chat(
      request,
      a.public_id,
      origin,
      visitorOfA,
      'My secret order 777',
    );
    expect(text).toContain('You said: "My secret order 777"');

    // Its own visitor reads it.
    const own = await readConversation(request, a.public_id, origin, visitorOfA, conversationId);
    expect(own.status(), await own.text()).toBe(200);
    expect(JSON.stringify(await own.json())).toContain('My secret order 777');

    // Widget A's session means nothing to widget B, and B's visitor finds no such conversation.
    await refusal(
      await readConversation(request, b.public_id, origin, visitorOfA, conversationId),
      401,
      'widgets:session_invalid',
    );
    await refusal(
      await readConversation(request, b.public_id, origin, visitorOfB, conversationId),
      404,
      'widgets:conversation_not_found',
    );
    // B's session means nothing to widget A; another visitor of A does not see it either.
    await refusal(
      await readConversation(request, a.public_id, origin, visitorOfB, conversationId),
      401,
      'widgets:session_invalid',
    );
    await refusal(
      await readConversation(request, a.public_id, origin, secondOfA, conversationId),
      404,
      'widgets:conversation_not_found',
    );
    // Nor can anyone write into it.
    const intrude = await request.post(`/widget/v1/${a.public_id}/chat`, {
      data: { conversation_id: conversationId, message: 'Show me everything' },
      headers: { 'x-chorus-embedder': origin, authorization: `Bearer ${secondOfA}` },
    });
    await refusal(intrude, 404, 'widgets:conversation_not_found');

    // The owner sees it; another user sees neither the widget nor its sessions.
    const sessions = await owner.get(`/rest/v1/widgets/${a.id}/sessions`);
    expect(sessions.status()).toBe(200);
    expect(JSON.stringify(await sessions.json())).toContain('My secret order 777');
    await refusal(await other.get(`/rest/v1/widgets/${a.id}/sessions`), 404, 'widgets:not_found');
    await refusal(
      await other.get(`/rest/v1/widgets/${a.id}/sessions/${conversationId}`),
      404,
      'widgets:not_found',
    );
  } finally {
    await other.dispose();
    await owner.dispose();
  }
});
