import { ArrowUp, Square } from 'lucide-react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

type ComposerProps = {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  /** A reply is being streamed: the button stops it. */
  busy: boolean;
  disabled?: boolean;
  placeholder?: string;
  toolbar?: ReactNode;
};

const maxHeightPx = 240;

/** Enter sends, Shift+Enter starts a new line; while a reply streams the button stops it. */
export const Composer = ({
  value,
  onChange,
  onSend,
  onStop,
  busy,
  disabled = false,
  placeholder = 'Write a message…',
  toolbar,
}: ComposerProps) => {
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  // Grows with its text up to a limit, then scrolls.
  useLayoutEffect(() => {
    const element = textareaRef.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, maxHeightPx)}px`;
  }, [value]);

  const canSend = !disabled && !busy && value.trim() !== '';

  return (
    <form
      className="rounded-xl border bg-background shadow-xs focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/30"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) onSend();
      }}
    >
      <label htmlFor="chat-composer" className="sr-only">
        Message
      </label>
      <textarea
        id="chat-composer"
        ref={textareaRef}
        rows={1}
        value={value}
        disabled={disabled}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
          event.preventDefault();
          if (canSend) onSend();
        }}
        className="block max-h-60 w-full resize-none bg-transparent px-4 pt-3 pb-1 text-sm outline-none placeholder:text-muted-foreground disabled:opacity-50"
      />
      <div className="flex items-center gap-2 px-2 pb-2">
        <div className="min-w-0 flex-1">{toolbar}</div>
        {busy ? (
          <Button
            type="button"
            size="icon"
            variant="secondary"
            aria-label="Stop the reply"
            title="Stop"
            onClick={onStop}
          >
            <Square className="fill-current" />
          </Button>
        ) : (
          <Button
            type="submit"
            size="icon"
            aria-label="Send message"
            title="Send (Enter)"
            disabled={!canSend}
            className={cn(!canSend && 'opacity-40')}
          >
            <ArrowUp />
          </Button>
        )}
      </div>
    </form>
  );
};
