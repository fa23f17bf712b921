import { execFileSync } from 'node:child_process';

const probe = `
const net = require('node:net');
const server = net.createServer();
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(String(server.address().port));
  server.close();
});`;

/**
 * A free TCP port on 127.0.0.1, found synchronously (by a short child process) so that the
 * Playwright config can know the app's URL before any async hook runs.
 */
export const freePortSync = (): number =>
  Number(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }));
