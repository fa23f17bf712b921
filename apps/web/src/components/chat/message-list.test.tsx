import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeLayout } from '@/test/fake-layout';
import { MessageList } from './message-list';

type Row = { id: string; text: string };

beforeEach(() => fakeLayout({ viewportPx: 600, rowPx: 80 }));

const makeRows = (count: number): Row[] =>
  Array.from({ length: count }, (_, index) => ({ id: `m${index}`, text: `Message ${index}` }));

describe('the virtual message list', () => {
  it('mounts only a bounded number of rows for a 2,000-message conversation', () => {
    const rows = makeRows(2000);
    const { container } = render(
      <MessageList rows={rows} renderRow={(row) => <p>{row.text}</p>} />,
    );
    const mounted = container.querySelectorAll('[data-index]');
    expect(mounted.length).toBeGreaterThan(0);
    // A 600 px viewport holds 8 rows of 80 px; with overscan the DOM stays far below 2,000.
    expect(mounted.length).toBeLessThanOrEqual(30);
    // How fast a 2,000-message chat opens is measured in bench/history.ts, not asserted here.
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

describe('older pages', () => {
  const rowsFrom = (from: number, count: number): Row[] =>
    Array.from({ length: count }, (_, index) => ({
      id: `m${from + index}`,
      text: `Message ${from + index}`,
    }));

  it('asks for the page written before when the reader nears the top', () => {
    const loadOlder = vi.fn();
    const { container } = render(
      <MessageList
        rows={rowsFrom(200, 200)}
        renderRow={(row) => <p>{row.text}</p>}
        older={{ hasOlder: true, loadingOlder: false, loadOlder }}
      />,
    );
    const region = container.querySelector<HTMLElement>('[role="region"]')!;
    loadOlder.mockClear();
    region.scrollTop = 20_000;
    fireEvent.scroll(region);
    expect(loadOlder).not.toHaveBeenCalled();
    region.scrollTop = 100;
    fireEvent.scroll(region);
    expect(loadOlder).toHaveBeenCalledTimes(1);
  });

  it('keeps the rows in view where they are when older ones arrive above them', () => {
    const older = { hasOlder: true, loadingOlder: false, loadOlder: () => undefined };
    const renderRow = (row: Row) => <p>{row.text}</p>;
    const { container, rerender } = render(
      <MessageList rows={rowsFrom(200, 200)} renderRow={renderRow} older={older} />,
    );
    const region = container.querySelector<HTMLElement>('[role="region"]')!;
    // happy-dom lays nothing out: the list is as tall as its rows say.
    Object.defineProperty(region, 'scrollHeight', { configurable: true, get: () => 200 * 140 });
    region.scrollTop = 700;
    fireEvent.scroll(region);
    const before = region.scrollTop;
    Object.defineProperty(region, 'scrollHeight', { configurable: true, get: () => 400 * 140 });

    rerender(<MessageList rows={rowsFrom(0, 400)} renderRow={renderRow} older={older} />);
    // 200 rows came in above, each counted at the list's estimate until it is measured.
    expect(region.scrollTop - before).toBe(200 * 140);
  });

  it('shows that earlier messages are loading', () => {
    render(
      <MessageList
        rows={rowsFrom(0, 3)}
        renderRow={(row) => <p>{row.text}</p>}
        older={{ hasOlder: true, loadingOlder: true, loadOlder: () => undefined }}
      />,
    );
    expect(screen.getByText('Loading earlier messages')).toBeTruthy();
  });
});
