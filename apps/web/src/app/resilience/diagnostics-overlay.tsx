import { useState } from 'react';
import { useDiagnostics, useGlobalBlock, useTabRole } from '@/lib/resilience/hooks';
import { Button } from '@/components/ui/button';

const time = (at: number) => new Date(at).toLocaleTimeString([], { hour12: false });

/**
 * Spec §2: the diagnostics overlay (local storage `diag` = `1`): this tab's role, whether a
 * rate limit is active, and the last entries of the diagnostics buffer, newest first.
 */
export const DiagnosticsOverlay = () => {
  const entries = useDiagnostics();
  const role = useTabRole();
  const block = useGlobalBlock();
  const [open, setOpen] = useState(true);
  const recent = entries.slice(-50).reverse();

  return (
    <section
      aria-labelledby="diagnostics-title"
      data-tab-role={role}
      className="fixed bottom-2 left-2 z-[90] w-[min(28rem,calc(100vw-1rem))] rounded-lg border bg-background/95 text-xs shadow-lg backdrop-blur"
    >
      <header className="flex items-center justify-between gap-2 border-b px-3 py-2">
        <h2 id="diagnostics-title" className="text-sm font-semibold">
          Diagnostics
        </h2>
        <Button variant="ghost" size="sm" onClick={() => setOpen((value) => !value)}>
          {open ? 'Hide' : 'Show'}
        </Button>
      </header>
      {open ? (
        <div className="px-3 py-2">
          <dl className="mb-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-muted-foreground">Tab</dt>
            <dd data-testid="diagnostics-tab-role">{role}</dd>
            <dt className="text-muted-foreground">Rate limit</dt>
            <dd>{block.blockedUntil ? `blocked until ${time(block.blockedUntil)}` : 'none'}</dd>
            <dt className="text-muted-foreground">Entries</dt>
            <dd>{entries.length}</dd>
          </dl>
          <ol
            className="max-h-60 space-y-0.5 overflow-y-auto font-mono"
            aria-label="Diagnostic entries"
          >
            {recent.map((entry) => (
              <li key={entry.id} className="break-words">
                <span className="text-muted-foreground">{time(entry.at)}</span>{' '}
                <span className="font-semibold">{entry.kind}</span> {entry.message}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
};
