import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';

type SearchInputProps = Omit<ComponentProps<'input'>, 'type'> & {
  /** What is searched, for screen readers ("Search your prompts"). */
  label: string;
};

/** A search box with its magnifier and a label for screen readers. */
export const SearchInput = ({ label, className, ...props }: SearchInputProps) => (
  <label className={cn('relative w-full sm:max-w-xs', className)}>
    <span className="sr-only">{label}</span>
    <Search
      aria-hidden="true"
      className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
    />
    <Input type="search" className="pl-9" {...props} />
  </label>
);
