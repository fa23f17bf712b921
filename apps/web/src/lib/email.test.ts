import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailMessages } from '@chorus/shared/email';
import { emailRequestProblem, sendEmail, sendTestRunNotification } from './email';

afterEach(() => vi.unstubAllGlobals());

const request = { to: 'ann@example.com', subject: 'Hi', html: '<p>Hi</p>' };

describe('emailRequestProblem', () => {
  it.each([
    [{ ...request, to: '' }],
    [{ ...request, to: [] }],
    [{ ...request, subject: ' ' }],
    [{ ...request, html: undefined }],
  ])('reports missing information for %j', (r) => {
    expect(emailRequestProblem(r)).toBe('Cannot send email - missing required information');
  });

  it('reports an invalid address, also inside a list', () => {
    expect(emailRequestProblem({ ...request, to: 'ann@example' })).toBe(
      'Cannot send email - invalid email address',
    );
    expect(emailRequestProblem({ ...request, to: ['ann@example.com', 'b c@d.e'] })).toBe(
      emailMessages.invalidAddress,
    );
  });

  it('accepts a template request without html', () => {
    expect(emailRequestProblem({ to: 'ann@example.com', subject: 'Run', type: 'test_run' })).toBe(
      null,
    );
  });
});

describe('sendEmail', () => {
  it('never calls the server for a request it can tell is wrong', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    await expect(sendEmail({ ...request, to: 'nope' })).rejects.toThrow(
      emailMessages.invalidAddress,
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('wraps the server’s message as an email service error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: 'Too busy', code: 'x' }, { status: 403 })),
    );
    await expect(sendEmail(request)).rejects.toThrow('Email service error: Too busy');
  });

  it('reports an unknown error when the call fails without an answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(sendEmail(request)).rejects.toThrow('Unknown error from edge function');
  });

  it('posts the payload and returns the answer', async () => {
    const fetchSpy = vi.fn(async () => Response.json({ success: true, id: 'm1', status: 'sent' }));
    vi.stubGlobal('fetch', fetchSpy);
    await expect(sendEmail(request)).resolves.toEqual({ success: true, id: 'm1', status: 'sent' });
    expect(fetchSpy).toHaveBeenCalledWith(
      '/functions/v1/send-email',
      expect.objectContaining({ method: 'POST', body: JSON.stringify(request) }),
    );
  });
});

describe('sendTestRunNotification', () => {
  it('answers with the success message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ success: true, id: 'm2', status: 'sent' })),
    );
    await expect(
      sendTestRunNotification({ to: 'ann@example.com', runName: 'Nightly' }),
    ).resolves.toEqual({ ok: true, message: 'Test run notification sent successfully' });
  });

  it('answers with the failure and its reason', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: 'Missing required data' }, { status: 400 })),
    );
    await expect(
      sendTestRunNotification({ to: 'ann@example.com', runName: 'Nightly' }),
    ).resolves.toEqual({
      ok: false,
      message: 'Failed to send test run notification: Email service error: Missing required data',
    });
    await expect(sendTestRunNotification({ to: 'bad', runName: 'Nightly' })).resolves.toEqual({
      ok: false,
      message: 'Failed to send test run notification: Cannot send email - invalid email address',
    });
  });
});
