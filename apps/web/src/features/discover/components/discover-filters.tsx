import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { SearchInput } from '@/components/ui/search-input';
import { cn } from '@/lib/utils';
import {
  hasFilters,
  type DiscoverFilters,
  type DiscoverSort,
  type KindFilter,
} from '../utils/discover-params';

const searchDelayMs = 300;

const kinds: { value: KindFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'prompt', label: 'Prompts' },
  { value: 'scenario', label: 'Scenarios' },
  { value: 'custom_ai', label: 'Custom AIs' },
];

const chip = (pressed: boolean) =>
  cn(
    'rounded-full border px-3 py-1 text-sm transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
    pressed ? 'border-primary bg-primary text-primary-foreground' : 'bg-background hover:bg-accent',
  );

/** Typed words reach the URL (and the server) once the typing pauses. */
const SearchBox = ({ value, onSearch }: { value: string; onSearch: (search: string) => void }) => {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The URL changed from elsewhere (back, Clear filters, a tag): show what it holds.
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <SearchInput
      label="Search prompts and scenarios"
      placeholder="Search titles, text and tags"
      className="sm:max-w-sm"
      value={draft}
      onChange={(event) => {
        const next = event.target.value;
        setDraft(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => onSearch(next), searchDelayMs);
      }}
    />
  );
};

type DiscoverFiltersProps = {
  filters: DiscoverFilters;
  categories: string[];
  tags: string[];
  onChange: (next: Partial<DiscoverFilters>) => void;
  onClear: () => void;
};

export const DiscoverFiltersBar = ({
  filters,
  categories,
  tags,
  onChange,
  onClear,
}: DiscoverFiltersProps) => {
  const categoryId = useId();
  const sortId = useId();
  // A category or tag from the URL stays choosable even when this page's lists lack it.
  const categoryOptions = [
    ...new Set([...categories, ...(filters.category ? [filters.category] : [])]),
  ];
  const tagOptions = [...new Set([...tags, ...(filters.tag ? [filters.tag] : [])])];
  return (
    <div className="grid gap-4 rounded-xl border bg-card p-4">
      <div className="flex flex-col gap-3 md:flex-row md:items-center">
        <SearchBox value={filters.search} onSearch={(search) => onChange({ search })} />
        <div role="group" aria-label="Kind" className="flex flex-wrap gap-2">
          {kinds.map(({ value, label }) => (
            <button
              key={value}
              type="button"
              aria-pressed={filters.kind === value}
              onClick={() => onChange({ kind: value })}
              className={chip(filters.kind === value)}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="grid gap-1 sm:w-56">
          <label htmlFor={categoryId} className="text-sm font-medium">
            Category
          </label>
          <NativeSelect
            id={categoryId}
            value={filters.category}
            onChange={(event) => onChange({ category: event.target.value })}
          >
            <option value="">All categories</option>
            {categoryOptions.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1 sm:w-56">
          <label htmlFor={sortId} className="text-sm font-medium">
            Sort by
          </label>
          <NativeSelect
            id={sortId}
            value={filters.sort}
            onChange={(event) => onChange({ sort: event.target.value as DiscoverSort })}
          >
            <option value="newest">Newest</option>
            <option value="most_used">Most used (30 days)</option>
          </NativeSelect>
        </div>
        {hasFilters(filters) ? (
          <Button variant="ghost" onClick={onClear} className="sm:ml-auto">
            Clear filters
          </Button>
        ) : null}
      </div>
      {tagOptions.length > 0 ? (
        <div role="group" aria-label="Tags" className="flex flex-wrap items-center gap-2">
          <span aria-hidden="true" className="text-xs font-medium text-muted-foreground">
            Tags
          </span>
          {tagOptions.map((tag) => (
            <button
              key={tag}
              type="button"
              aria-pressed={filters.tag === tag}
              onClick={() => onChange({ tag: filters.tag === tag ? '' : tag })}
              className={cn(chip(filters.tag === tag), 'px-2.5 py-0.5 text-xs')}
            >
              #{tag}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
};
