import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { CrashBoundary } from './crash-boundary';

describe('CrashBoundary', () => {
  it('shows the crash screen on a rendering error and re-renders on Try Again', () => {
    vi.mocked(console.error).mockImplementation(() => {});
    let shouldThrow = true;
    const Flaky = () => {
      if (shouldThrow) throw new Error('boom');
      return <p>Recovered content</p>;
    };

    render(
      <CrashBoundary>
        <Flaky />
      </CrashBoundary>,
    );

    expect(screen.getByRole('heading', { name: messages.crash.title })).toBeTruthy();
    expect(screen.getByText(messages.crash.body)).toBeTruthy();
    expect(screen.getByRole('button', { name: messages.crash.refresh })).toBeTruthy();
    expect(screen.queryByText('boom')).toBeNull();

    shouldThrow = false;
    fireEvent.click(screen.getByRole('button', { name: messages.crash.retry }));

    expect(screen.getByText('Recovered content')).toBeTruthy();
    expect(screen.queryByText(messages.crash.title)).toBeNull();
  });

  it('reloads the page on Refresh Page', () => {
    vi.mocked(console.error).mockImplementation(() => {});
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    const Broken = () => {
      throw new Error('boom');
    };
    render(
      <CrashBoundary>
        <Broken />
      </CrashBoundary>,
    );
    fireEvent.click(screen.getByRole('button', { name: messages.crash.refresh }));
    expect(reload).toHaveBeenCalledOnce();
  });
});
