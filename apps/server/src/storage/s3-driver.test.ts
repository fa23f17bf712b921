import { createS3Driver } from './s3-driver.ts';
import { describeDriverContract } from './testing/driver-contract.ts';
import { startS3Server } from './testing/s3-server.ts';

describeDriverContract('S3', async () => {
  const s3 = await startS3Server();
  const driver = createS3Driver(s3.settings);
  return {
    driver,
    breakStore: s3.stop,
    repairStore: s3.start,
    async close() {
      await driver.close();
      await s3.close();
    },
  };
});
