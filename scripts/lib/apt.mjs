import { run } from './proc.mjs';

const aptEnv = { DEBIAN_FRONTEND: 'noninteractive' };
let updated = false;

/** `apt-get update` once per run, then `apt-get install -y` the packages; true on success. */
export const aptInstall = async (...packages) => {
  if (!updated) {
    console.log('$ apt-get update');
    const code = await run('apt-get', ['update'], { env: aptEnv, timeoutSeconds: 300 });
    if (code !== 0) {
      console.error(`apt-get update failed (exit ${code})`);
      return false;
    }
    updated = true;
  }
  console.log(`$ apt-get install -y ${packages.join(' ')}`);
  const code = await run('apt-get', ['install', '-y', ...packages], {
    env: aptEnv,
    timeoutSeconds: 900,
  });
  if (code !== 0) console.error(`apt-get install ${packages.join(' ')} failed (exit ${code})`);
  return code === 0;
};
