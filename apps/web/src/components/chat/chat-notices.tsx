import { Hourglass, KeyRound, WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { messages } from '@chorus/shared/messages';
import { LinkButton } from '@/components/ui/link-button';
import { helpLinks } from '@/lib/help-links';

const helpLinkClass = 'font-medium underline underline-offset-4';

/** No key would serve the chosen provider: say so before the user writes, with a way out. */
export const MissingKeyNotice = ({
  providerLabel,
  role = 'status',
}: {
  providerLabel: string;
  role?: 'status' | 'alert';
}) => (
  <div
    role={role}
    className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm"
  >
    <KeyRound aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
    <p className="flex-1">
      No API key is available for {providerLabel}. Add your own key, or ask an administrator to
      enable a system key, or pick another provider below.{' '}
      <Link to={helpLinks.missingKey} className={helpLinkClass}>
        How keys work
      </Link>
    </p>
    <LinkButton to="/copy-api-keys" size="sm" variant="outline">
      Add an API key
    </LinkButton>
  </div>
);

export const offlineText =
  'You are offline. Keep writing: what you send now stays here marked "Not sent", to retry when you are back online.';

/** The browser has no network: said plainly, once, above the composer. */
export const OfflineNotice = () => (
  <div
    role="status"
    className="flex items-center gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-2.5 text-sm"
  >
    <WifiOff aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
    <p>{offlineText}</p>
  </div>
);

const secondsUntil = (until: number) => Math.max(0, Math.ceil((until - Date.now()) / 1000));

/**
 * A rate-limited action: what it was and when it may go again, counting down under the
 * composer; it goes away by itself when the wait is over. The typed text stays where it is.
 */
export const RateLimitNotice = ({
  operation,
  until,
  onEnd,
}: {
  operation: string;
  until: number;
  onEnd: () => void;
}) => {
  const [seconds, setSeconds] = useState(() => secondsUntil(until));
  useEffect(() => {
    const timer = setInterval(() => {
      const left = secondsUntil(until);
      setSeconds(left);
      if (left === 0) onEnd();
    }, 250);
    return () => clearInterval(timer);
  }, [until, onEnd]);
  if (seconds === 0) return null;
  return (
    <p
      role="status"
      data-testid="rate-limit-notice"
      className="flex items-center gap-2 px-1 text-xs text-amber-700 dark:text-amber-400"
    >
      <Hourglass aria-hidden="true" className="size-3.5 shrink-0" />
      <span>
        {messages.rateLimit.operation(operation, seconds)} Your message stays in the box.{' '}
        <Link to={helpLinks.rateLimits} className={helpLinkClass}>
          About rate limits
        </Link>
      </span>
    </p>
  );
};
