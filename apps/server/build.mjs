// Bundles the server into dist/main.js: our own TypeScript (and @chorus/shared) is compiled in,
// third-party packages stay in node_modules. Migrations are copied beside the bundle. Split at
// main.ts's dynamic import: the entry loads only what it needs to take the data directory and
// the port, and the rest (serve.ts, with every dependency it imports) comes after, as chunks
// beside main.js.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
rmSync(dist, { recursive: true, force: true });

await build({
  entryPoints: [path.join(here, 'src/main.ts')],
  outdir: dist,
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalise-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@chorus/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
cpSync(path.join(here, 'drizzle'), path.join(dist, 'drizzle'), { recursive: true });
console.log('server bundle written to', path.relative(process.cwd(), path.join(dist, 'main.js')));
