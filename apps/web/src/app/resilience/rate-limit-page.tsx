import { Hourglass } from 'lucide-react';
import { useEffect, useState } from 'react';
import { clientRateLimit } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import { Button } from '@/components/ui/button';

type RateLimitPageProps = {
  /** Epoch ms when the block ends. */
  blockedUntil: number;
  reason: string;
  onRetryNow: () => void;
};

const secondsLeft = (until: number) => Math.max(0, Math.ceil((until - Date.now()) / 1000));

/**
 * Spec §2: while a rate limit is active, a full-screen page shows the reason and 'Retry in N
 * seconds', counting down each second; 'Retry Now' appears once 5 seconds or fewer remain.
 * Render it with `key={blockedUntil}` so a longer block starts a fresh countdown.
 */
export const RateLimitPage = ({ blockedUntil, reason, onRetryNow }: RateLimitPageProps) => {
  const [seconds, setSeconds] = useState(() => secondsLeft(blockedUntil));

  useEffect(() => {
    const timer = setInterval(() => setSeconds(secondsLeft(blockedUntil)), 250);
    return () => clearInterval(timer);
  }, [blockedUntil]);

  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="rate-limit-title"
      aria-describedby="rate-limit-reason"
      className="fixed inset-0 z-[100] flex items-center justify-center bg-background px-4"
    >
      <div className="flex max-w-md flex-col items-center text-center">
        <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-amber-500/10">
          <Hourglass aria-hidden="true" className="size-6 text-amber-600 dark:text-amber-400" />
        </div>
        <h1 id="rate-limit-title" className="text-xl font-semibold">
          {messages.rateLimit.pageTitle}
        </h1>
        <p id="rate-limit-reason" className="mt-2 text-sm text-muted-foreground">
          {reason}
        </p>
        <p className="mt-1 text-sm text-muted-foreground">{messages.rateLimit.pausedDescription}</p>
        <p className="mt-4 text-lg font-medium tabular-nums" aria-live="polite">
          {messages.rateLimit.retryIn(seconds)}
        </p>
        {seconds <= clientRateLimit.retryNowAtSeconds ? (
          <Button className="mt-6" onClick={onRetryNow}>
            {messages.rateLimit.retryNow}
          </Button>
        ) : null}
      </div>
    </div>
  );
};
