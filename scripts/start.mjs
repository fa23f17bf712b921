// `npm start`: build what is missing or stale, then serve API + web app in this process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...p) => path.join(root, ...p);

const newestMtime = (p) => {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
};

const outputs = [at('apps/server/dist/main.js'), at('apps/web/dist/index.html')];
const sources = [
  at('packages/shared/src'),
  at('apps/server/src'),
  at('apps/server/drizzle'),
  at('apps/server/build.mjs'),
  at('apps/web/src'),
  at('apps/web/public'),
  at('apps/web/index.html'),
  at('apps/web/vite.config.ts'),
  at('package-lock.json'),
];
const built = Math.min(...outputs.map((o) => (existsSync(o) ? statSync(o).mtimeMs : 0)));
const changed = Math.max(...sources.map(newestMtime));

if (built === 0 || changed > built) {
  console.log(
    built === 0
      ? 'Building Chorus (first start)…'
      : 'Sources changed since the last build; rebuilding…',
  );
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import(pathToFileURL(at('apps/server/dist/main.js')).href);
