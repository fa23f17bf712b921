import { writeSync } from 'node:fs';
import { run } from './proc.mjs';

const aptEnv = { DEBIAN_FRONTEND: 'noninteractive' };
let updated = false;

/**
 * `apt-get update` once per run, then `apt-get install -y` the packages; true on success. With
 * `output` (an open file descriptor) apt's output goes there instead of ours.
 */
export const aptInstall = (packages, options) => {
  // dpkg takes one install at a time: a second asked for meanwhile waits for the first.
  const turn = queue.then(() => install(packages, options));
  queue = turn.catch(() => {});
  return turn;
};
let queue = Promise.resolve();

const install = async (packages, { output } = {}) => {
  const say = (line) => (output === undefined ? console.log(line) : writeSync(output, `${line}\n`));
  if (!updated) {
    say('$ apt-get update');
    const code = await run('apt-get', ['update'], { env: aptEnv, timeoutSeconds: 300, output });
    if (code !== 0) {
      console.error(`apt-get update failed (exit ${code})`);
      return false;
    }
    updated = true;
  }
  say(`$ apt-get install -y ${packages.join(' ')}`);
  const code = await run('apt-get', ['install', '-y', ...packages], {
    env: aptEnv,
    timeoutSeconds: 900,
    output,
  });
  if (code !== 0) console.error(`apt-get install ${packages.join(' ')} failed (exit ${code})`);
  return code === 0;
};
