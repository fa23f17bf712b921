import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AppEnv } from './app-env.ts';

export type WebAssets = { dir: string; indexHtml: string; inlineScriptHashes: string[] };

/** Loads the built web app, if there is one, and hashes its inline scripts for the CSP. */
export const loadWebAssets = (dir: string): WebAssets | null => {
  const indexPath = path.join(dir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const indexHtml = readFileSync(indexPath, 'utf8');
  const inlineScriptHashes = [
    ...indexHtml.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g),
  ]
    .map((m) => m[1] ?? '')
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  return { dir, indexHtml, inlineScriptHashes };
};

const apiPrefixes = ['/auth/', '/rest/', '/functions/', '/storage/', '/realtime/', '/healthz'];

/**
 * Hashed assets are cached forever; every other non-API GET gets index.html so the client router
 * decides (unknown paths show the landing page, spec §2).
 */
export const mountWebApp = (app: Hono<AppEnv>, assets: WebAssets) => {
  const root = path.relative(process.cwd(), assets.dir) || '.';
  app.use(
    '/assets/*',
    async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
    },
    serveStatic({ root }),
  );
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    if (apiPrefixes.some((p) => c.req.path.startsWith(p))) return next();
    if (c.req.path !== '/' && path.extname(c.req.path)) return serveStatic({ root })(c, next);
    return next();
  });
  app.get('*', (c, next) => {
    if (apiPrefixes.some((p) => c.req.path.startsWith(p))) return next();
    c.header('Cache-Control', 'no-cache');
    return c.html(assets.indexHtml);
  });
};
