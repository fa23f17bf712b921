/**
 * Initial JavaScript per page, as a browser loads it: every script a cold Chromium fetches until
 * the page is idle, each gzipped at level 9, against the budgets in bench/bundle-budgets.ts.
 *
 *   npm run build && npx tsx bench/bundle.ts   # JSON: per page, scripts and KB
 *   npx tsx bench/bundle.ts --check            # `npm test`: fails when a page is over its budget
 *                                              # or the server sent a script uncompressed
 *
 * The embedded widget's loader and iframe page (embedBudgets) are measured from the built files.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { seedPgliteDataDir } from '../apps/server/src/test/template.ts';
import { bundleBudgets, embedBudgets } from './bundle-budgets.ts';
import { repoRoot, signUp, startServer } from './lib.ts';

type Script = {
  path: string;
  raw: number;
  gzip: number;
  /** Bytes of the body as the server sent it. */
  sent: number;
  encoding: string | undefined;
};
type Measured = {
  budget: { page: string; path: string; gzipKb: number };
  scripts: Script[];
  gzip: number;
};
type Cookies = Parameters<BrowserContext['addCookies']>[0];

const check = process.argv.includes('--check');
/** `--scripts`: each page's scripts with their gzip size, to see what to trim. */
const listScripts = process.argv.includes('--scripts');
const kb = (bytes: number) => +(bytes / 1024).toFixed(1);

const scriptsLoadedBy = async (
  browser: Browser,
  url: string,
  ready: string,
  cookies: Cookies,
): Promise<Script[]> => {
  // A context of its own: an empty cache, as on a first visit.
  const context = await browser.newContext();
  await context.addCookies(cookies);
  const page = await context.newPage();
  const bodies: Promise<Script>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    bodies.push(
      Promise.all([response.body(), response.request().sizes()]).then(([body, sizes]) => ({
        path: new URL(response.url()).pathname,
        raw: body.byteLength,
        gzip: gzipSync(body, { level: 9 }).byteLength,
        sent: sizes.responseBodySize,
        encoding: response.headers()['content-encoding'],
      })),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByText(ready).first().waitFor();
  const scripts = await Promise.all(bodies);
  await context.close();
  return scripts.sort((a, b) => b.gzip - a.gzip);
};

const webDist = path.join(process.env.BENCH_SERVER_ROOT ?? repoRoot, 'apps/web/dist');

/**
 * The scripts of a built file: itself for a script; for an HTML page, the scripts it names and,
 * in turn, every chunk they import (statically or lazily). Each counts as the server would send
 * it: compressed when the build wrote a compressed copy beside it.
 */
const builtScripts = (file: string): Script[] => {
  const queue = file.endsWith('.html')
    ? [...readFileSync(path.join(webDist, file), 'utf8').matchAll(/<(?:script|link)\b[^>]*>/g)]
        .filter(([tag]) => tag.startsWith('<script') || /\brel="modulepreload"/.test(tag))
        .map(([tag]) => /\b(?:src|href)="\/([^"]+\.js)"/.exec(tag)?.[1])
        .filter((name) => name !== undefined)
    : [file];
  const seen = new Set<string>();
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const code = readFileSync(path.join(webDist, name), 'utf8');
    for (const [, spec] of code.matchAll(
      /(?:\bimport\s*\(?|\bfrom)\s*["'](\.{1,2}\/[^"']+\.js)["']/g,
    )) {
      queue.push(path.posix.join(path.posix.dirname(name), spec!));
    }
  }
  return [...seen]
    .map((name) => {
      const body = readFileSync(path.join(webDist, name));
      const copy = ['br', 'gz'].find((ext) => existsSync(path.join(webDist, `${name}.${ext}`)));
      return {
        path: `/${name}`,
        raw: body.byteLength,
        gzip: gzipSync(body, { level: 9 }).byteLength,
        sent: copy ? statSync(path.join(webDist, `${name}.${copy}`)).size : body.byteLength,
        encoding: copy === 'gz' ? 'gzip' : copy,
      };
    })
    .sort((a, b) => b.gzip - a.gzip);
};

/** Prints a line per page and, for a page over budget, its scripts largest first. */
const report = (measured: Measured[]): boolean => {
  let ok = true;
  console.log(
    'Initial JavaScript (gzip -9 of every script a cold Chromium fetches until idle; for the widget, of the built files):',
  );
  for (const { budget, scripts, gzip } of measured) {
    const over = kb(gzip) > budget.gzipKb;
    // The build leaves out a compressed copy that would not be smaller (a few tiny chunks).
    const uncompressed = scripts.filter((s) => !s.encoding && s.gzip < s.raw);
    console.log(
      `  ${over ? 'OVER' : 'ok  '}  ${budget.page.padEnd(8)} ${budget.path.padEnd(6)} ${kb(gzip)} KB of ${budget.gzipKb} KB, ${scripts.length} scripts`,
    );
    if (over) {
      for (const s of scripts)
        console.log(`          ${String(kb(s.gzip)).padStart(6)} KB  ${s.path}`);
    }
    for (const s of uncompressed) console.log(`          sent without compression: ${s.path}`);
    if (over || uncompressed.length > 0) ok = false;
  }
  return ok;
};

// The embedded database starts as a copy of the migrated template, as in e2e (ADR 012); another
// checkout's server (BENCH_SERVER_ROOT) migrates its own.
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-'));
if (!process.env.BENCH_SERVER_ROOT) await seedPgliteDataDir(dataDir);
// The browser first: when it cannot start, no server is left running behind.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const server = await startServer({ DATA_DIR: dataDir });

try {
  // The first account becomes super_admin; the pages are measured as a plain user.
  await signUp(server.baseUrl, 'bench-first-admin@example.com');
  const user = await signUp(server.baseUrl, 'bench-bundle@example.com');
  const userCookies: Cookies = user
    .headers()
    .cookie.split('; ')
    .map((pair) => {
      const [name, ...rest] = pair.split('=');
      return { name: name!, value: rest.join('='), url: server.baseUrl };
    });

  const measured: Measured[] = [];
  for (const budget of bundleBudgets) {
    const scripts = await scriptsLoadedBy(
      browser,
      `${server.baseUrl}${budget.path}`,
      budget.ready,
      budget.signedIn ? userCookies : [],
    );
    measured.push({ budget, scripts, gzip: scripts.reduce((n, s) => n + s.gzip, 0) });
  }
  for (const budget of embedBudgets) {
    if (!existsSync(path.join(webDist, budget.file))) {
      throw new Error(`${budget.file} is not in ${webDist}: build the app first (npm run build)`);
    }
    const scripts = builtScripts(budget.file);
    measured.push({ budget, scripts, gzip: scripts.reduce((n, s) => n + s.gzip, 0) });
  }

  if (check) {
    if (!report(measured)) process.exitCode = 1;
  } else {
    const pages = measured.map(({ budget, scripts, gzip }) => [
      budget.page,
      {
        scripts: scripts.length,
        raw_kb: kb(scripts.reduce((n, s) => n + s.raw, 0)),
        gzip_kb: kb(gzip),
        sent_kb: kb(scripts.reduce((n, s) => n + s.sent, 0)),
        budget_gzip_kb: budget.gzipKb,
        ...(listScripts && {
          files: scripts.map((s) => `${kb(s.gzip)} ${s.path.replace(/-[\w-]{8}\.js$/, '')}`),
        }),
      },
    ]);
    console.log(JSON.stringify(Object.fromEntries(pages), null, 2));
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
