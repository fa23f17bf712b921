import { TextSearch } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { openMessageSearch, searchShortcutLabel } from '../message-search-state';
import { preloadMessageSearch } from './preload-message-search';

const preload = () => void preloadMessageSearch();

/** Opens the message search: a full-width button in the sidebar, an icon in the rail. */
export const SearchMessagesButton = ({
  compact = false,
  className,
}: {
  compact?: boolean;
  className?: string;
}) => {
  const shortcut = searchShortcutLabel();
  return (
    <Button
      variant="ghost"
      size={compact ? 'icon' : 'sm'}
      aria-keyshortcuts="Control+K Meta+K"
      title={`Search messages (${shortcut})`}
      onPointerEnter={preload}
      onFocus={preload}
      onClick={openMessageSearch}
      className={cn(
        compact ? 'text-muted-foreground' : 'w-full justify-start text-muted-foreground',
        className,
      )}
    >
      <TextSearch aria-hidden="true" />
      {compact ? (
        <span className="sr-only">Search messages</span>
      ) : (
        <>
          <span className="flex-1 text-left">Search messages</span>
          <kbd className="rounded border bg-background px-1.5 font-sans text-[0.7rem] text-muted-foreground">
            {shortcut}
          </kbd>
        </>
      )}
    </Button>
  );
};
