import { AlertTriangle, TextSearch } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { MessageSearchHit } from '@chorus/shared/api/search';
import { messageSearch, searchWords } from '@chorus/shared/message-search';
import { messages } from '@chorus/shared/messages';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { isRateLimitError } from '@/lib/resilience/rate-limit-error';
import { cn } from '@/lib/utils';
import { useMessageSearch } from '../api/search-messages';
import { announceMessageSearchHit, searchShortcutLabel } from '../message-search-state';
import { Snippet } from './snippet';

/** Typing pauses this long before a search is sent. */
export const searchDelayMs = 150;

/** The last query, offered again (selected) the next time the dialog opens. */
let lastText = '';

const noHits: MessageSearchHit[] = [];

const useDebounced = (value: string, delayMs: number) => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
};

const roleLabels: Record<MessageSearchHit['role'], string> = {
  user: 'You',
  assistant: 'Reply',
  system: 'System',
};

/** What went wrong, in words that say what to do next. */
export const describeSearchError = (error: unknown): string => {
  if (isRateLimitError(error)) {
    const seconds = isApiError(error) ? error.retryAfterSeconds : undefined;
    return `Too many searches in a short time. Wait ${seconds ? `${seconds} seconds` : 'a few seconds'}, then try again.`;
  }
  if (isApiError(error)) {
    if (error.status === 401) return messages.auth.required;
    // Network failures and the server's own typed answers already say what to do.
    if (error.status === 0 || error.code) return error.message;
  }
  return 'The search failed on the server. Try again in a moment.';
};

const Guidance = ({ title, children }: { title: string; children: ReactNode }) => (
  <div className="px-4 py-8 text-center">
    <p className="font-medium">{title}</p>
    <div className="mx-auto mt-1 max-w-md text-sm text-muted-foreground">{children}</div>
  </div>
);

const HitOption = ({
  hit,
  id,
  active,
  onOpen,
  onHover,
}: {
  hit: MessageSearchHit;
  id: string;
  active: boolean;
  onOpen: () => void;
  onHover: () => void;
}) => (
  <li
    id={id}
    role="option"
    aria-selected={active}
    onClick={onOpen}
    onMouseMove={onHover}
    className={cn(
      'cursor-pointer rounded-md px-3 py-2',
      active ? 'bg-accent text-accent-foreground' : 'hover:bg-accent/50',
    )}
  >
    <div className="flex items-baseline justify-between gap-3 text-sm">
      <span className="truncate font-medium">{hit.conversation_title}</span>
      <time dateTime={hit.created_at} className="shrink-0 text-xs text-muted-foreground">
        {formatDateTime(hit.created_at)}
      </time>
    </div>
    <p className="mt-0.5 line-clamp-2 text-sm [overflow-wrap:anywhere]">
      <span className="mr-1.5 text-xs font-medium text-muted-foreground">
        {roleLabels[hit.role]}:
      </span>
      <Snippet text={hit.snippet} />
    </p>
  </li>
);

/** Everything inside the open dialog; mounted afresh each time it opens. */
const SearchPanel = ({
  titleId,
  onOpenHit,
}: {
  titleId: string;
  onOpenHit: (hit: MessageSearchHit) => void;
}) => {
  const [text, setText] = useState(lastText);
  const debounced = useDebounced(text, searchDelayMs);
  const search = useMessageSearch(debounced);
  const words = searchWords(debounced);
  const hits = (words.length > 0 ? search.data?.hits : undefined) ?? noHits;
  const [active, setActive] = useState(0);
  const [shownHits, setShownHits] = useState(hits);
  if (shownHits !== hits) {
    setShownHits(hits);
    setActive(0);
  }
  const listId = useId();
  const optionId = (index: number) => `${listId}-${index}`;
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.select();
  }, []);
  useEffect(() => {
    lastText = text;
  }, [text]);
  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, listId]);

  const typing = text.trim() !== debounced.trim();
  const waiting = typing || search.isFetching;
  const showResults = words.length > 0 && search.data !== undefined && !search.isError;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (hits.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => Math.min(hits.length - 1, Math.max(0, index + step)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const hit = hits[active];
      if (hit && !typing) onOpenHit(hit);
    }
  };

  let body;
  if (text.trim() === '') {
    body = (
      <Guidance title="Search inside your messages">
        Finds the messages of all your conversations, yours and the replies, that contain every word
        you type. A word also finds longer words it starts: “plan” finds “planning”. Capitals,
        accents written apart and punctuation do not matter. Replies replaced by Regenerate are not
        searched.
      </Guidance>
    );
  } else if (searchWords(text).length === 0) {
    body = (
      <Guidance title="Type a word to search for">
        Only letters and digits are searched; other characters just separate words.
      </Guidance>
    );
  } else if (search.isError && !typing) {
    body = (
      <div role="alert" className="flex flex-col items-center gap-3 px-4 py-8 text-center">
        <p className="flex items-start gap-2 text-sm text-destructive">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{describeSearchError(search.error)}</span>
        </p>
        <Button variant="outline" size="sm" onClick={() => void search.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (showResults && hits.length === 0 && !waiting) {
    body = (
      <Guidance title="No messages found">
        No message contains {words.length > 1 ? 'all of ' : ''}
        {words.map((word, index) => (
          <span key={word}>
            {index > 0 ? ', ' : ''}“{word}”
          </span>
        ))}
        . Check the spelling, use fewer words, or type only the start of a word.
      </Guidance>
    );
  } else if (!showResults) {
    body = <Guidance title="Searching…">Looking through your messages.</Guidance>;
  } else {
    body = (
      <ul
        id={listId}
        role="listbox"
        aria-label="Messages found"
        aria-busy={waiting || undefined}
        className={cn('grid gap-0.5 p-1', waiting && 'opacity-70')}
      >
        {hits.map((hit, index) => (
          <HitOption
            key={hit.message_id}
            id={optionId(index)}
            hit={hit}
            active={index === active}
            onOpen={() => onOpenHit(hit)}
            onHover={() => setActive(index)}
          />
        ))}
      </ul>
    );
  }

  let status = '';
  if (waiting && words.length > 0) status = 'Searching…';
  else if (showResults) {
    status =
      hits.length === 0
        ? 'No messages found'
        : `${hits.length}${hits.length === messageSearch.defaultLimit ? ' newest' : ''} message${hits.length === 1 ? '' : 's'} found`;
  }
  const listShown = showResults && hits.length > 0;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center gap-2 border-b px-3">
        <TextSearch aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
        <h2 id={titleId} className="sr-only">
          Search messages
        </h2>
        <input
          ref={inputRef}
          role="combobox"
          aria-labelledby={titleId}
          aria-expanded={listShown}
          aria-controls={listShown ? listId : undefined}
          aria-activedescendant={listShown && hits[active] ? optionId(active) : undefined}
          aria-autocomplete="list"
          autoFocus
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          maxLength={messageSearch.maxQueryLength}
          placeholder="Search messages…"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          className="h-12 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-muted-foreground md:text-sm"
        />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">{body}</div>
      <div className="flex items-center justify-between gap-3 border-t px-3 py-2 text-xs text-muted-foreground">
        <span role="status">{status}</span>
        <span className="hidden sm:inline">
          <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd> to move,{' '}
          <kbd className="font-sans">Enter</kbd> to open, <kbd className="font-sans">Esc</kbd> to
          close, <kbd className="font-sans">{searchShortcutLabel()}</kbd> from anywhere
        </span>
      </div>
    </div>
  );
};

/**
 * Search inside message text, over the native modal <dialog>: the browser keeps focus inside,
 * closes it on Escape and gives focus back to where it was. Opening a hit goes to its
 * conversation, scrolled to the message (`/chat/{id}?message={messageId}`).
 */
export const MessageSearchDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const openHit = (hit: MessageSearchHit) => {
    // Closed first, so the focus it gives back is in place before the chat moves it to the hit.
    ref.current?.close();
    onClose();
    announceMessageSearchHit();
    void navigate(
      `/chat/${encodeURIComponent(hit.conversation_id)}?message=${encodeURIComponent(hit.message_id)}`,
    );
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={() => {
        if (open) onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
      className="mx-auto mt-[10vh] mb-auto max-h-[80vh] w-[calc(100%-2rem)] max-w-2xl overflow-hidden rounded-lg border bg-background p-0 text-foreground shadow-lg backdrop:bg-black/50 open:flex open:flex-col"
    >
      {open ? <SearchPanel titleId={titleId} onOpenHit={openHit} /> : null}
    </dialog>
  );
};
