import { testDriver } from './database.ts';
import { ensurePgliteTemplate, ensurePostgresTemplate } from './template.ts';

/**
 * Global setup of the integration project: builds the migrated template of this run's database
 * once, before the workers start, so they only clone it (see ./template.ts).
 */
export default async function setup() {
  const started = performance.now();
  const template =
    testDriver() === 'pglite' ? await ensurePgliteTemplate() : await ensurePostgresTemplate();
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`[integration] ${testDriver()} template ${template} ready in ${ms} ms\n`);
}
