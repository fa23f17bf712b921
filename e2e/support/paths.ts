import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Everything an e2e run writes lives here (gitignored). */
export const e2eTmpDir = join(repoRoot, '.tmp', 'e2e');
/** One JSON file per e-mail received by the test SMTP server. */
export const mailDir = join(e2eTmpDir, 'mail');
export const serverEntry = join(repoRoot, 'apps', 'server', 'dist', 'main.js');
