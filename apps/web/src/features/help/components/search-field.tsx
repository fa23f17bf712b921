import { Search } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Input } from '@/components/ui/input';

type SearchFieldProps = {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  onFocus?: () => void;
  describedBy?: string;
  autoFocus?: boolean;
};

/** The help center's search box, with its label for screen readers. */
export const HelpSearchField = ({
  id,
  value,
  onChange,
  onKeyDown,
  onFocus,
  describedBy,
  autoFocus,
}: SearchFieldProps) => (
  <label className="relative block">
    <span className="sr-only">Search the help center</span>
    <Search
      aria-hidden="true"
      className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-muted-foreground"
    />
    <Input
      id={id}
      type="search"
      name="q"
      autoComplete="off"
      autoFocus={autoFocus}
      placeholder="Search the help: keys, rate limits, variables…"
      className="h-12 bg-background pl-11 text-base md:text-base"
      aria-describedby={describedBy}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    />
  </label>
);
