import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { useFocusRow, type FocusRow } from './use-focus-row';

/** Earlier messages that exist but are not loaded yet (a long conversation opens at its end). */
export type OlderMessages = {
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
};

type MessageListProps<Row extends { id: string }> = {
  rows: Row[];
  renderRow: (row: Row, index: number) => ReactNode;
  /** Changes when the last row grows (a streamed reply), to keep it in view. */
  tailVersion?: string | number;
  older?: OlderMessages | undefined;
  className?: string;
  label?: string;
  /** Scrolls to this row once it is loaded, highlights it briefly and focuses it. */
  focusRow?: FocusRow | undefined;
};

const estimatedRowPx = 140;

/** Closer to the bottom than this, the list follows new and growing messages. */
const followThresholdPx = 120;

/** Closer to the top than this, the page written before the first row is asked for. */
const loadOlderThresholdPx = 600;

/** After a jump to a row, older pages wait this long, so the row stays where it was put. */
const jumpSettleMs = 1000;

/**
 * The conversation as a virtual list: only the rows in view (plus a few either side) are
 * mounted, each measured as it renders, so a 2,000-message chat costs what a 20-message one does.
 * It opens at the newest message; scrolling up loads older pages, and the rows in view stay where
 * they are while older ones are added above them.
 */
export const MessageList = <Row extends { id: string }>({
  rows,
  renderRow,
  tailVersion,
  older,
  className,
  label = 'Messages',
  focusRow,
}: MessageListProps<Row>) => {
  const scrollRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  // The app does not build with the React Compiler; the virtualizer re-renders this itself.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimatedRowPx,
    // Start near the end, so the first paint already shows the newest messages.
    initialOffset: () => Math.max(0, rows.length * estimatedRowPx - window.innerHeight),
    overscan: 4,
    getItemKey: (index) => rows[index]?.id ?? index,
  });

  const olderRef = useRef(older);
  useLayoutEffect(() => {
    olderRef.current = older;
  });
  // Right after a jump to a row the view settles first; older rows would shift it meanwhile.
  const holdOlderUntil = useRef(0);
  const askForOlder = useCallback(() => {
    const element = scrollRef.current;
    const current = olderRef.current;
    if (!element || !current?.hasOlder || current.loadingOlder) return;
    if (performance.now() < holdOlderUntil.current) return;
    if (element.scrollTop < loadOlderThresholdPx) current.loadOlder();
  }, []);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    following.current =
      element.scrollHeight - element.scrollTop - element.clientHeight < followThresholdPx;
    askForOlder();
  }, [askForOlder]);

  // Rows added above the first one (an older page): the view keeps its place.
  const firstId = rows[0]?.id;
  const shownBefore = useRef({ firstId, total: 0 });
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const element = scrollRef.current;
    const before = shownBefore.current;
    if (element && before.firstId !== undefined && firstId !== before.firstId) {
      const index = rows.findIndex((row) => row.id === before.firstId);
      if (index > 0 && !following.current) element.scrollTop += total - before.total;
    }
    shownBefore.current = { firstId, total };
  }, [firstId, total, rows]);

  const count = rows.length;
  useLayoutEffect(() => {
    if (count > 0 && following.current) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [count, tailVersion, virtualizer]);

  const onJump = useCallback(() => {
    following.current = false;
    holdOlderUntil.current = performance.now() + jumpSettleMs;
  }, []);
  const highlight = useFocusRow({ focus: focusRow, rows, virtualizer, scrollRef, onJump });

  // A page that does not fill the view cannot be scrolled up: ask for the one before it now.
  useEffect(() => {
    const element = scrollRef.current;
    if (element && older?.hasOlder && element.scrollHeight <= element.clientHeight) askForOlder();
  }, [older?.hasOlder, older?.loadingOlder, count, askForOlder]);

  const items = virtualizer.getVirtualItems();
  return (
    <div className={cn('relative flex min-h-0 flex-1 flex-col', className)}>
      {older?.loadingOlder ? (
        <div className="pointer-events-none absolute inset-x-0 top-2 z-10 flex justify-center">
          <span className="rounded-full border bg-background/90 px-3 py-1 shadow-sm">
            <Spinner className="size-4" label="Loading earlier messages" />
          </span>
        </div>
      ) : null}
      <div
        ref={scrollRef}
        onScroll={onScroll}
        role="region"
        aria-label={label}
        tabIndex={0}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain py-2"
      >
        <div className="relative w-full" style={{ height: total }}>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const lit = highlight?.id === row.id ? highlight : null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                data-row-id={row.id}
                data-highlighted={lit ? true : undefined}
                tabIndex={lit ? -1 : undefined}
                ref={virtualizer.measureElement}
                className={cn(
                  'absolute top-0 left-0 w-full',
                  lit &&
                    'outline-none focus-visible:ring-2 focus-visible:ring-ring/60 motion-safe:transition-colors motion-safe:duration-1000',
                  lit && !lit.fading && 'bg-primary/10',
                )}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {renderRow(row, item.index)}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
};
