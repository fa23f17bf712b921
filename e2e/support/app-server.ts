import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { repoRoot, serverEntry } from './paths.ts';

export type AppServer = {
  child: ChildProcess;
  stderr: () => string;
  logFile: string;
};

const keepTail = (buffer: string[], chunk: string, max = 200) => {
  buffer.push(...chunk.split('\n'));
  if (buffer.length > max) buffer.splice(0, buffer.length - max);
};

/** Starts the built app (`node apps/server/dist/main.js`) with the given environment. */
export const startAppServer = (env: Record<string, string>, logFile: string): AppServer => {
  if (!existsSync(serverEntry)) {
    throw new Error(`${serverEntry} does not exist; run \`npm run build\` first.`);
  }
  const inherited = { ...process.env };
  // The e2e app always runs on its own embedded database in a fresh DATA_DIR.
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile);
  const tail: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => log.write(chunk));
  child.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    keepTail(tail, chunk.toString('utf8'));
  });
  child.once('exit', () => log.end());
  return { child, stderr: () => tail.join('\n'), logFile };
};

/** Resolves once GET /healthz answers 200 {"status":"ok"}; rejects on timeout or early exit. */
export const waitForHealthy = async (server: AppServer, baseURL: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(
        `The app exited during start (code ${server.child.exitCode}, signal ${server.child.signalCode}).\n--- server stderr ---\n${server.stderr()}`,
      );
    }
    try {
      const response = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(2000) });
      const body = await response.text();
      if (response.status === 200 && (JSON.parse(body) as { status?: string }).status === 'ok') {
        return;
      }
      last = `${response.status} ${body.slice(0, 200)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `GET ${baseURL}/healthz did not answer 200 {"status":"ok"} within ${timeoutMs} ms (last: ${last}).\n--- server stderr ---\n${server.stderr()}`,
  );
};

/** Sends SIGTERM and requires a clean exit (code 0) within `timeoutMs`. */
export const stopAppServer = async (server: AppServer, timeoutMs = 10_000) => {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) {
    throw new Error(
      `The app had already exited (code ${child.exitCode}, signal ${child.signalCode}) before teardown.\n--- server stderr ---\n${server.stderr()}`,
    );
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) =>
    setTimeout(() => resolve('timeout'), timeoutMs).unref(),
  );
  const result = await Promise.race([exited, timeout]);
  if (result === 'timeout') {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`The app did not exit within ${timeoutMs} ms of SIGTERM (killed it).`);
  }
  if (result.code !== 0) {
    throw new Error(
      `The app did not exit cleanly on SIGTERM (code ${result.code}, signal ${result.signal}).\n--- server stderr ---\n${server.stderr()}`,
    );
  }
};
