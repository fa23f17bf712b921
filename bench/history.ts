/**
 * Big histories: the first sidebar page over 10,000 conversations, the first message page of a
 * 2,000-message conversation, and opening that conversation in Chromium (cold, new context).
 *
 *   npm run build && npx tsx bench/history.ts [--rounds 100]
 *
 * Set BENCH_DATABASE_URL to run on PostgreSQL instead of the embedded PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { chromium, type BrowserContext } from 'playwright-core';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { percentile, signUp, startServer, freePort } from './lib.ts';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 100;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-'));
const port = await freePort();
const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };

const time = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

let server = await startServer(env, port);
try {
  const user = await signUp(server.baseUrl, 'bench-history@example.com');
  const session = (await user.json('GET', '/auth/v1/get-session')) as {
    user: { id: string; email: string; name: string };
    session: { id: string; expiresAt: string };
  };
  const userId = session.user.id;
  // What the app keeps in local storage once signed in on a browser (never the token).
  const snapshot = JSON.stringify({
    user: { id: userId, email: session.user.email, name: session.user.name },
    id: session.session.id,
    expires_at: Math.floor(new Date(session.session.expiresAt).getTime() / 1000),
  });
  const long = (await user.json('POST', '/rest/v1/conversations', { title: 'Long chat' })) as {
    id: string;
  };

  // Seed straight into the database (the embedded one only opens in one process at a time).
  await server.stop();
  const database = openDatabase({ databaseUrl, dataDir });
  await database.db.execute(sql`
    insert into conversations (user_id, title, created_at, updated_at)
    select ${userId}, 'Conversation ' || g, now() - (g || ' minutes')::interval,
           now() - (g || ' minutes')::interval
    from generate_series(1, 10000) g`);
  await database.db.execute(sql`
    insert into messages (conversation_id, user_id, role, content, provider, model)
    select ${long.id}::uuid, ${userId},
           case when g % 2 = 1 then 'user' else 'assistant' end,
           case when g % 10 = 0
             then 'Message ' || g || E' with code:\n\n\`\`\`ts\nconst answer = ' || g || E';\nconsole.log(answer);\n\`\`\`\n\nand a **bold** end.'
             else 'Message ' || g || ' — ' || repeat('lorem ipsum dolor sit amet ', 8) || 'end.'
           end,
           'openai', 'gpt-4o-mini'
    from generate_series(1, 2000) g`);
  await database.close();
  server = await startServer(env, port);

  const get = (url: string) =>
    fetch(`${server.baseUrl}${url}`, { headers: user.headers() }).then(async (r) => {
      if (!r.ok) throw new Error(`${url} answered ${r.status}`);
      return r.json();
    });
  const sidebarUrl = '/rest/v1/conversations?limit=50';
  const messagesUrl = `/rest/v1/conversations/${long.id}/messages/latest?limit=200`;
  for (let i = 0; i < 10; i += 1) await Promise.all([get(sidebarUrl), get(messagesUrl)]);
  const sidebar: number[] = [];
  const messagePage: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    sidebar.push(await time(() => get(sidebarUrl)));
    messagePage.push(await time(() => get(messagesUrl)));
  }

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
  });
  const cookies = user
    .headers()
    .cookie.split('; ')
    .map((pair) => {
      const [name, ...rest] = pair.split('=');
      return { name: name!, value: rest.join('='), url: server.baseUrl };
    });
  /** A browser someone signed in on: the session cookie and the app's session snapshot. */
  const signedInContext = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies(cookies);
    await context.addInitScript((value) => {
      if (!window.localStorage.getItem('chorus.session')) {
        window.localStorage.setItem('chorus.session', value);
      }
    }, snapshot);
    return context;
  };
  const openOnce = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/chat/${long.id}`);
    // Checked on every frame inside the page, so the time is when the text was first there.
    const found = await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-role]')].some((el) =>
          el.textContent?.includes('Message 2000 with code'),
        )
          ? performance.now()
          : false,
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    const ms = (await found.jsonValue()) as number;
    const rows = await page.evaluate(() => document.querySelectorAll('[data-role]').length);
    await page.close();
    return { ms, rows };
  };
  // Cold: a new browser profile each time (nothing cached). Warm: a returning visitor, whose
  // browser keeps the immutable, hashed scripts. The first round of each is not counted.
  const cold: number[] = [];
  const warm: number[] = [];
  let mounted = 0;
  for (let i = 0; i < 11; i += 1) {
    const context = await signedInContext();
    const { ms, rows } = await openOnce(context);
    mounted = rows;
    if (i > 0) cold.push(ms);
    await context.close();
  }
  const returning = await signedInContext();
  for (let i = 0; i < 11; i += 1) {
    const { ms } = await openOnce(returning);
    if (i > 0) warm.push(ms);
  }
  await returning.close();
  await browser.close();

  console.log(
    JSON.stringify(
      {
        rounds,
        database: databaseUrl ? 'postgresql' : 'pglite',
        sidebar_first_page_10k_ms: { p50: percentile(sidebar, 50), p95: percentile(sidebar, 95) },
        messages_first_page_2000_ms: {
          p50: percentile(messagePage, 50),
          p95: percentile(messagePage, 95),
        },
        open_2000_message_chat_in_chromium_ms: {
          cold: { p50: percentile(cold, 50), max: percentile(cold, 100), runs: cold.length },
          warm: { p50: percentile(warm, 50), max: percentile(warm, 100), runs: warm.length },
        },
        message_rows_mounted: mounted,
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
