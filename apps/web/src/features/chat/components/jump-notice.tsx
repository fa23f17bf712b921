import { SearchX } from 'lucide-react';
import { messagePageSize } from '@chorus/shared/limits';
import { maxPagesToFind, type JumpState } from '../hooks/use-jump-to-message';

const furthest = (maxPagesToFind * messagePageSize).toLocaleString('en');

/** Above the composer while a conversation is opened at a message, when that takes a moment or fails. */
export const JumpNotice = ({ state }: { state: JumpState }) => {
  if (state === 'looking') {
    return (
      <p role="status" className="flex items-center gap-2 px-1 text-xs text-muted-foreground">
        <span
          aria-hidden="true"
          className="inline-block size-3.5 animate-spin rounded-full border-2 border-muted-foreground/30 border-t-primary"
        />
        Finding the message in this conversation…
      </p>
    );
  }
  if (state !== 'missing' && state !== 'failed') return null;
  return (
    <div
      role="status"
      className="flex items-center gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-2.5 text-sm"
    >
      <SearchX aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
      <p>
        {state === 'failed'
          ? 'Earlier messages did not load, so the message you searched for cannot be shown. Scroll up to load them again.'
          : `The message you searched for is no longer in this conversation, or it is further back than its latest ${furthest} messages.`}
      </p>
    </div>
  );
};
