import { useEffect, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useSchedulePreview } from '../api/schedules';
import { formatInUserZone, formatInZone, userTimeZone } from './schedule-times';

/** How long typing rests before the expression is checked. */
export const previewDelayMs = 400;

const useDebounced = (value: string, ms: number): string => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
};

/**
 * The expression in words and its next five runs as the server reads it, checked as it is typed,
 * each time in the user's own zone (and in the schedule's, when that is another).
 */
export const CronPreview = ({ cron, timeZone }: { cron: string; timeZone: string }) => {
  // One wait for both: a zone and an expression changed together are checked once.
  const [settledCron, settledZone] = useDebounced(
    `${cron.trim()}\n${timeZone}`,
    previewDelayMs,
  ).split('\n');
  const settled = { cron: settledCron ?? '', timeZone: settledZone ?? timeZone };
  const preview = useSchedulePreview(settled.cron, settled.timeZone);
  const mine = userTimeZone();
  const sameZone = settled.timeZone === mine;

  let body;
  if (settled.cron === '') {
    body = <p className="text-muted-foreground">Type an expression to see when it runs.</p>;
  } else if (preview.isError) {
    body = (
      <p role="alert" className="text-destructive">
        {errorMessage(preview.error)} A cron expression has five fields: minute, hour, day of the
        month, month and day of the week, such as 0 9 * * 1-5 for 09:00 on weekdays.
      </p>
    );
  } else if (!preview.data) {
    body = <Spinner className="size-5" label="Checking the expression" />;
  } else {
    body = (
      <>
        <p className="font-medium" data-testid="cron-description">
          {preview.data.description}
        </p>
        <p className="text-xs text-muted-foreground">
          {sameZone
            ? `The next runs, in your time zone (${mine}):`
            : `It runs by the clock of ${settled.timeZone}. The next runs, in your time zone (${mine}):`}
        </p>
        <ol aria-label="Next runs" className="grid gap-0.5">
          {preview.data.next_runs.slice(0, 5).map((iso) => (
            <li key={iso}>
              {formatInUserZone(iso)}
              {!sameZone ? (
                <span className="text-xs text-muted-foreground">
                  {' '}
                  ({formatInZone(iso, settled.timeZone)} in {settled.timeZone})
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      </>
    );
  }
  return (
    <div aria-live="polite" className="grid gap-1 rounded-md border bg-muted/30 p-3 text-sm">
      {body}
    </div>
  );
};
