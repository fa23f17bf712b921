#!/usr/bin/env node
// `npm test`: lint, typecheck, unit, integration (PGlite, then PostgreSQL), build, bundle
// budgets, e2e.
// `node scripts/test.mjs <unit|integration|e2e>` runs a subset. Stops at the first failure.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './lib/chromium.mjs';
import { ensurePostgres, postgresAdminUrl } from './lib/postgres.mjs';
import { run } from './lib/proc.mjs';
import { printSlowest, slowestPlaywrightTests, slowestVitestFiles } from './lib/report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const childEnv = { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
const cleanups = [];

// Each test stage leaves a JSON report here; the summary ranks its slowest files or tests.
const reportDir = join(root, '.tmp', 'test-reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const vitestReport = (name) => join(reportDir, `${name}.json`);
/** Vitest's usual output, and a JSON report the summary reads. */
const vitestReporters = (name) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport(name)}`,
];
// Written by e2e/playwright.config.ts's JSON reporter.
const e2eReport = join(root, '.tmp', 'e2e', 'report.json');

// The browser steps need Chromium; a fresh machine installs it with apt-get (half a minute, most
// of it download and unpacking), so that starts with the run, beside lint and types, and the
// browser steps wait for it. Started only when the plan has a browser step (see below).
let chromiumReady;
const chromium = () =>
  (chromiumReady ??= ensureChromium({ log: join(reportDir, 'apt-chromium.log') }));

/** A step runs commands in order; it passes when all exit 0, or returns { skip: reason }. */
const steps = [
  {
    name: 'lint',
    // Caches under .tmp: a re-run looks again only at files that changed (no rule here needs
    // type information, so one file's result never depends on another's).
    // ESLint takes one core; the import-cycle check and Prettier run on the other meanwhile.
    run: async () => {
      const [eslint, rest] = await Promise.all([
        sh('npx', [
          'eslint',
          '.',
          '--max-warnings=0',
          '--cache',
          '--cache-location',
          '.tmp/eslint/',
        ]),
        (async () =>
          (await sh('npm', ['run', '--silent', 'lint:cycles'])) ||
          sh('npx', [
            'prettier',
            '--check',
            '.',
            '--cache',
            '--cache-location',
            '.tmp/prettier-cache',
          ]))(),
      ]);
      return eslint || rest;
    },
  },
  { name: 'typecheck', run: () => sh('npm', ['run', 'typecheck']) },
  {
    name: 'unit',
    groups: ['unit'],
    report: () => slowestVitestFiles(vitestReport('unit'), root),
    run: () =>
      sh('npx', [
        'vitest',
        'run',
        '--project',
        'unit',
        '--project',
        'web',
        ...vitestReporters('unit'),
      ]),
  },
  {
    name: 'integration (PGlite)',
    groups: ['integration'],
    report: () => slowestVitestFiles(vitestReport('integration-pglite'), root),
    run: () =>
      sh(
        'npx',
        ['vitest', 'run', '--project', 'integration', ...vitestReporters('integration-pglite')],
        { TEST_DB: 'pglite' },
      ),
  },
  {
    name: 'integration (PostgreSQL)',
    groups: ['integration'],
    report: () => slowestVitestFiles(vitestReport('integration-postgres'), root),
    run: async () => {
      const postgres = await ensurePostgres();
      if (!postgres.ok) return { skip: postgres.reason };
      cleanups.push(postgres.stop);
      console.log(`PostgreSQL: ${postgres.how}; admin URL ${postgresAdminUrl}`);
      return sh(
        'npx',
        ['vitest', 'run', '--project', 'integration', ...vitestReporters('integration-postgres')],
        { TEST_DB: 'postgres', TEST_POSTGRES_URL: postgresAdminUrl },
      );
    },
  },
  { name: 'build', groups: ['e2e'], run: () => sh('npm', ['run', 'build']) },
  {
    // The built app in Chromium against bench/bundle-budgets.ts; prints each script of a page over.
    name: 'bundle budgets',
    groups: ['e2e'],
    run: async () => {
      const problem = await chromium();
      if (problem) {
        console.error(problem);
        return 1;
      }
      return sh('npx', ['tsx', 'bench/bundle.ts', '--check']);
    },
  },
  {
    name: 'e2e',
    groups: ['e2e'],
    report: () => slowestPlaywrightTests(e2eReport),
    run: async () => {
      rmSync(e2eReport, { force: true });
      const problem = await chromium();
      if (problem) {
        console.error(problem);
        return 1;
      }
      return sh('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
    },
  },
];

function sh(command, args, env = {}) {
  console.log(
    `$ ${Object.entries(env)
      .map(([k, v]) => `${k}=${v} `)
      .join('')}${command} ${args.join(' ')}`,
  );
  return run(command, args, { env: { ...childEnv, ...env } });
}

const groups = ['unit', 'integration', 'e2e'];
const selected = process.argv[2];
if (selected && !groups.includes(selected)) {
  console.error(`Unknown selection "${selected}"; use one of: ${groups.join(', ')}`);
  process.exit(2);
}
const plan = selected ? steps.filter((s) => s.groups?.includes(selected)) : steps;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const results = [];

const cleanUp = async () => {
  while (cleanups.length > 0) await cleanups.pop()();
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanUp().finally(() => process.exit(130));
  });
}

const started = Date.now();
// Its outcome is read by the steps that need it (a failure there fails them, not the run now).
if (plan.some((step) => step.groups?.includes('e2e'))) chromium().catch(() => {});
for (const [index, step] of plan.entries()) {
  console.log(`\n━━━ [${index + 1}/${plan.length}] ${step.name} ━━━`);
  const t0 = Date.now();
  let outcome;
  try {
    outcome = await step.run();
  } catch (error) {
    console.error(error);
    outcome = 1;
  }
  const took = seconds(Date.now() - t0);
  if (typeof outcome === 'object' && outcome?.skip) {
    console.log(`SKIP ${step.name}: ${outcome.skip} (${took})`);
    results.push({ name: step.name, status: 'skipped', took });
    continue;
  }
  const passed = outcome === 0;
  console.log(`${passed ? '✓ PASS' : '✗ FAIL'} ${step.name} (${took})`);
  results.push({ name: step.name, status: passed ? 'passed' : 'failed', took, step });
  if (!passed) break;
}
await cleanUp();

const count = (status) => results.filter((r) => r.status === status).length;
console.log('\n━━━ summary ━━━');
for (const r of results) {
  if (!r.step?.report) continue;
  try {
    printSlowest(
      r.step.name.startsWith('e2e') ? 'e2e tests' : `files of ${r.name}`,
      r.step.report(),
    );
  } catch (error) {
    console.log(`  (no ranking for ${r.name}: ${error.message})`);
  }
}
console.log('');
for (const r of results)
  console.log(`  ${r.status.padEnd(7)} ${r.name.padEnd(26)} ${r.took.padStart(9)}`);
for (const s of plan.slice(results.length)) console.log(`  not run ${s.name}`);
const skipped = count('skipped');
if (skipped > 0) console.log(`${skipped} skipped (see the SKIP lines above)`);
console.log(`total ${seconds(Date.now() - started)}`);
console.log(`${count('passed')} passed, ${count('failed')} failed`);
process.exit(count('failed') > 0 ? 1 : 0);
