#!/usr/bin/env node
// `npm run lint:cycles`: import cycles, type-only ones included, fail lint (issue 11). dpdm reads
// each project with its own tsconfig, so the web's `@/` alias resolves as Vite resolves it.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { run } from './lib/proc.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dpdm = createRequire(import.meta.url).resolve('dpdm/lib/bin/dpdm.js');
const projects = [
  {
    tsconfig: 'apps/server/tsconfig.json',
    globs: ['apps/server/src/**/*.{ts,tsx}', 'packages/shared/src/**/*.ts'],
  },
  { tsconfig: 'apps/web/tsconfig.json', globs: ['apps/web/src/**/*.{ts,tsx}'] },
];

let failed = false;
for (const { tsconfig, globs } of projects) {
  const args = ['--no-tree', '--no-warning', '--no-progress', '--circular'];
  args.push('--exit-code', 'circular:1', '--tsconfig', tsconfig, ...globs);
  const code = await run(process.execPath, [dpdm, ...args], { cwd: root });
  if (code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
