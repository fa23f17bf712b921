import { diffWordsWithSpace } from 'diff';
import { useState } from 'react';
import type { Prompt, PromptVersion } from '@chorus/shared/api/prompts';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { usePromptVersions, useRestorePromptVersion } from '@/lib/queries/prompts';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';

/** What changed from `before` to `after`, word by word: removals struck, additions marked. */
const TextDiff = ({ before, after, label }: { before: string; after: string; label: string }) => {
  if (before === after) return null;
  return (
    <div className="grid gap-1">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <p className="max-h-72 overflow-auto rounded-md border bg-muted/30 p-3 text-sm break-words whitespace-pre-wrap">
        {diffWordsWithSpace(before, after).map((part, index) =>
          part.added ? (
            <ins
              key={index}
              className="bg-emerald-500/15 text-emerald-800 no-underline dark:text-emerald-300"
            >
              {part.value}
            </ins>
          ) : part.removed ? (
            <del key={index} className="bg-red-500/15 text-red-800 dark:text-red-300">
              {part.value}
            </del>
          ) : (
            <span key={index}>{part.value}</span>
          ),
        )}
      </p>
    </div>
  );
};

const VersionDiff = ({ version, current }: { version: PromptVersion; current: Prompt }) => {
  const fields: { label: string; before: string; after: string }[] = [
    { label: 'Title', before: version.title, after: current.title },
    { label: 'Prompt', before: version.content, after: current.content },
    { label: 'Description', before: version.description, after: current.description },
    { label: 'Category', before: version.category, after: current.category },
    { label: 'Tags', before: version.tags.join(', '), after: current.tags.join(', ') },
  ];
  const changed = fields.filter((f) => f.before !== f.after);
  return (
    <div className="grid gap-3" aria-live="polite">
      <p className="text-sm text-muted-foreground">
        {changed.length === 0
          ? `Version ${version.version} is the same as the current one.`
          : `From version ${version.version} to the current version ${current.version}: removed words are struck through, added ones highlighted.`}
      </p>
      {changed.map((f) => (
        <TextDiff key={f.label} {...f} />
      ))}
    </div>
  );
};

const Versions = ({ prompt, onClose }: { prompt: Prompt; onClose: () => void }) => {
  const versions = usePromptVersions(prompt.id);
  const restore = useRestorePromptVersion();
  const older = (versions.data?.items ?? []).filter((v) => v.version !== prompt.version);
  const [chosen, setChosen] = useState<number | null>(null);
  const selected = older.find((v) => v.version === chosen) ?? older[0];

  if (versions.isPending) return <Spinner label="Loading versions" />;
  if (versions.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(versions.error)}
      </p>
    );
  }
  if (!selected) {
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">
          This prompt has one version so far. Each time you save a change, the version before it is
          kept here, to compare and restore.
        </p>
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="grid gap-4 md:grid-cols-[12rem_1fr]">
      <ul aria-label="Earlier versions" className="grid content-start gap-1">
        {older.map((v) => (
          <li key={v.version}>
            <button
              type="button"
              aria-current={v.version === selected.version ? 'true' : undefined}
              onClick={() => setChosen(v.version)}
              className={cn(
                'w-full rounded-md px-3 py-2 text-left text-sm hover:bg-accent',
                v.version === selected.version && 'bg-accent font-medium',
              )}
            >
              Version {v.version}
              <span className="block text-xs text-muted-foreground">
                {formatDateTime(v.created_at)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div className="grid min-w-0 content-start gap-4">
        <VersionDiff version={selected} current={prompt} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button
            disabled={restore.isPending}
            onClick={() =>
              restore.mutate(
                { id: prompt.id, version: selected.version },
                {
                  onSuccess: (restored) => {
                    toast.success(
                      `Version ${selected.version} restored as version ${restored.version}`,
                    );
                    onClose();
                  },
                  onError: (error) =>
                    toast.error('Could not restore the version', {
                      description: errorMessage(error),
                    }),
                },
              )
            }
          >
            Restore version {selected.version}
          </Button>
        </div>
      </div>
    </div>
  );
};

/** A prompt's saved versions: each compared with the current one, and restorable. */
export const PromptVersionsDialog = ({
  prompt,
  onClose,
}: {
  prompt: Prompt | null;
  onClose: () => void;
}) => (
  <Dialog
    open={prompt !== null}
    title={prompt ? `Versions of “${prompt.title}”` : 'Versions'}
    onClose={onClose}
    className="max-w-3xl"
  >
    {prompt ? <Versions key={prompt.id} prompt={prompt} onClose={onClose} /> : null}
  </Dialog>
);
