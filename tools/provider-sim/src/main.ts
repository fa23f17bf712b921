/** `npm run sim`: starts the simulator and prints the *_BASE_URL lines to export for Chorus. */
import { baseUrlEnvNames, simProviders, startProviderSim } from './server.ts';

const readNumber = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`[provider-sim] ${name} must be a non-negative integer, got "${raw}".`);
    process.exit(1);
  }
  return value;
};

const sim = await startProviderSim({
  port: readNumber('PORT', 8787),
  host: process.env.HOST || '127.0.0.1',
  chunkDelayMs: readNumber('SIM_CHUNK_DELAY_MS', 30),
});

console.log(`Chorus provider simulator listening on ${sim.url}`);
console.log('Point Chorus at it with:\n');
for (const provider of simProviders) {
  console.log(`export ${baseUrlEnvNames[provider.name]}=${sim.baseUrls[provider.name]}`);
}
console.log('\nAny non-empty API key works; see tools/provider-sim/README.md for scripted keys.');

const stop = () => {
  void sim.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
