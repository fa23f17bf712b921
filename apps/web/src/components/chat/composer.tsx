import { ArrowUp, Paperclip, Square } from 'lucide-react';
import {
  useLayoutEffect,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Button } from '@/components/ui/button';
import { attachmentAccept, type ComposerAttachments } from '@/lib/chat/attachments';
import { cn } from '@/lib/utils';
import { ComposerAttachmentChips } from './composer-attachments';

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
  /** The person is about to write: a good moment to fetch what sending needs. */
  onIntent?: () => void;
  /** Texts sent lately, oldest first: ↑ in an empty box brings them back, ↓ goes forward. */
  recall?: () => string[];
  /** Keys for a list opened from the text box (the `/` prompt picker); true when it took one. */
  onListKey?: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Ties the text box to that list for screen readers. */
  listProps?: {
    'aria-controls'?: string;
    'aria-autocomplete'?: 'list';
    'aria-activedescendant'?: string | undefined;
  };
  /** Above the text box, inside the form: that list. */
  above?: ReactNode;
  /** Files for the next message: a paperclip button, and files dropped on the box. */
  attachments?: Pick<ComposerAttachments, 'items' | 'add' | 'remove' | 'uploading'> | undefined;
};

const hasFiles = (event: { dataTransfer: DataTransfer | null }) =>
  event.dataTransfer?.types.includes('Files') ?? false;

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
  onIntent,
  recall,
  onListKey,
  listProps,
  above,
  attachments,
}: ComposerProps) => {
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // While stepping through sent texts: the list and where in it the box is.
  const recalling = useRef<{ texts: string[]; index: number } | null>(null);

  /**
   * ↑ in an empty box brings back the last sent text; while stepping (until the text is
   * changed), ↑ and ↓ move through the list, and ↓ past the newest empties the box again.
   */
  const step = (direction: -1 | 1): boolean => {
    let state = recalling.current;
    if (!state) {
      if (direction === 1 || value !== '' || !recall) return false;
      const texts = recall();
      if (texts.length === 0) return false;
      state = { texts, index: texts.length };
      recalling.current = state;
    }
    const index = Math.min(state.texts.length, Math.max(0, state.index + direction));
    if (index === state.index) return true;
    state.index = index;
    if (index === state.texts.length) {
      recalling.current = null;
      onChange('');
    } else {
      onChange(state.texts[index] ?? '');
    }
    return true;
  };

  // Grows with its text up to a limit, then scrolls.
  useLayoutEffect(() => {
    const element = textareaRef.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, maxHeightPx)}px`;
  }, [value]);

  // A message waits for its files: sent before they are stored, it would go without them.
  const canSend = !disabled && !busy && value.trim() !== '' && !attachments?.uploading;
  const dropProps = attachments
    ? {
        onDragOver: (event: DragEvent) => {
          if (!hasFiles(event) || disabled) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        },
        onDragLeave: (event: DragEvent) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        },
        onDrop: (event: DragEvent) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          setDragging(false);
          if (!disabled) attachments.add([...event.dataTransfer.files]);
        },
      }
    : {};

  return (
    <form
      className={cn(
        'rounded-xl border bg-background shadow-xs focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/30',
        dragging && 'border-primary ring-[3px] ring-primary/30',
      )}
      onFocus={onIntent}
      onPointerEnter={onIntent}
      onSubmit={(event) => {
        event.preventDefault();
        recalling.current = null;
        if (canSend) onSend();
      }}
      {...dropProps}
    >
      {above ? <div className="p-2 pb-0">{above}</div> : null}
      {attachments && attachments.items.length > 0 ? (
        <ComposerAttachmentChips items={attachments.items} onRemove={attachments.remove} />
      ) : null}
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
        onChange={(event) => {
          recalling.current = null;
          onChange(event.target.value);
        }}
        {...listProps}
        onKeyDown={(event) => {
          if (onListKey?.(event)) {
            event.preventDefault();
            return;
          }
          if (
            (event.key === 'ArrowUp' || event.key === 'ArrowDown') &&
            !event.shiftKey &&
            !event.altKey &&
            !event.metaKey &&
            !event.ctrlKey &&
            step(event.key === 'ArrowUp' ? -1 : 1)
          ) {
            event.preventDefault();
            return;
          }
          if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
          event.preventDefault();
          recalling.current = null;
          if (canSend) onSend();
        }}
        className="block max-h-60 w-full resize-none bg-transparent px-4 pt-3 pb-1 text-sm outline-none placeholder:text-muted-foreground disabled:opacity-50"
      />
      <div className="flex items-center gap-2 px-2 pb-2">
        {attachments ? (
          <>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8 text-muted-foreground"
              aria-label="Attach files"
              title="Attach files (or drop them on the message box)"
              disabled={disabled}
              onClick={() => fileInputRef.current?.click()}
            >
              <Paperclip />
            </Button>
            <input
              ref={fileInputRef}
              type="file"
              multiple
              accept={attachmentAccept}
              className="sr-only"
              tabIndex={-1}
              aria-label="Files to attach"
              onChange={(event) => {
                const files = [...(event.target.files ?? [])];
                event.target.value = '';
                if (files.length > 0) attachments.add(files);
              }}
            />
          </>
        ) : null}
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
            title={attachments?.uploading ? 'Waiting for the files to upload' : 'Send (Enter)'}
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
