#!/usr/bin/env node
// `npm run typecheck`: `tsc --noEmit` over every TypeScript project, two at a time (the machine
// has two cores; one tsc uses one). Each project is incremental (its tsconfig keeps the
// build info under .tmp/tsbuildinfo), so a run after a small change re-checks little.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { run } from './lib/proc.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = [
  'apps/server',
  'apps/web',
  'e2e',
  'packages/shared',
  'tools/provider-sim',
  'bench',
];
const parallel = Math.max(1, Math.min(2, availableParallelism()));

const failed = [];
const queue = [...projects];
const worker = async () => {
  for (let project = queue.shift(); project; project = queue.shift()) {
    const started = Date.now();
    const code = await run(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: root });
    const took = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`${code === 0 ? '✓' : '✗'} tsc -p ${project} (${took} s)`);
    if (code !== 0) failed.push(project);
  }
};
await Promise.all(Array.from({ length: parallel }, worker));
if (failed.length > 0) console.error(`Type errors in: ${failed.join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
