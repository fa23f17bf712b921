import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupTable } from '../../net/lookup-table.ts';
import { startLoopbackServer, type LoopbackServer } from '../../net/loopback-server.ts';
import { builtinTools } from './builtin-tools.ts';
import { webFetch, webFetchLimits, type WebPage } from './web-fetch.ts';

// Pages are served from 127.0.0.1 and reached through the admin allow-list, so no request
// leaves the loopback interface (ARCHITECTURE §11).

const words = (sentence: string) => `${sentence} ${'Foxes are curious animals. '.repeat(10)}`;

const articlePage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Fox facts</title>
<script>document.cookie = "stolen=" + localStorage.token;</script>
<style>.ad { display: block }</style></head>
<body>
  <nav><a href="/">Home</a> · <a href="/shop">Shop</a></nav>
  <article>
    <h1>All about foxes</h1>
    <p>${words('Red foxes live almost everywhere.')}</p>
    <script>alert("pwned")</script>
    <p>See <a href="/foxes/arctic">the arctic fox</a>.</p>
    <p>${words('Arctic foxes change colour.')}</p>
  </article>
</body></html>`;

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer((req, res) => {
    switch (req.url) {
      case '/article':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(articlePage);
      case '/latin1':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end(
          Buffer.from(
            '<html><head><meta charset="iso-8859-1"></head><body><p>Café</p></body></html>',
            'latin1',
          ),
        );
      case '/notes.txt':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end('Plain notes <b>not html</b>');
      case '/long':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end('a'.repeat(webFetchLimits.characters + 5_000));
      case '/report.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return void res.end('%PDF-1.7');
      case '/to-loopback':
        res.writeHead(302, { location: `http://127.0.0.1:${server.port}/article` });
        return void res.end();
      default:
        res.writeHead(404, { 'content-type': 'text/html' });
        return void res.end('<h1>Not found</h1>');
    }
  });
});

afterAll(() => server.close());

const allowed = { allow: { hosts: ['127.0.0.1'] } };
const page = (path: string) => `http://127.0.0.1:${server.port}${path}`;

const fetched = async (path: string) => {
  const answer = await webFetch({ url: page(path) }, allowed);
  if ('error' in answer) throw new Error(`expected a page: ${answer.error}`);
  return answer as WebPage;
};

describe('web_fetch', () => {
  it('turns an HTML page into Markdown without its scripts, styles or navigation', async () => {
    const result = await fetched('/article');
    expect(result).toMatchObject({
      url: page('/article'),
      title: 'Fox facts',
      content_type: 'text/html',
      truncated: false,
    });
    expect(result.content).toContain('Red foxes live almost everywhere.');
    expect(result.content).toContain(`[the arctic fox](${page('/foxes/arctic')})`);
    expect(result.content).not.toMatch(/alert|pwned|document\.cookie|localStorage|display: block/);
    expect(result.content).not.toContain('Shop');
  });

  it('decodes a page in the charset it declares', async () => {
    expect((await fetched('/latin1')).content).toBe('Café');
  });

  it('returns other text as it is', async () => {
    expect(await fetched('/notes.txt')).toMatchObject({
      content_type: 'text/plain',
      content: 'Plain notes <b>not html</b>',
    });
  });

  it('cuts a long page at 20,000 characters with a marker', async () => {
    const result = await fetched('/long');
    expect(result.truncated).toBe(true);
    expect(result.content.startsWith('a'.repeat(webFetchLimits.characters))).toBe(true);
    expect(result.content).toMatch(/\[… cut here: the page goes on past 20,000 characters\]$/);
  });

  it('refuses other kinds of file by their type', async () => {
    expect(await webFetch({ url: page('/report.pdf') }, allowed)).toEqual({
      error: `${page('/report.pdf')} is a application/pdf file. Web fetch reads web pages and text only, not other kinds of files.`,
    });
  });

  it('answers an error status as an error the model can read', async () => {
    expect(await webFetch({ url: page('/missing') }, allowed)).toEqual({
      error: `${page('/missing')} answered with HTTP status 404, so there is no page to read. Check the address.`,
    });
  });

  it('answers a refused address as a tool error, not a throw, and sends nothing', async () => {
    const before = server.received.length;
    expect(await webFetch({ url: page('/article') })).toEqual({
      error:
        'Chorus does not fetch private or local addresses (127.0.0.1). Use a public address, or ask an admin to allow this host.',
    });
    expect(await webFetch({ url: 'file:///etc/passwd' })).toEqual({
      error: 'Chorus fetches only http and https URLs, not file.',
    });
    expect(server.received.length).toBe(before);
  });

  it('refuses a redirect from an allowed host to a refused one', async () => {
    const answer = await webFetch(
      { url: `http://allowed.test:${server.port}/to-loopback` },
      {
        allow: { hosts: ['allowed.test'] },
        lookup: lookupTable({ 'allowed.test': '127.0.0.1' }),
      },
    );
    expect(answer).toEqual({
      error:
        'Chorus does not fetch private or local addresses (127.0.0.1, reached through a redirect). Use a public address, or ask an admin to allow this host.',
    });
  });

  it('runs as the web_fetch tool of the built-in set', async () => {
    const tools = builtinTools({ outbound: allowed });
    expect(Object.keys(tools)).toEqual(['calculator', 'current_datetime', 'web_fetch']);
    const answer = (await tools.web_fetch.execute!(
      { url: page('/article') },
      { toolCallId: 'call-1', messages: [], context: {} },
    )) as WebPage;
    expect(answer.title).toBe('Fox facts');
    const refused = await builtinTools().web_fetch.execute!(
      { url: page('/article') },
      { toolCallId: 'call-2', messages: [], context: {} },
    );
    expect(refused).toHaveProperty('error');
  });
});
