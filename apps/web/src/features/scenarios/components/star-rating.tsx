import { Star } from 'lucide-react';
import { cn } from '@/lib/utils';

type StarRatingProps = {
  value: number | null;
  label: string;
  disabled?: boolean;
  /** The new rating, or null when the current one is pressed again (cleared). */
  onChange: (rating: number | null) => void;
};

/** Five buttons, "1 star" to "5 stars"; pressing the current rating clears it. */
export const StarRating = ({ value, label, disabled, onChange }: StarRatingProps) => (
  <div role="group" aria-label={label} className="flex items-center">
    {[1, 2, 3, 4, 5].map((n) => (
      <button
        key={n}
        type="button"
        disabled={disabled}
        aria-pressed={value === n}
        aria-label={n === 1 ? '1 star' : `${n} stars`}
        title={value === n ? 'Clear the rating' : `Rate ${n} of 5`}
        onClick={() => onChange(value === n ? null : n)}
        className="rounded p-0.5 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50"
      >
        <Star
          aria-hidden="true"
          className={cn(
            'size-5',
            value !== null && n <= value
              ? 'fill-amber-400 text-amber-500'
              : 'text-muted-foreground/60 hover:text-amber-500',
          )}
        />
      </button>
    ))}
  </div>
);
