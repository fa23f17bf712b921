import { render } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeLayout } from '@/test/fake-layout';
import { MessageList } from './message-list';

type Row = { id: string; text: string };

beforeEach(() => fakeLayout({ viewportPx: 600, rowPx: 80 }));

const makeRows = (count: number): Row[] =>
  Array.from({ length: count }, (_, index) => ({ id: `m${index}`, text: `Message ${index}` }));

describe('the virtual message list', () => {
  it('mounts only a bounded number of rows for a 2,000-message conversation', () => {
    const rows = makeRows(2000);
    const started = performance.now();
    const { container } = render(
      <MessageList rows={rows} renderRow={(row) => <p>{row.text}</p>} />,
    );
    const elapsed = performance.now() - started;
    const mounted = container.querySelectorAll('[data-index]');
    expect(mounted.length).toBeGreaterThan(0);
    // A 600 px viewport holds 8 rows of 80 px; with overscan the DOM stays far below 2,000.
    expect(mounted.length).toBeLessThanOrEqual(30);
    expect(elapsed).toBeLessThan(300);
  });

  it('opens at the newest message', () => {
    const rows = makeRows(2000);
    const { container } = render(
      <MessageList rows={rows} renderRow={(row) => <p>{row.text}</p>} />,
    );
    const indexes = [...container.querySelectorAll('[data-index]')].map((node) =>
      Number(node.getAttribute('data-index')),
    );
    expect(Math.max(...indexes)).toBe(1999);
    expect(container.textContent).toContain('Message 1999');
    expect(container.textContent).not.toContain('Message 0 ');
  });

  it('keeps the DOM bounded as more messages arrive', () => {
    const rows = makeRows(500);
    const { container, rerender } = render(
      <MessageList rows={rows} renderRow={(row) => <p>{row.text}</p>} />,
    );
    rerender(<MessageList rows={makeRows(2000)} renderRow={(row) => <p>{row.text}</p>} />);
    expect(container.querySelectorAll('[data-index]').length).toBeLessThanOrEqual(30);
  });
});
