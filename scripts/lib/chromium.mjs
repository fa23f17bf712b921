import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { aptInstall } from './apt.mjs';
import { isRoot } from './proc.mjs';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Makes sure Debian's Chromium is installed; returns an error message, or null when ready. With
 * `log` (a file path), apt's output is written there and shown only if the install fails, so the
 * install can run beside other work without mixing into its output.
 */
export const ensureChromium = async ({ log } = {}) => {
  if (existsSync(chromiumPath)) return null;
  if (!isRoot()) {
    return `Chromium is missing at ${chromiumPath}. Install it (as root: apt-get install -y chromium) or set CHROMIUM_PATH, then run again.`;
  }
  console.log(
    `Chromium is missing at ${chromiumPath}; installing it with apt-get${log ? ` (output in ${log})` : ''}.`,
  );
  const output = log ? openSync(log, 'w') : undefined;
  const installed = await aptInstall(['chromium'], { output });
  if (output !== undefined) closeSync(output);
  if (!installed || !existsSync(chromiumPath)) {
    if (log) console.error(readFileSync(log, 'utf8'));
    return `Could not install Chromium with apt-get; ${chromiumPath} is still missing.`;
  }
  return null;
};
