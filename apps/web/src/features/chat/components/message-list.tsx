import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

type MessageListProps<Row extends { id: string }> = {
  rows: Row[];
  renderRow: (row: Row, index: number) => ReactNode;
  /** Changes when the last row grows (a streamed reply), to keep it in view. */
  tailVersion?: string | number;
  className?: string;
  label?: string;
};

const estimatedRowPx = 140;

/** Closer to the bottom than this, the list follows new and growing messages. */
const followThresholdPx = 120;

/**
 * The conversation as a virtual list: only the rows in view (plus a few either side) are
 * mounted, each measured as it renders, so a 2,000-message chat costs what a 20-message one does.
 */
export const MessageList = <Row extends { id: string }>({
  rows,
  renderRow,
  tailVersion,
  className,
  label = 'Messages',
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

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    following.current =
      element.scrollHeight - element.scrollTop - element.clientHeight < followThresholdPx;
  }, []);

  const count = rows.length;
  useLayoutEffect(() => {
    if (count > 0 && following.current) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [count, tailVersion, virtualizer]);

  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      onScroll={onScroll}
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn('min-h-0 flex-1 overflow-y-auto overscroll-contain', className)}
    >
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="absolute top-0 left-0 w-full"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {renderRow(row, item.index)}
            </div>
          );
        })}
      </div>
    </div>
  );
};
