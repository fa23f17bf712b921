import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** A styled native <select>: keyboard, screen readers and mobile pickers work as they should. */
export const NativeSelect = ({ className, ...props }: ComponentProps<'select'>) => (
  <select
    className={cn(
      'h-9 w-full min-w-0 rounded-md border border-input bg-background px-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50 dark:bg-input/30',
      className,
    )}
    {...props}
  />
);
