// `npm start`: build what is missing or stale, then serve API + web app in this process.
//
// Signals: npm runs a script through `sh -c`, and npm passes SIGTERM and SIGINT on to its child
// only. Debian's sh (dash) does not replace itself with the command it runs, and dies of the
// signal without passing it on: npm exited 143 at once while node went on serving, orphaned. So
// package.json's script is `exec node scripts/start.mjs` (the shell becomes node), the server
// runs in this very process (main.ts stops gracefully on either signal), and a build started
// here is handed the signal too.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
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
  const build = spawn('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const forward = (signal) => build.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  const { code, signal } = await new Promise((resolve) =>
    build.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal })),
  );
  process.off('SIGTERM', forward);
  process.off('SIGINT', forward);
  if (signal) process.exit(128 + (constants.signals[signal] ?? 1));
  if (code !== 0) process.exit(code ?? 1);
}

await import(pathToFileURL(at('apps/server/dist/main.js')).href);
