import { describe, expect, it, vi } from 'vitest';
import { exportConversation, fileNameFromDisposition } from './export-conversation';

const conversation = { id: '0b9f6a4e-6f0e-4a53-9d0c-1b7c2f0e2a11', title: 'Trip: "Lisbon"' };

describe('exporting a conversation', () => {
  it('reads the file name the server gave, the UTF-8 one first', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="Caf_ plans.md"; filename*=UTF-8''Caf%C3%A9%20plans.md`,
      ),
    ).toBe('Café plans.md');
    expect(fileNameFromDisposition('attachment; filename="Plans.json"')).toBe('Plans.json');
    expect(fileNameFromDisposition(null)).toBeNull();
  });

  it('fetches the file through the API client and hands it to the browser as a download', async () => {
    const fetch = vi.fn(
      async (_input: RequestInfo | URL, _init?: RequestInit) =>
        new Response('# Trip\n', {
          headers: {
            'content-type': 'text/markdown; charset=utf-8',
            'content-disposition': `attachment; filename="Trip Lisbon.md"; filename*=UTF-8''Trip%20Lisbon.md`,
          },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.href, download: this.download });
    });

    await expect(exportConversation(conversation, 'markdown')).resolves.toBe('Trip Lisbon.md');

    expect(String(fetch.mock.calls[0]?.[0])).toBe(
      `/rest/v1/conversations/${conversation.id}/export?format=markdown`,
    );
    expect(fetch.mock.calls[0]?.[1]?.credentials).toBe('include');
    expect(await (createObjectURL.mock.calls[0]?.[0] as Blob).text()).toBe('# Trip\n');
    expect(clicked).toEqual([{ href: 'blob:export', download: 'Trip Lisbon.md' }]);
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('fails with the server’s message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ code: 'conversations:not_found', error: 'No such conversation.' }),
            { status: 404, headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    await expect(exportConversation(conversation, 'json')).rejects.toThrow('No such conversation.');
  });
});
