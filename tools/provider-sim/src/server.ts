/**
 * The provider simulator: one node:http server, a path prefix per provider, each speaking that
 * provider's real wire format. See README.md for the scripted behaviours.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropic } from './anthropic.ts';
import { deepseek } from './deepseek.ts';
import {
  sendError,
  type Provider,
  type ProviderName,
  type RecordedRequest,
  type SimContext,
} from './engine.ts';
import { gemini } from './gemini.ts';
import { maskHeaders, maskQueryKey, readBody, sendJson } from './http.ts';
import { mistral } from './mistral.ts';
import { ollama } from './ollama.ts';
import { openai } from './openai.ts';
import { openrouter } from './openrouter.ts';
import { perplexity } from './perplexity.ts';

export type { ProviderName, RecordedRequest } from './engine.ts';

export const simProviders: readonly Provider[] = [
  openai,
  anthropic,
  gemini,
  deepseek,
  mistral,
  perplexity,
  openrouter,
  ollama,
];

/** The environment variable through which Chorus's server takes each provider's base URL. */
export const baseUrlEnvNames: Record<ProviderName, string> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  gemini: 'GEMINI_BASE_URL',
  deepseek: 'DEEPSEEK_BASE_URL',
  mistral: 'MISTRAL_BASE_URL',
  perplexity: 'PERPLEXITY_BASE_URL',
  openrouter: 'OPENROUTER_BASE_URL',
  ollama: 'OLLAMA_BASE_URL',
};

export type ProviderSimOptions = {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Pause between streamed chunks; `[sim:delay-ms N]` overrides it per request. Default 0. */
  chunkDelayMs?: number;
  /** Oldest recorded requests are dropped beyond this many. Default 1000. */
  maxRecorded?: number;
};

export type ProviderSim = {
  url: string;
  port: number;
  /** Each provider's base URL on this simulator, as Chorus's *_BASE_URL expects it. */
  baseUrls: Record<ProviderName, string>;
  /** Every request received, newest last; clear it with `requests.length = 0`. */
  requests: RecordedRequest[];
  close(): Promise<void>;
};

const findProvider = (pathname: string) =>
  simProviders.find((p) => pathname === p.prefix || pathname.startsWith(`${p.prefix}/`));

export const startProviderSim = async (opts: ProviderSimOptions = {}): Promise<ProviderSim> => {
  const host = opts.host ?? '127.0.0.1';
  const chunkDelayMs = opts.chunkDelayMs ?? 0;
  const maxRecorded = opts.maxRecorded ?? 1000;
  const requests: RecordedRequest[] = [];
  const inFlight = new Set<AbortController>();
  let closing = false;
  let seq = 0;
  const rateLimitCounts = new Map<string, number>();
  let baseUrls = {} as Record<ProviderName, string>;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sim.local');
    const method = req.method ?? 'GET';
    const text = await readBody(req);

    if (url.pathname === '/' || url.pathname.startsWith('/_sim/')) {
      return handleControl(method, url.pathname, res);
    }

    let body: unknown = null;
    let bodyIsJson = true;
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
        bodyIsJson = false;
      }
    }
    const provider = findProvider(url.pathname);
    const record: RecordedRequest = {
      id: ++seq,
      provider: provider?.name ?? null,
      method,
      path: maskQueryKey(url),
      headers: maskHeaders(req),
      body,
      receivedAt: new Date().toISOString(),
      outcome: 'pending',
    };
    requests.push(record);
    if (requests.length > maxRecorded) requests.splice(0, requests.length - maxRecorded);

    const controller = new AbortController();
    inFlight.add(controller);
    res.on('close', () => {
      inFlight.delete(controller);
      if (res.headersSent) record.status = res.statusCode;
      if (record.outcome === 'pending') {
        if (res.writableFinished) record.outcome = 'completed';
        else record.outcome = closing ? 'dropped-by-sim' : 'client-disconnected';
      }
      controller.abort();
    });

    if (!provider) {
      return sendJson(res, 404, {
        error: {
          message: `No simulated provider at ${url.pathname}. Base URLs: ${Object.values(baseUrls).join(', ')}`,
        },
      });
    }

    const path = url.pathname.slice(provider.prefix.length) || '/';
    const ctx: SimContext = {
      req,
      res,
      url,
      path,
      body,
      bodyIsJson,
      record,
      signal: controller.signal,
      chunkDelayMs,
      rateLimitCounts,
      drop: () => {
        record.outcome = 'dropped-by-sim';
        res.destroy();
      },
    };
    for (const route of provider.routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (match) return route.handle(ctx, match);
    }
    sendError(ctx, provider.errors, 'not-found', `Invalid URL (${method} ${url.pathname})`);
  };

  const handleControl = (method: string, pathname: string, res: ServerResponse): void => {
    if (method === 'GET' && pathname === '/') {
      return sendJson(res, 200, { name: '@chorus/provider-sim', baseUrls });
    }
    if (pathname === '/_sim/requests' && method === 'GET') return sendJson(res, 200, requests);
    if (pathname === '/_sim/requests' && method === 'DELETE') {
      requests.length = 0;
      res.writeHead(204).end();
      return;
    }
    sendJson(res, 404, { error: { message: `Unknown simulator route ${method} ${pathname}` } });
  };

  const server = createServer((req, res) => {
    handle(req, res)
      .catch((error: unknown) => {
        console.error('[provider-sim]', error);
        if (!res.headersSent)
          sendJson(res, 500, { error: { message: 'Simulator bug; see its log.' } });
      })
      .finally(() => {
        // A reply that waited for a disconnect (hang, slow) and was cut short by close().
        if (!res.writableEnded && !res.destroyed) res.destroy();
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${port}`;
  baseUrls = Object.fromEntries(simProviders.map((p) => [p.name, url + p.prefix])) as Record<
    ProviderName,
    string
  >;

  return {
    url,
    port,
    baseUrls,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        for (const controller of inFlight) controller.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};
