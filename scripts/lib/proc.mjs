import { spawn, spawnSync } from 'node:child_process';

/**
 * Runs a command and resolves to its exit code (never rejects). Its output goes to ours, or,
 * with `output` (an open file descriptor), to that file.
 */
export const run = (command, args, { env, cwd, timeoutSeconds, output } = {}) =>
  new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: output === undefined ? 'inherit' : ['ignore', output, output],
    });
    let timer;
    if (timeoutSeconds) {
      timer = setTimeout(() => {
        console.error(`✗ ${command} ${args.join(' ')} timed out after ${timeoutSeconds} s`);
        child.kill('SIGKILL');
      }, timeoutSeconds * 1000);
    }
    child.on('error', (error) => {
      clearTimeout(timer);
      console.error(`✗ cannot start ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 : 1));
    });
  });

/** Runs a command quietly and returns its status and output. */
export const capture = (command, args, options = {}) => {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  return {
    ok: result.status === 0,
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? (result.error ? result.error.message : ''),
  };
};

/** True when an executable of that name is on PATH. */
export const hasCommand = (name) => capture('sh', ['-c', `command -v ${name}`]).ok;

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
