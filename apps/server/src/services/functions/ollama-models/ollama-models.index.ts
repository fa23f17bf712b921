import type { OllamaModels } from '@chorus/shared/api/keys';
import { providers } from '@chorus/shared/providers';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { readOllamaTags } from '../../keys/ollama-tags.ts';
import { ollamaModelsRoute } from './ollama-models.routes.ts';

const CACHE_MS = 60_000;
const TIMEOUT_MS = 5_000;

/** One server for everyone, so one cached answer serves every user (per base URL). */
let cache: { at: number; baseUrl: string; answer: OllamaModels } | undefined;

const catalogue: OllamaModels = {
  models: providers.ollama.models.map(({ value, label }) => ({ value, label })),
  source: 'catalogue',
};

export const ollamaModelsRouter = createRouter<AuthedEnv>().openapi(
  ollamaModelsRoute,
  async (c) => {
    const baseUrl = c.var.deps.config.providerBaseUrls.ollama;
    if (cache && cache.baseUrl === baseUrl && Date.now() - cache.at < CACHE_MS) {
      return c.json(cache.answer, 200);
    }
    const tags = await readOllamaTags(baseUrl, TIMEOUT_MS);
    if (!tags.ok) {
      c.var.deps.log.warn({ reason: tags.reason }, 'ollama model list failed');
      // Not cached: the next look asks the server again, as soon as it is back.
      return c.json(catalogue, 200);
    }
    // A server with nothing installed still has the catalogue's names to pull.
    const answer: OllamaModels =
      tags.models.length === 0
        ? catalogue
        : { models: tags.models.map((name) => ({ value: name, label: name })), source: 'server' };
    cache = { at: Date.now(), baseUrl, answer };
    return c.json(answer, 200);
  },
);
