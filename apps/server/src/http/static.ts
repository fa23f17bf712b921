import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Hono } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { AppEnv } from './app-env.ts';
import { errorBody } from './errors.ts';

/**
 * The compressed copies the web build writes beside a file (apps/web/build/precompress-assets.ts),
 * best first.
 */
const encodings = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof encodings)[number]['name'];

/** A file of the built web app, by URL path, and which compressed copies lie beside it. */
type StaticFile = { file: string; type: string; encoded: ReadonlySet<Encoding> };

export type WebAssets = {
  dir: string;
  indexHtml: string;
  inlineScriptHashes: string[];
  index: StaticFile;
  files: ReadonlyMap<string, StaticFile>;
};

const isCopy = (name: string) => encodings.some((e) => name.endsWith(e.suffix));

/**
 * Every file of the build, found once at start: only these are ever read from disk, so a request
 * path never reaches the file system.
 */
const indexFiles = (dir: string): Map<string, StaticFile> => {
  const files = new Map<string, StaticFile>();
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  const names = new Set(entries.map((e) => path.join(e.parentPath, e.name)));
  for (const entry of entries) {
    if (!entry.isFile() || isCopy(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const urlPath = `/${path.relative(dir, file).split(path.sep).join('/')}`;
    files.set(urlPath, {
      file,
      type: getMimeType(file) ?? 'application/octet-stream',
      encoded: new Set(encodings.filter((e) => names.has(file + e.suffix)).map((e) => e.name)),
    });
  }
  return files;
};

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
  const files = indexFiles(dir);
  const index = files.get('/index.html')!;
  files.delete('/index.html');
  return { dir, indexHtml, inlineScriptHashes, index, files };
};

/** The codings an `Accept-Encoding` header allows: listed, or covered by `*`, with q > 0. */
export const acceptedEncodings = (header: string | undefined): Set<string> => {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (name === '') continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const star = weights.get('*');
  return new Set(
    encodings.map((e) => e.name).filter((name) => (weights.get(name) ?? star ?? 0) > 0),
  );
};

/**
 * Answers with the best copy the client accepts (brotli, then gzip, else the file itself). Every
 * answer of a file that has copies carries `Vary: Accept-Encoding`, so a shared cache keeps one
 * answer per encoding.
 */
const sendFile = async (c: Context<AppEnv>, asset: StaticFile, cacheControl?: string) => {
  const accepted = acceptedEncodings(c.req.header('accept-encoding'));
  const encoding = encodings.find((e) => asset.encoded.has(e.name) && accepted.has(e.name));
  const body = await readFile(encoding ? asset.file + encoding.suffix : asset.file);
  c.header('Content-Type', asset.type);
  c.header('Content-Length', String(body.byteLength));
  if (encoding) c.header('Content-Encoding', encoding.name);
  if (asset.encoded.size > 0) c.header('Vary', 'Accept-Encoding');
  if (cacheControl) c.header('Cache-Control', cacheControl);
  return c.body(body, 200);
};

const apiPrefixes = ['/auth/', '/rest/', '/functions/', '/storage/', '/realtime/', '/healthz'];

/** Vite puts a content hash in every name under /assets: such a file never changes. */
const immutable = 'public, max-age=31536000, immutable';

/**
 * Files of the build are sent compressed; hashed ones are cached forever. Every other non-API GET
 * gets index.html so the client router decides (unknown paths show the landing page, spec §2).
 */
export const mountWebApp = (app: Hono<AppEnv>, assets: WebAssets) => {
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const { path: urlPath } = c.req;
    if (apiPrefixes.some((p) => urlPath.startsWith(p))) return next();
    const asset = assets.files.get(urlPath);
    if (asset) return sendFile(c, asset, urlPath.startsWith('/assets/') ? immutable : undefined);
    // A file of another build: a plain 404, not the app's HTML under a script's name.
    if (urlPath.startsWith('/assets/')) {
      return c.json(
        errorBody(messageFor('http:not_found', { file: urlPath }), 'http:not_found'),
        404,
      );
    }
    return next();
  });
  app.get('*', (c, next) => {
    if (apiPrefixes.some((p) => c.req.path.startsWith(p))) return next();
    return sendFile(c, assets.index, 'no-cache');
  });
};
