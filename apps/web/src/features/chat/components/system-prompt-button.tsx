import { ScrollText } from 'lucide-react';
import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { systemPromptMaxLength } from '@chorus/shared/api/conversations';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/utils';
import { useSystemPrompt } from '../hooks/system-prompt';

const SystemPromptForm = ({
  initial,
  isNew,
  onSave,
  onClose,
}: {
  initial: string;
  isNew: boolean;
  onSave: (next: string) => Promise<void>;
  onClose: () => void;
}) => {
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const helpId = useId();
  const tooLong = text.length > systemPromptMaxLength;
  const submit = async () => {
    setSaving(true);
    setError(null);
    try {
      await onSave(text.trim());
      onClose();
    } catch (cause) {
      setError(`The system prompt was not saved: ${errorMessage(cause)}`);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        // The composer's form is around this one in the React tree: saving must not send.
        event.stopPropagation();
        void submit();
      }}
    >
      <label htmlFor={fieldId} className="text-sm font-medium">
        Instructions for the model
      </label>
      <Textarea
        id={fieldId}
        aria-describedby={helpId}
        aria-invalid={tooLong || undefined}
        rows={8}
        value={text}
        autoFocus
        placeholder="For example: You are a concise assistant. Answer in British English."
        onChange={(event) => setText(event.target.value)}
      />
      <p id={helpId} className="text-xs text-muted-foreground">
        Sent before every message of {isNew ? 'the chat you start now' : 'this conversation'}, to
        whichever model answers. Leave it empty for none.{' '}
        <span className={cn('tabular-nums', tooLong && 'text-destructive')}>
          {text.length.toLocaleString()} / {systemPromptMaxLength.toLocaleString()}
        </span>
      </p>
      <FormActions
        error={error}
        onCancel={onClose}
        cancelVariant="ghost"
        submitLabel={saving ? 'Saving…' : 'Save'}
        submitDisabled={saving || tooLong}
      />
    </form>
  );
};

/** The per-conversation system prompt: a button beside the model picker, and its dialog. */
export const SystemPromptButton = ({
  conversationId,
  disabled,
}: {
  conversationId: string | undefined;
  disabled?: boolean;
}) => {
  const [open, setOpen] = useState(false);
  const { value, save } = useSystemPrompt(conversationId);
  const set = value.trim() !== '';
  return (
    <>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        disabled={disabled}
        aria-pressed={set}
        title={set ? 'System prompt (set)' : 'System prompt'}
        onClick={() => setOpen(true)}
        className={cn('h-8 gap-1.5 px-2 text-xs', set ? 'text-primary' : 'text-muted-foreground')}
      >
        <ScrollText aria-hidden="true" />
        <span className="hidden sm:inline">System prompt</span>
        <span className="sr-only sm:hidden">System prompt</span>
        {set ? <span aria-hidden="true" className="size-1.5 rounded-full bg-primary" /> : null}
      </Button>
      {/* Outside the composer's <form> in the page: the browser stops a nested form's submit
          at the outer form, before React could prevent it, and the page would reload. */}
      {createPortal(
        <Dialog open={open} title="System prompt" onClose={() => setOpen(false)}>
          {open ? (
            <SystemPromptForm
              initial={value}
              isNew={!conversationId}
              onSave={save}
              onClose={() => setOpen(false)}
            />
          ) : null}
        </Dialog>,
        document.body,
      )}
    </>
  );
};
