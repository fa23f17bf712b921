/**
 * Initial JavaScript per page, as a browser loads it: every script a cold Chromium fetches until
 * the page is idle, each gzipped (level 9, what a compressing proxy or CDN would send).
 *
 *   npm run build && npx tsx bench/bundle.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type BrowserContext } from 'playwright-core';
import { signUp, startServer } from './lib.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-'));
const server = await startServer({ DATA_DIR: dataDir });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
});

const scriptsLoadedBy = async (context: BrowserContext, url: string, ready: string) => {
  const page = await context.newPage();
  const bodies: Promise<{ url: string; raw: number; gzip: number }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    bodies.push(
      response.body().then((body) => ({
        url: new URL(response.url()).pathname,
        raw: body.byteLength,
        gzip: gzipSync(body, { level: 9 }).byteLength,
      })),
    );
  });
  await page.goto(`${server.baseUrl}${url}`, { waitUntil: 'networkidle' });
  await page.getByText(ready).first().waitFor();
  const scripts = await Promise.all(bodies);
  await page.close();
  return {
    scripts: scripts.length,
    raw_kb: +(scripts.reduce((n, s) => n + s.raw, 0) / 1024).toFixed(1),
    gzip_kb: +(scripts.reduce((n, s) => n + s.gzip, 0) / 1024).toFixed(1),
  };
};

try {
  const user = await signUp(server.baseUrl, 'bench-bundle@example.com');
  const guest = await browser.newContext();
  const landing = await scriptsLoadedBy(guest, '/', 'Chorus');
  await guest.close();

  const signedIn = await browser.newContext();
  await signedIn.addCookies(
    user
      .headers()
      .cookie.split('; ')
      .map((pair) => {
        const [name, ...rest] = pair.split('=');
        return { name: name!, value: rest.join('='), url: server.baseUrl };
      }),
  );
  const chat = await scriptsLoadedBy(signedIn, '/chat', 'New chat');
  await signedIn.close();

  console.log(
    JSON.stringify({ landing, chat, budget_gzip_kb: { landing: 150, chat: 250 } }, null, 2),
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
