import { Button } from './button';

type OffsetPagerProps = {
  offset: number;
  pageSize: number;
  total: number;
  onOffsetChange: (offset: number) => void;
};

/** "21–40 of 93" with Previous / Next, for lists paged by offset. */
export const OffsetPager = ({ offset, pageSize, total, onOffsetChange }: OffsetPagerProps) => {
  const lastShown = Math.min(offset + pageSize, total);
  return (
    <div className="mt-4 flex items-center justify-between text-sm text-muted-foreground">
      <span>
        {total === 0 ? 0 : offset + 1}–{lastShown} of {total}
      </span>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={offset === 0}
          onClick={() => onOffsetChange(Math.max(0, offset - pageSize))}
        >
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={lastShown >= total}
          onClick={() => onOffsetChange(offset + pageSize)}
        >
          Next
        </Button>
      </div>
    </div>
  );
};
