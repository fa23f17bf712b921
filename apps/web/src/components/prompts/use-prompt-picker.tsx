import { ScrollText } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import type { Prompt, RenderedPrompt } from '@chorus/shared/api/prompts';
import { errorMessage } from '@/lib/api-error';
import { renderPrompt, usePromptSuggestions } from '@/lib/queries/prompts';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { PromptFillDialog } from './prompt-fill-dialog';

/** `/` then up to 60 characters on one line: the composer is asking for a saved prompt. */
const slashPattern = /^\/([^\n]{0,60})$/;

type Options = {
  draft: string;
  /** Puts the filled prompt in the composer, and remembers which prompt it came from. */
  onInsert: (text: string, prompt: Prompt) => void;
};

/**
 * The composer's `/` command: a list of saved prompts matching what follows the slash, chosen
 * with the arrows and Enter (or a click). A prompt with variables opens its fill-in form first.
 * The text box keeps focus throughout; the list is its active descendant.
 */
export const usePromptPicker = ({ draft, onInsert }: Options) => {
  const match = slashPattern.exec(draft);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const open = match !== null && dismissedFor !== draft;
  const query = match?.[1]?.trim() ?? '';
  const suggestions = usePromptSuggestions(query, open);
  const items = open ? (suggestions.data?.items ?? []) : [];
  const [active, setActive] = useState(0);
  const [activeFor, setActiveFor] = useState(query);
  if (activeFor !== query) {
    setActiveFor(query);
    setActive(0);
  }
  const [filling, setFilling] = useState<Prompt | null>(null);
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;

  const insert = (rendered: RenderedPrompt, prompt: Prompt) => {
    setFilling(null);
    onInsert(rendered.content, prompt);
  };

  const choose = (prompt: Prompt) => {
    setDismissedFor(draft);
    if (prompt.variables.length > 0) {
      setFilling(prompt);
      return;
    }
    renderPrompt(prompt.id, {}).then(
      (rendered) => insert(rendered, prompt),
      (error: unknown) =>
        toast.error(`Could not insert “${prompt.title}”`, { description: errorMessage(error) }),
    );
  };

  /** Handles the keys the list takes while it is open; true when it took this one. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'Escape') {
      setDismissedFor(draft);
      return true;
    }
    if (items.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + items.length) % items.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      const prompt = items[Math.min(active, items.length - 1)];
      if (prompt) choose(prompt);
      return true;
    }
    return false;
  };

  const textboxProps = open
    ? {
        'aria-controls': listId,
        'aria-autocomplete': 'list' as const,
        'aria-activedescendant': items.length > 0 ? optionId(active) : undefined,
      }
    : {};

  const list = open ? (
    <div className="rounded-lg border bg-popover text-popover-foreground shadow-md">
      <p className="flex items-center gap-2 border-b px-3 py-2 text-xs text-muted-foreground">
        <ScrollText aria-hidden="true" className="size-3.5" />
        Saved prompts · ↑↓ to choose, Enter to insert, Esc to close
      </p>
      <ul
        id={listId}
        role="listbox"
        aria-label="Saved prompts"
        className="max-h-64 overflow-y-auto p-1"
      >
        {items.map((prompt, index) => (
          <li
            key={prompt.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            // The text box keeps focus: a click must not take it.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(prompt)}
            onMouseEnter={() => setActive(index)}
            className={cn(
              'cursor-pointer rounded-md px-3 py-2 text-sm',
              index === active && 'bg-accent text-accent-foreground',
            )}
          >
            <span className="font-medium">{prompt.title}</span>
            {prompt.variables.length > 0 ? (
              <span className="ml-2 text-xs text-muted-foreground">
                {prompt.variables.map((v) => `{{${v.name}}}`).join(' ')}
              </span>
            ) : null}
            <span className="block truncate text-xs text-muted-foreground">
              {prompt.description || prompt.content}
            </span>
          </li>
        ))}
      </ul>
      {suggestions.isError ? (
        <p role="alert" className="px-3 py-2 text-sm text-destructive">
          {errorMessage(suggestions.error)}
        </p>
      ) : items.length === 0 && !suggestions.isPending ? (
        <p className="px-3 py-2 text-sm text-muted-foreground">
          {query ? `No saved prompt matches “${query}”. ` : 'You have no saved prompts yet. '}
          <Link to="/prompts" className="font-medium text-foreground underline underline-offset-2">
            Open the prompt library
          </Link>{' '}
          to write one.
        </p>
      ) : null}
    </div>
  ) : null;

  const dialog = (
    <PromptFillDialog prompt={filling} onFilled={insert} onClose={() => setFilling(null)} />
  );

  return { open, list, dialog, onKeyDown, textboxProps, fill: setFilling };
};
