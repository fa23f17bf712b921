import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OllamaModels } from '@chorus/shared/api/keys';
import { providers } from '@chorus/shared/providers';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let withServer: TestApp;
let withoutServer: TestApp;

beforeAll(async () => {
  [withServer, withoutServer] = await Promise.all([
    startTestApp({ providerSim: true }),
    // Nothing listens on the discard port: Ollama's server is away.
    startTestApp({ env: { OLLAMA_BASE_URL: 'http://127.0.0.1:9' } }),
  ]);
});
afterAll(() => Promise.all([withServer.close(), withoutServer.close()]));

describe('GET /functions/v1/ollama-models', () => {
  it('refuses a guest', async () => {
    expect((await withServer.client().get('/functions/v1/ollama-models')).status).toBe(401);
  });

  it('lists the models the Ollama server has installed, the same for every user', async () => {
    const ann = await withServer.user('ollama-ann@example.com');
    const bob = await withServer.user('ollama-bob@example.com');
    // Ann's own Ollama key is hers: the list never uses it, and Bob sees the server's list.
    await ann.request('PUT', '/rest/v1/api-keys/ollama', { api_key: 'ollama-ann-secret' });
    const forAnn = await ann.get<OllamaModels>('/functions/v1/ollama-models');
    const forBob = await bob.get<OllamaModels>('/functions/v1/ollama-models');
    expect(forAnn.status).toBe(200);
    expect(forAnn.body).toEqual({
      models: [
        { value: 'llama2:latest', label: 'llama2:latest' },
        { value: 'mistral:latest', label: 'mistral:latest' },
        { value: 'codellama:latest', label: 'codellama:latest' },
      ],
      source: 'server',
    });
    expect(forBob.body).toEqual(forAnn.body);
    expect(JSON.stringify(withServer.sim.requests)).not.toContain('ollama-ann-secret');
  });

  it("falls back to the catalogue's models when the server cannot be reached", async () => {
    const ann = await withoutServer.user('ollama-away@example.com');
    const res = await ann.get<OllamaModels>('/functions/v1/ollama-models');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      models: providers.ollama.models.map(({ value, label }) => ({ value, label })),
      source: 'catalogue',
    });
  });
});
