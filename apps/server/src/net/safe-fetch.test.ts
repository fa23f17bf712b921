import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupTable } from './lookup-table.ts';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.ts';
import { OutboundError, OutboundRefusedError, OutboundTimeoutError } from './outbound-errors.ts';
import { safeFetch } from './safe-fetch.ts';

// Every request here goes to 127.0.0.1 (ARCHITECTURE §11): the refusals are proved against the
// local server, which records what reached it, and names resolve through a fixed table that
// knows nothing but loopback addresses.

let server: LoopbackServer;
const big = 'x'.repeat(10_000);

beforeAll(async () => {
  server = await startLoopbackServer((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const hop = /^\/hops\/(\d+)$/.exec(url.pathname);
    if (hop) {
      const left = Number(hop[1]);
      if (left === 0) return void res.end('arrived');
      res.writeHead(302, { location: `/hops/${left - 1}` });
      return void res.end();
    }
    switch (url.pathname) {
      case '/':
        res.writeHead(200, { 'content-type': 'text/plain', 'x-answer': '42' });
        return void res.end('hello from loopback');
      case '/big':
        return void res.end(big);
      case '/gzip':
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
        return void res.end(gzipSync(big));
      case '/hang':
        return; // never answers
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.write('first part, then nothing');
      case '/echo':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
      case '/redirect':
        res.writeHead(Number(url.searchParams.get('status') ?? 302), {
          location: url.searchParams.get('to') ?? '/',
        });
        return void res.end();
      case '/not-found':
        res.writeHead(404, { 'content-type': 'text/plain' });
        return void res.end('no such page');
      default:
        res.writeHead(500);
        return void res.end();
    }
  });
});

afterAll(() => server.close());

const allowLoopback = { hosts: ['127.0.0.1'] };

/** How many requests reached the local server while `run` ran. */
const arrivals = async (run: () => Promise<unknown>) => {
  const before = server.received.length;
  await run().catch(() => undefined);
  return server.received.length - before;
};

const refusalOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefusedError);
  return error as OutboundRefusedError;
};

describe('safeFetch refuses private and local addresses', () => {
  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/`],
    ['127.0.0.1', (port: number) => `http://127.1:${port}/`],
    ['127.0.0.1', (port: number) => `http://0x7f000001:${port}/`],
    ['127.0.0.1', (port: number) => `http://2130706433:${port}/`],
    ['::1', (port: number) => `http://[::1]:${port}/`],
    ['::ffff:7f00:1', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
  ])('refuses %s written as %s, and sends nothing', async (address, urlFor) => {
    const url = urlFor(server.port);
    let error: OutboundRefusedError | undefined;
    const reached = await arrivals(async () => {
      error = await refusalOf(safeFetch(url));
    });
    expect(reached).toBe(0);
    expect(error!.code).toBe('outbound:refused');
    expect(error!.message).toBe(
      `Chorus does not fetch private or local addresses (${address}). Use a public address, or ask an admin to allow this host.`,
    );
  });

  it('checks the address a name resolves to when the socket connects (DNS rebinding)', async () => {
    const asked: string[] = [];
    const table = lookupTable({ 'rebind.test': '127.0.0.1' });
    const lookup: typeof table = (hostname, options, callback) => {
      asked.push(hostname);
      table(hostname, options, callback);
    };
    let error: OutboundRefusedError | undefined;
    const reached = await arrivals(async () => {
      error = await refusalOf(safeFetch(`http://rebind.test:${server.port}/`, { lookup }));
    });
    expect(reached).toBe(0);
    // Resolved once, by the connection itself: there is no earlier lookup a rebinding answer
    // could pass and a later one it could change.
    expect(asked).toEqual(['rebind.test']);
    expect(error!.reason).toBe('loopback');
    expect(error!.message).toContain('(127.0.0.1)');
  });

  it('refuses a name when any of its addresses is private', async () => {
    const lookup = lookupTable({ 'mixed.test': ['127.0.0.2', '::1'], 'v6.test': '::1' });
    await refusalOf(safeFetch(`http://mixed.test:${server.port}/`, { lookup }));
    const error = await refusalOf(safeFetch(`http://v6.test:${server.port}/`, { lookup }));
    expect(error.message).toContain('(::1)');
  });

  it('refuses other schemes and URLs with credentials before connecting', async () => {
    const ftp = await refusalOf(safeFetch(`ftp://127.0.0.1:${server.port}/`));
    expect(ftp.reason).toBe('scheme');
    const secret = await refusalOf(
      safeFetch(`http://admin:hunter2@127.0.0.1:${server.port}/`, { allow: allowLoopback }),
    );
    expect(secret.reason).toBe('credentials');
    expect(secret.message).not.toContain('hunter2');
  });

  it('keeps the request headers out of a refusal', async () => {
    const error = await refusalOf(
      safeFetch(`http://127.0.0.1:${server.port}/`, {
        headers: { authorization: 'Bearer sk-very-secret' },
      }),
    );
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(
      'sk-very-secret',
    );
  });
});

describe('safeFetch to a host the admin allowed', () => {
  it('fetches it, with status, headers, final URL and body', async () => {
    const response = await safeFetch(`http://127.0.0.1:${server.port}/`, { allow: allowLoopback });
    expect(response).toMatchObject({
      status: 200,
      url: `http://127.0.0.1:${server.port}/`,
      truncated: false,
      redirects: [],
    });
    expect(response.headers['x-answer']).toBe('42');
    expect(Buffer.from(response.body).toString()).toBe('hello from loopback');
  });

  it('allows a host by name, resolved through the lookup', async () => {
    const response = await safeFetch(`http://allowed.test:${server.port}/`, {
      allow: { hosts: ['allowed.test'] },
      lookup: lookupTable({ 'allowed.test': '127.0.0.1' }),
    });
    expect(Buffer.from(response.body).toString()).toBe('hello from loopback');
  });

  it('answers an HTTP error status as a response, not a throw', async () => {
    const response = await safeFetch(`http://127.0.0.1:${server.port}/not-found`, {
      allow: allowLoopback,
    });
    expect(response.status).toBe(404);
  });

  it('stops reading at the size cap and says the body was cut', async () => {
    const url = `http://127.0.0.1:${server.port}/big`;
    const cut = await safeFetch(url, { allow: allowLoopback, maxBytes: 1_000 });
    expect(cut.body.length).toBe(1_000);
    expect(cut.truncated).toBe(true);
    const whole = await safeFetch(url, { allow: allowLoopback });
    expect(whole.body.length).toBe(big.length);
    expect(whole.truncated).toBe(false);
  });

  it('decompresses a gzip body, the cap counting the decompressed bytes', async () => {
    const url = `http://127.0.0.1:${server.port}/gzip`;
    const whole = await safeFetch(url, { allow: allowLoopback });
    expect(Buffer.from(whole.body).toString()).toBe(big);
    expect(whole.headers['content-encoding']).toBeUndefined();
    const cut = await safeFetch(url, { allow: allowLoopback, maxBytes: 500 });
    expect(cut).toMatchObject({ truncated: true });
    expect(cut.body.length).toBe(500);
  });

  it('gives up with a typed timeout when no answer comes, or the body stalls', async () => {
    for (const path of ['/hang', '/slow-body']) {
      const error = await safeFetch(`http://127.0.0.1:${server.port}${path}`, {
        allow: allowLoopback,
        timeoutMs: 200,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboundTimeoutError);
      expect((error as OutboundTimeoutError).message).toBe(
        'The site did not answer within 0.2 seconds. Try again later, or try another address.',
      );
    }
  });

  it('stops when the caller aborts, with the caller’s reason', async () => {
    const controller = new AbortController();
    const pending = safeFetch(`http://127.0.0.1:${server.port}/hang`, {
      allow: allowLoopback,
      signal: controller.signal,
    });
    const reason = new Error('run cancelled');
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });

  it('names a host that refuses the connection, without a stack', async () => {
    const closed = await startLoopbackServer(() => undefined);
    await closed.close();
    const error = await safeFetch(`http://127.0.0.1:${closed.port}/`, {
      allow: allowLoopback,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).message).toBe(
      '127.0.0.1 refused the connection. Check the address and try again.',
    );
  });

  it('names a host that does not exist', async () => {
    const error = await safeFetch('http://nowhere.test/', {
      lookup: lookupTable({}),
    }).catch((e: unknown) => e);
    expect((error as OutboundError).message).toBe(
      'The host nowhere.test was not found. Check the address and try again.',
    );
  });

  it('refuses a header HTTP does not allow without quoting it', async () => {
    const error = await safeFetch(`http://127.0.0.1:${server.port}/`, {
      allow: allowLoopback,
      headers: { 'x-key': 'secret\r\nInjected: yes' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).message).not.toContain('secret');
  });
});

describe('safeFetch and redirects', () => {
  it('follows redirects and lists each hop', async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    const response = await safeFetch(`${origin}/hops/3`, { allow: allowLoopback });
    expect(Buffer.from(response.body).toString()).toBe('arrived');
    expect(response.url).toBe(`${origin}/hops/0`);
    expect(response.redirects).toEqual([
      `${origin}/hops/2`,
      `${origin}/hops/1`,
      `${origin}/hops/0`,
    ]);
  });

  it('stops after the redirect limit', async () => {
    const error = await safeFetch(`http://127.0.0.1:${server.port}/hops/3`, {
      allow: allowLoopback,
      maxRedirects: 2,
    }).catch((e: unknown) => e);
    expect((error as OutboundError).code).toBe('outbound:too_many_redirects');
  });

  it('checks every hop: an allowed host that redirects to a refused one is refused there', async () => {
    const target = `http://127.0.0.1:${server.port}/`;
    let error: OutboundRefusedError | undefined;
    const reached = await arrivals(async () => {
      error = await refusalOf(
        safeFetch(`http://allowed.test:${server.port}/redirect?to=${encodeURIComponent(target)}`, {
          allow: { hosts: ['allowed.test'] },
          lookup: lookupTable({ 'allowed.test': '127.0.0.1' }),
        }),
      );
    });
    expect(reached).toBe(1); // the redirect itself; the loopback target never
    expect(error!.message).toBe(
      'Chorus does not fetch private or local addresses (127.0.0.1, reached through a redirect). Use a public address, or ask an admin to allow this host.',
    );
  });

  it('refuses a redirect to another scheme', async () => {
    const error = await refusalOf(
      safeFetch(`http://127.0.0.1:${server.port}/redirect?to=file:///etc/passwd`, {
        allow: allowLoopback,
      }),
    );
    expect(error.reason).toBe('scheme');
  });

  it('turns a POST into a GET on 303 and keeps it on 307', async () => {
    const post = (status: number) =>
      safeFetch(`http://127.0.0.1:${server.port}/redirect?status=${status}&to=/echo`, {
        allow: allowLoopback,
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'payload',
      }).then((r) => JSON.parse(Buffer.from(r.body).toString()));
    expect(await post(303)).toMatchObject({ method: 'GET', body: '' });
    expect(await post(307)).toMatchObject({ method: 'POST', body: 'payload' });
  });

  it('drops secret headers when a redirect leads to another origin, and keeps them within one', async () => {
    const lookup = lookupTable({ 'other.test': '127.0.0.1' });
    const allow = { hosts: ['127.0.0.1', 'other.test'] };
    const headers = { authorization: 'Bearer sk-secret', 'x-api-key': 'k', accept: 'text/plain' };
    const via = async (to: string) => {
      const response = await safeFetch(
        `http://127.0.0.1:${server.port}/redirect?to=${encodeURIComponent(to)}`,
        { allow, lookup, headers },
      );
      return JSON.parse(Buffer.from(response.body).toString()).headers as Record<string, string>;
    };
    const sameOrigin = await via('/echo');
    expect(sameOrigin).toMatchObject({ authorization: 'Bearer sk-secret', 'x-api-key': 'k' });
    const otherOrigin = await via(`http://other.test:${server.port}/echo`);
    expect(otherOrigin.authorization).toBeUndefined();
    expect(otherOrigin['x-api-key']).toBeUndefined();
    expect(otherOrigin.accept).toBe('text/plain');
  });
});
