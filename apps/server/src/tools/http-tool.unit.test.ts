import { describe, expect, it } from 'vitest';
import { OutboundRefusedError } from '../net/outbound-errors.ts';
import {
  HttpToolInputError,
  renderHttpRequest,
  urlPlaceholders,
  urlTemplateProblem,
  type HttpToolDefinition,
} from './http-tool.ts';

const weather = (over: Partial<HttpToolDefinition> = {}): HttpToolDefinition => ({
  method: 'GET',
  url_template: 'https://api.example.com/weather/{city}?units=metric',
  headers: [{ name: 'X-Client', value: 'chorus' }],
  ...over,
});

const schemaWith = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
});

describe('renderHttpRequest', () => {
  it('fills placeholders URL-encoded and sends the other input as query parameters for GET', () => {
    const request = renderHttpRequest(
      weather(),
      { city: 'São Paulo/Centro', days: 3, tags: ['a b', 'c'], empty: null },
      [],
    );
    expect(request.method).toBe('GET');
    const url = new URL(request.url);
    expect(url.pathname).toBe('/weather/S%C3%A3o%20Paulo%2FCentro');
    expect(url.searchParams.get('units')).toBe('metric');
    expect(url.searchParams.get('days')).toBe('3');
    expect(url.searchParams.getAll('tags')).toEqual(['a b', 'c']);
    expect(url.searchParams.has('empty')).toBe(false);
    expect(url.searchParams.has('city')).toBe(false);
    expect(request.body).toBeNull();
  });

  it('sends the other input as the JSON body for POST, PUT and PATCH', () => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const request = renderHttpRequest(
        weather({ method, url_template: 'https://api.example.com/items/{id}' }),
        { id: 7, title: 'Hello', tags: ['x'], nested: { a: 1 } },
        [],
      );
      expect(request.url).toBe('https://api.example.com/items/7');
      expect(JSON.parse(request.body!)).toEqual({ title: 'Hello', tags: ['x'], nested: { a: 1 } });
      expect(request.headers).toContainEqual({
        name: 'Content-Type',
        value: 'application/json',
        secret: false,
      });
    }
  });

  it('sends DELETE without a body, the rest as query parameters', () => {
    const request = renderHttpRequest(
      weather({ method: 'DELETE', url_template: 'https://api.example.com/items/{id}' }),
      { id: 'a1', force: true },
      [],
    );
    expect(request.url).toBe('https://api.example.com/items/a1?force=true');
    expect(request.body).toBeNull();
  });

  it('adds the secret headers after the plain ones, marked secret', () => {
    const request = renderHttpRequest(weather(), { city: 'Oslo' }, [
      { name: 'Authorization', value: 'Bearer s3cret-value' },
    ]);
    expect(request.headers).toEqual([
      { name: 'X-Client', value: 'chorus', secret: false },
      { name: 'Authorization', value: 'Bearer s3cret-value', secret: true },
      { name: 'Accept', value: expect.any(String), secret: false },
    ]);
  });

  it('keeps a content type or accept header the tool sets', () => {
    const request = renderHttpRequest(
      weather({
        method: 'POST',
        url_template: 'https://api.example.com/x',
        headers: [
          { name: 'content-type', value: 'application/vnd.api+json' },
          { name: 'ACCEPT', value: 'text/csv' },
        ],
      }),
      {},
      [],
    );
    expect(request.headers.map((h) => h.name)).toEqual(['content-type', 'ACCEPT']);
    expect(request.body).toBe('{}');
  });

  it('treats input as data: braces and template syntax in values are encoded, not read', () => {
    const request = renderHttpRequest(
      weather({ url_template: 'https://api.example.com/{a}/{b}' }),
      { a: '{b}', b: '${process.exit()}' },
      [],
    );
    expect(request.url).toBe('https://api.example.com/%7Bb%7D/%24%7Bprocess.exit()%7D');
  });

  it('cannot move the request to another host through a value in the path', () => {
    const request = renderHttpRequest(
      weather({ url_template: 'https://api.example.com/{path}' }),
      { path: '@evil.example/../x?y#z' },
      [],
    );
    const url = new URL(request.url);
    expect(url.hostname).toBe('api.example.com');
    expect(url.pathname).toBe('/%40evil.example%2F..%2Fx%3Fy%23z');
  });

  it('refuses a placeholder without a value, naming it', () => {
    expect(() => renderHttpRequest(weather(), {}, [])).toThrow(HttpToolInputError);
    expect(() => renderHttpRequest(weather(), { city: null }, [])).toThrow(
      'Give a value for "city": the URL needs it.',
    );
  });

  it('refuses a filled URL that Chorus does not fetch', () => {
    expect(() =>
      renderHttpRequest(weather({ url_template: 'https://{host}/x' }), { host: 'a b' }, []),
    ).toThrow(OutboundRefusedError);
  });
});

describe('urlTemplateProblem', () => {
  it('accepts http(s) templates whose placeholders are input properties', () => {
    expect(urlTemplateProblem('https://api.example.com/{city}', schemaWith('city'))).toBe(
      undefined,
    );
    expect(urlTemplateProblem('http://{sub}.example.com/', schemaWith('sub'))).toBe(undefined);
    expect(urlTemplateProblem('https://api.example.com/', { type: 'object' })).toBe(undefined);
  });

  it('names a placeholder the input schema lacks', () => {
    expect(urlTemplateProblem('https://api.example.com/{town}', schemaWith('city'))).toContain(
      '{town}',
    );
    expect(urlTemplateProblem('https://api.example.com/{toString}', { type: 'object' })).toContain(
      '{toString}',
    );
  });

  it('refuses other schemes, a template that is all placeholder, and stray braces', () => {
    expect(urlTemplateProblem('ftp://example.com/{a}', schemaWith('a'))).toBeDefined();
    expect(urlTemplateProblem('{base}/path', schemaWith('base'))).toBeDefined();
    expect(urlTemplateProblem('https://example.com/{a-b}', schemaWith('a-b'))).toBeDefined();
    expect(urlTemplateProblem('https://user:pw@example.com/', { type: 'object' })).toBeDefined();
  });

  it('lists each placeholder once', () => {
    expect(urlPlaceholders('https://x.example/{a}/{b}/{a}')).toEqual(['a', 'b']);
  });
});
