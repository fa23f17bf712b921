import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Context, Hono } from 'hono';
import { widgetPublicIdPattern } from '@chorus/shared/api/widgets';
import type { AppEnv } from '../http/app-env.ts';
import { acceptedEncodings, type WebAssets } from '../http/static.ts';
import { frameAncestors } from './origins.ts';
import { findWidget } from './store.ts';

/**
 * The widget's own entry (issue 21): `/embed/{publicId}`, the iframe's page, and `/embed.js`, the
 * loader host pages include. They are mounted before the app's security headers, which would
 * otherwise add `frame-ancestors 'self'` and `X-Frame-Options`: each answer here sets its own.
 */

type EmbedPage = { html: string; scriptHashes: string[] };

/** Shown in the iframe when the web app was not built (a development run of the server alone). */
const notBuiltPage: EmbedPage = {
  html: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Chat</title></head>
<body style="font-family:system-ui,sans-serif;margin:0;padding:16px;color:#374151">
<p>This chat widget is not built on this server. Run <code>npm run build</code>, then reload.</p>
</body>
</html>
`,
  scriptHashes: [],
};

/** The page's inline scripts, hashed for its CSP (the build normally has none). */
const inlineScriptHashes = (html: string) =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1] ?? '')
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);

const loadEmbedPage = (web: WebAssets | null): EmbedPage => {
  const file = web?.files.get('/embed.html');
  if (!file) return notBuiltPage;
  const html = readFileSync(file.file, 'utf8');
  return { html, scriptHashes: inlineScriptHashes(html) };
};

/** The embed page's policy: the widget's own origins may frame it, and it talks to us alone. */
export const embedPolicy = (allowedOrigins: readonly string[], scriptHashes: readonly string[]) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "object-src 'none'",
    `frame-ancestors ${frameAncestors(allowedOrigins).join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

/** What both answers carry in place of the app-wide security headers. */
const commonHeaders = (c: Context<AppEnv>) => {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  c.header('X-Robots-Tag', 'noindex, nofollow');
  if (c.var.deps.config.appUrl.startsWith('https://')) {
    c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  }
};

export const mountWidgetPages = (app: Hono<AppEnv>, web: WebAssets | null) => {
  const page = loadEmbedPage(web);
  const loader = web?.files.get('/embed.js');

  app.get('/embed.js', async (c) => {
    commonHeaders(c);
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    c.header('Access-Control-Allow-Origin', '*');
    if (!loader) {
      c.header('Content-Type', 'text/javascript; charset=utf-8');
      c.header('Cache-Control', 'no-store');
      return c.body('/* The Chorus chat widget is not built on this server. */\n', 404);
    }
    const accepted = acceptedEncodings(c.req.header('accept-encoding'));
    const encoding = (['br', 'gzip'] as const).find(
      (e) => loader.encoded.has(e) && accepted.has(e),
    );
    const body = await readFile(
      encoding ? `${loader.file}${encoding === 'br' ? '.br' : '.gz'}` : loader.file,
    );
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Content-Length', String(body.byteLength));
    if (encoding) c.header('Content-Encoding', encoding);
    if (loader.encoded.size > 0) c.header('Vary', 'Accept-Encoding');
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(body, 200);
  });

  // One page for every id: an unknown, switched-off or removed widget shows 'unavailable' in it.
  app.get('/embed/:publicId', async (c) => {
    const publicId = c.req.param('publicId');
    const widget = widgetPublicIdPattern.test(publicId)
      ? await findWidget(c.var.deps.database.db, publicId)
      : null;
    commonHeaders(c);
    c.header(
      'Content-Security-Policy',
      embedPolicy(widget?.allowed_origins ?? [], page.scriptHashes),
    );
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    c.header('Cache-Control', 'no-store');
    return c.html(page.html, 200);
  });
};
