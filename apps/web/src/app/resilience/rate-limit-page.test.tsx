import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { RateLimitPage } from './rate-limit-page';

describe('the Rate Limit Active page', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('counts down each second and offers Retry Now only at 5 s or less', () => {
    const onRetryNow = vi.fn();
    render(
      <RateLimitPage blockedUntil={8000} reason="Data rate limited." onRetryNow={onRetryNow} />,
    );
    expect(screen.getByRole('heading', { name: messages.rateLimit.pageTitle })).toBeTruthy();
    expect(screen.getByText('Data rate limited.')).toBeTruthy();
    expect(screen.getByText(messages.rateLimit.retryIn(8))).toBeTruthy();
    expect(screen.queryByRole('button', { name: messages.rateLimit.retryNow })).toBeNull();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText(messages.rateLimit.retryIn(7))).toBeTruthy();
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.getByText(messages.rateLimit.retryIn(6))).toBeTruthy();
    expect(screen.queryByRole('button', { name: messages.rateLimit.retryNow })).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText(messages.rateLimit.retryIn(5))).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: messages.rateLimit.retryNow }));
    expect(onRetryNow).toHaveBeenCalledOnce();
  });
});
