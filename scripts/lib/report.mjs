import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The `count` slowest test files of a vitest JSON report, as `{ name, ms }`, slowest first. */
export const slowestVitestFiles = (file, root, count = 10) => {
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return (report.testResults ?? [])
    .map((r) => ({
      name: isAbsolute(r.name) ? relative(root, r.name) : r.name,
      ms: (r.endTime ?? 0) - (r.startTime ?? 0),
    }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
};

/** The `count` slowest tests of a Playwright JSON report (first attempt), slowest first. */
export const slowestPlaywrightTests = (file, count = 10) => {
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const found = [];
  const walk = (suite, titles) => {
    const here = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const ms = test.results?.[0]?.duration;
        if (ms !== undefined) {
          found.push({ name: `${spec.file} › ${[...here, spec.title].join(' › ')}`, ms });
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return found.sort((a, b) => b.ms - a.ms).slice(0, count);
};

/** Prints a ranking made by the functions above. */
export const printSlowest = (title, rows) => {
  if (rows.length === 0) return;
  console.log(`\n  slowest ${title}:`);
  for (const { name, ms } of rows) console.log(`    ${seconds(ms).padStart(8)}  ${name}`);
};
