import type { Config } from '../config.ts';
import type { StorageDriver } from './driver.ts';
import { createLocalDriver } from './local-driver.ts';
import { createS3Driver } from './s3-driver.ts';

export const createStorageDriver = (settings: Config['storage']): StorageDriver =>
  settings.kind === 'local' ? createLocalDriver(settings.root) : createS3Driver(settings);
