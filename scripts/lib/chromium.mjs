import { existsSync } from 'node:fs';
import { aptInstall } from './apt.mjs';
import { isRoot } from './proc.mjs';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Makes sure Debian's Chromium is installed; returns an error message, or null when ready. */
export const ensureChromium = async () => {
  if (existsSync(chromiumPath)) return null;
  if (!isRoot()) {
    return `Chromium is missing at ${chromiumPath}. Install it (as root: apt-get install -y chromium) or set CHROMIUM_PATH, then run again.`;
  }
  console.log(`Chromium is missing at ${chromiumPath}; installing it with apt-get.`);
  const installed = await aptInstall('chromium');
  if (!installed || !existsSync(chromiumPath)) {
    return `Could not install Chromium with apt-get; ${chromiumPath} is still missing.`;
  }
  return null;
};
