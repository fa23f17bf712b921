import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalDriver } from './local-driver.ts';
import { describeDriverContract } from './testing/driver-contract.ts';

describeDriverContract('local', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-local-driver-'));
  const root = path.join(dataDir, 'storage');
  const driver = createLocalDriver(root);
  return {
    driver,
    // The storage directory replaced by a plain file: every operation meets ENOTDIR.
    async breakStore() {
      renameSync(root, `${root}.moved`);
      writeFileSync(root, 'not a directory');
    },
    async repairStore() {
      rmSync(root);
      renameSync(`${root}.moved`, root);
    },
    async close() {
      await driver.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
