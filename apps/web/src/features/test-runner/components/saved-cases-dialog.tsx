import { useState } from 'react';
import { Link } from 'react-router';
import type { TestSet } from '@chorus/shared/api/test-runs';
import { plural } from '@/components/forms/card-list';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { providerName } from '@/lib/providers';
import { toast } from '@/lib/toast';
import { useFileTestCases, useUnfiledTestCases } from '../api/test-sets';
import { linkClass } from './run-format';

const SavedCasesBody = ({ set, onClose }: { set: TestSet; onClose: () => void }) => {
  const cases = useUnfiledTestCases(true);
  const file = useFileTestCases(set.id);
  const [picked, setPicked] = useState<string[]>([]);

  if (cases.isPending) return <Spinner label="Loading your saved cases" />;
  if (cases.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Your saved cases could not be loaded: {errorMessage(cases.error)} Close this and try again.
      </p>
    );
  }
  const items = cases.data.items;
  if (items.length === 0) {
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">
          You have no saved cases waiting for a set. Run a{' '}
          <Link to="/scenarios" className={linkClass}>
            scenario
          </Link>{' '}
          and press “Save as test case” under an answer you like: its prompt, variables and answer
          become a case you can add here.
        </p>
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    );
  }
  const all = picked.length === items.length;
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        Cases saved from scenario answers. The ones you tick move into this set, with the answer as
        their expected output; add assertions to them afterwards.
      </p>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          checked={all}
          onChange={() => setPicked(all ? [] : items.map((item) => item.id))}
        />
        Select all
      </label>
      <ul
        aria-label="Saved cases"
        className="grid max-h-80 gap-1 overflow-y-auto rounded-md border p-1"
      >
        {items.map((item) => {
          const checked = picked.includes(item.id);
          return (
            <li key={item.id}>
              <label className="flex cursor-pointer items-start gap-2 rounded px-2 py-1.5 text-sm hover:bg-muted">
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={checked}
                  onChange={() =>
                    setPicked(
                      checked ? picked.filter((id) => id !== item.id) : [...picked, item.id],
                    )
                  }
                />
                <span className="grid min-w-0">
                  <span className="truncate font-medium">{item.name}</span>
                  <span className="truncate text-xs text-muted-foreground">
                    {item.provider ? `${providerName(item.provider)} · ${item.model ?? ''} · ` : ''}
                    {item.prompt}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button
          disabled={picked.length === 0 || file.isPending}
          onClick={() =>
            file.mutate(picked, {
              onSuccess: () => {
                toast.success(`${plural(picked.length, 'case', 'cases')} added to “${set.name}”`);
                onClose();
              },
              onError: (error) =>
                toast.error('Could not add the cases', { description: errorMessage(error) }),
            })
          }
        >
          {picked.length === 0 ? 'Add cases' : `Add ${plural(picked.length, 'case', 'cases')}`}
        </Button>
      </div>
    </div>
  );
};

/** Moves cases saved from scenario answers into the set. */
export const SavedCasesDialog = ({
  set,
  open,
  onClose,
}: {
  set: TestSet;
  open: boolean;
  onClose: () => void;
}) => (
  <Dialog open={open} title="Add saved cases" onClose={onClose} className="max-w-2xl">
    {open ? <SavedCasesBody set={set} onClose={onClose} /> : null}
  </Dialog>
);
