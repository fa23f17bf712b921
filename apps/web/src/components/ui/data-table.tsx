import type { ReactNode } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/utils';

export type TableColumn = {
  label: string;
  /** Right-aligned, for counts and row actions. */
  end?: boolean;
  /** Named for screen readers only (an actions column). */
  hidden?: boolean;
};

type DataTableProps = {
  columns: TableColumn[];
  caption?: string;
  /** The body's rows. */
  children: ReactNode;
};

/**
 * A list of records: bordered, scrolls sideways on narrow screens, one header row. A select in a
 * cell keeps the width of its longest choice: squeezed by its column it would show one letter.
 */
export const DataTable = ({ columns, caption, children }: DataTableProps) => (
  <div className="overflow-x-auto rounded-lg border">
    <table className="w-full text-left text-sm [&_td_select]:w-auto [&_td_select]:min-w-max">
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
        <tr>
          {columns.map(({ label, end, hidden }) => (
            <th
              key={label}
              scope="col"
              className={cn('px-4 py-3 font-medium', end && 'text-right')}
            >
              {hidden ? <span className="sr-only">{label}</span> : label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y">{children}</tbody>
    </table>
  </div>
);

/** The space a list takes while its first page loads. */
export const TableLoading = ({ label }: { label: string }) => (
  <div className="flex justify-center py-16">
    <Spinner label={label} />
  </div>
);

/** Why a list is missing, e.g. `what` = "The outbox". */
export const TableLoadError = ({ what, error }: { what: string; error: unknown }) => (
  <p role="alert" className="rounded-md border border-destructive/40 p-4 text-sm text-destructive">
    {what} could not be loaded: {errorMessage(error)} Try reloading the page.
  </p>
);
