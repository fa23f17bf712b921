import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientErrorReportSchema } from '@chorus/shared/api/client-errors';
import { clientErrorMaxBytes } from '@chorus/shared/limits';
import { ErrorReporter, shapeReport } from './error-reporter';

describe('the error reporter', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('posts a report to /rest/v1/client-errors and remembers its receipt', async () => {
    const fetchSpy = vi.fn<typeof fetch>(async () => Response.json({ id: 'r1' }, { status: 201 }));
    vi.stubGlobal('fetch', fetchSpy);
    const reporter = new ErrorReporter();
    stop = reporter.install();
    expect(await reporter.report('request', new Error('404 Not Found'), { status: 404 })).toEqual({
      state: 'reported',
      id: 'r1',
    });
    const [path, init] = fetchSpy.mock.calls[0]!;
    expect(path).toBe('/rest/v1/client-errors');
    const body: unknown = JSON.parse(String(init?.body));
    expect(clientErrorReportSchema.parse(body)).toMatchObject({
      kind: 'request',
      message: '404 Not Found',
      details: { status: 404 },
    });
    expect(reporter.snapshot()).toMatchObject([{ kind: 'request', state: 'reported', id: 'r1' }]);
  });

  it('reports unhandled rejections from the window', async () => {
    const fetchSpy = vi.fn<typeof fetch>(async () => Response.json({ id: 'r2' }, { status: 201 }));
    vi.stubGlobal('fetch', fetchSpy);
    const reporter = new ErrorReporter();
    stop = reporter.install();
    const event = new Event('unhandledrejection') as Event & { reason: unknown };
    event.reason = new Error('async boom');
    window.dispatchEvent(event);
    await vi.waitFor(() => expect(reporter.snapshot()[0]?.state).toBe('reported'));
    expect(reporter.snapshot()[0]).toMatchObject({ kind: 'async', message: 'async boom' });
  });

  it('keeps a failed report to itself', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => new Response('', { status: 413 })),
    );
    const reporter = new ErrorReporter();
    stop = reporter.install();
    expect(await reporter.report('other', 'x')).toMatchObject({ state: 'failed' });
  });

  it('does nothing until installed', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchSpy);
    await new ErrorReporter().report('render', new Error('x'));
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('fits a report within the server’s byte cap', () => {
    const shaped = shapeReport({
      kind: 'render',
      message: 'm'.repeat(5000),
      stack: 's'.repeat(20_000),
      details: { big: 'd'.repeat(20_000) },
    });
    expect(new TextEncoder().encode(JSON.stringify(shaped)).length).toBeLessThanOrEqual(
      clientErrorMaxBytes,
    );
    expect(clientErrorReportSchema.safeParse(shaped).success).toBe(true);
  });
});
