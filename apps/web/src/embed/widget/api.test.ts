import { describe, expect, it, vi } from 'vitest';
import {
  callWidgetApi,
  errorFromBody,
  fallbackMessages,
  isSessionInvalid,
  WidgetError,
} from './api';

const options = { publicId: 'wgt_AbCdEfGhIjKlMnOpQrSt', embedder: 'https://shop.example' };

describe('errorFromBody', () => {
  it("shows the server's message and keeps its code", () => {
    const error = errorFromBody(429, { error: 'Slow down, please.', code: 'widgets:rate_limited' });
    expect(error).toMatchObject({
      status: 429,
      code: 'widgets:rate_limited',
      message: 'Slow down, please.',
    });
    expect(errorFromBody(403, { error: { code: 'a:b', message: 'Nested.' } })).toMatchObject({
      code: 'a:b',
      message: 'Nested.',
    });
  });

  it('has a message of its own for a body without one', () => {
    expect(errorFromBody(502, '<html>Bad gateway</html>').message).toBe(fallbackMessages.server);
    expect(errorFromBody(404, null).message).toBe(fallbackMessages.unavailable);
    expect(errorFromBody(429, {}).message).toBe(fallbackMessages.rateLimited);
    expect(errorFromBody(400, { error: '  ' }).message).toBe(fallbackMessages.failed);
  });
});

describe('isSessionInvalid', () => {
  it('is true for a 401 widgets:session_invalid only', () => {
    expect(isSessionInvalid(new WidgetError(401, 'widgets:session_invalid', ''))).toBe(true);
    expect(isSessionInvalid(new WidgetError(401, 'widgets:bad_visitor_token', ''))).toBe(false);
    expect(isSessionInvalid(new Error('x'))).toBe(false);
  });
});

describe('callWidgetApi', () => {
  it('calls without cookies, with the session and the host page origin', async () => {
    vi.mocked(fetch).mockResolvedValue(new Response('{}', { status: 200 }));
    await callWidgetApi(options, '/chat', { session: 's3cret', body: { message: 'Hi' } });
    expect(fetch).toHaveBeenCalledWith(`/widget/v1/${options.publicId}/chat`, {
      method: 'POST',
      credentials: 'omit',
      headers: {
        Accept: 'application/json',
        Authorization: 'Bearer s3cret',
        'Content-Type': 'application/json',
        'X-Chorus-Embedder': 'https://shop.example',
      },
      body: '{"message":"Hi"}',
    });
  });

  it('turns a failed answer or no answer into a WidgetError', async () => {
    vi.mocked(fetch).mockResolvedValue(
      new Response(JSON.stringify({ error: 'Gone.', code: 'widgets:unavailable' }), {
        status: 404,
      }),
    );
    await expect(callWidgetApi(options, '/config', {})).rejects.toMatchObject({
      status: 404,
      code: 'widgets:unavailable',
      message: 'Gone.',
    });
    vi.mocked(fetch).mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(callWidgetApi(options, '/config', {})).rejects.toMatchObject({
      status: 0,
      message: fallbackMessages.network,
    });
  });
});
