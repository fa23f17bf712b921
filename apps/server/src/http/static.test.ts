import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { loadWebAssets } from './static.ts';

const script = 'export const greeting = "Hello from Chorus";\n'.repeat(200);
const indexHtml = [
  '<!doctype html><html><head>',
  "<script>document.documentElement.classList.add('light');</script>",
  '<script type="module" src="/assets/index-a1b2c3.js"></script>',
  `</head><body><div id="root"></div>${'<!-- padding -->'.repeat(40)}</body></html>`,
].join('');
const font = Buffer.from([0x77, 0x4f, 0x46, 0x32, 1, 2, 3, 4]);

/** A built web app as apps/web's build leaves it: files, and brotli and gzip copies beside them. */
const writeDist = (dir: string) => {
  const put = (name: string, body: string | Buffer, copies = true) => {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, body);
    if (!copies) return;
    writeFileSync(`${file}.br`, brotliCompressSync(body));
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  };
  put('index.html', indexHtml);
  put('assets/index-a1b2c3.js', script);
  put('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>'.repeat(10));
  // Compressed already: the build writes no copies.
  put('assets/font-d4e5f6.woff2', font, false);
};

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'chorus-web-dist-'));
  writeDist(dist);
  t = await startTestApp({ web: loadWebAssets(dist)! });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, method = 'GET') =>
  t.app.request(url, {
    method,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('static files of the web app', () => {
  it('sends brotli when the browser accepts it, with the headers of a hashed file', async () => {
    const res = await get('/assets/index-a1b2c3.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await bytes(res);
    expect(res.headers.get('content-length')).toBe(String(body.byteLength));
    expect(body.byteLength).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(body).toString()).toBe(script);
  });

  it('sends gzip when brotli is not accepted', async () => {
    for (const accept of ['gzip', 'gzip, br;q=0', 'deflate, gzip;q=0.5']) {
      const res = await get('/assets/index-a1b2c3.js', accept);
      expect(res.headers.get('content-encoding'), accept).toBe('gzip');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      const body = await bytes(res);
      expect(res.headers.get('content-length')).toBe(String(body.byteLength));
      expect(gunzipSync(body).toString()).toBe(script);
    }
  });

  it('sends the file as it is when the browser accepts neither', async () => {
    for (const accept of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await get('/assets/index-a1b2c3.js', accept);
      expect(res.headers.get('content-encoding'), accept).toBeNull();
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(script)));
      expect((await bytes(res)).toString()).toBe(script);
    }
  });

  it('sends a file that has no compressed copies as it is, without Vary', async () => {
    const res = await get('/assets/font-d4e5f6.woff2', 'br, gzip');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toBeNull();
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect(res.headers.get('content-length')).toBe(String(font.byteLength));
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await bytes(res)).toEqual(font);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const full = await get('/assets/index-a1b2c3.js', 'br');
    const head = await get('/assets/index-a1b2c3.js', 'br', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(head.headers.get('content-length')).toBe(full.headers.get('content-length'));
    expect((await bytes(head)).byteLength).toBe(0);
  });

  it('compresses files outside /assets without caching them forever', async () => {
    const res = await get('/favicon.svg', 'br');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBeNull();
  });

  it('answers a missing hashed file with 404, not with the app', async () => {
    const res = await get('/assets/index-000000.js', 'br');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });
});

describe('index.html', () => {
  it('is sent compressed and never cached, for /, a page, an unknown path and itself', async () => {
    for (const url of ['/', '/chat', '/no/such/page', '/index.html']) {
      const res = await get(url, 'gzip, deflate, br');
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const body = await bytes(res);
      expect(res.headers.get('content-length')).toBe(String(body.byteLength));
      expect(brotliDecompressSync(body).toString()).toBe(indexHtml);
    }
    const gzipped = await get('/chat', 'gzip');
    expect(gunzipSync(await bytes(gzipped)).toString()).toBe(indexHtml);
    const plain = await get('/chat');
    expect(await plain.text()).toBe(indexHtml);
  });

  it('leaves the API its own answers', async () => {
    const res = await get('/rest/v1/no-such-thing', 'br');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(((await res.json()) as { code: string }).code).toBe('http:not_found');
  });
});
