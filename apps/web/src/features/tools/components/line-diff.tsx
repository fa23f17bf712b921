import { diffLines } from 'diff';
import { cn } from '@/lib/utils';

/** `before` against `after`, line by line: removed lines struck and marked −, added ones +. */
export const LineDiff = ({
  before,
  after,
  label,
}: {
  before: string;
  after: string;
  label: string;
}) => {
  const parts = diffLines(before, after);
  return (
    <figure className="grid gap-1">
      <figcaption className="text-xs font-medium text-muted-foreground">
        {label}
        {before === after ? ' (unchanged)' : null}
      </figcaption>
      <pre
        aria-label={label}
        className="max-h-72 overflow-auto rounded-md border bg-muted/30 py-1 font-mono text-xs"
      >
        {parts.flatMap((part, index) =>
          part.value
            .replace(/\n$/, '')
            .split('\n')
            .map((line, lineIndex) => {
              const mark = part.added ? '+' : part.removed ? '−' : ' ';
              const Tag = part.added ? 'ins' : part.removed ? 'del' : 'span';
              return (
                <Tag
                  key={`${index}:${lineIndex}`}
                  className={cn(
                    'block px-2 break-words whitespace-pre-wrap no-underline',
                    part.added && 'bg-emerald-500/15 text-emerald-800 dark:text-emerald-300',
                    part.removed && 'bg-red-500/15 text-red-800 dark:text-red-300',
                  )}
                >
                  <span aria-hidden="true" className="mr-2 select-none">
                    {mark}
                  </span>
                  {line}
                </Tag>
              );
            }),
        )}
      </pre>
    </figure>
  );
};
