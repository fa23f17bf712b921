import { useId, useState, type FormEvent } from 'react';
import { promptLimits, type Prompt } from '@chorus/shared/api/prompts';
import { templateVariables } from '@chorus/shared/template';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { useCreatePrompt, useUpdatePrompt } from '@/lib/queries/prompts';
import { toast } from '@/lib/toast';

type Draft = {
  title: string;
  content: string;
  description: string;
  category: string;
  tags: string;
};

const draftOf = (prompt: Prompt | null): Draft => ({
  title: prompt?.title ?? '',
  content: prompt?.content ?? '',
  description: prompt?.description ?? '',
  category: prompt?.category ?? '',
  tags: prompt?.tags.join(', ') ?? '',
});

const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

const EditorForm = ({
  prompt,
  categories,
  onDone,
}: {
  prompt: Prompt | null;
  categories: string[];
  onDone: () => void;
}) => {
  const [draft, setDraft] = useState(() => draftOf(prompt));
  const [error, setError] = useState<string | null>(null);
  const create = useCreatePrompt();
  const update = useUpdatePrompt();
  const id = useId();
  const variables = templateVariables(draft.title, draft.description, draft.content);
  const pending = create.isPending || update.isPending;
  const set = (field: keyof Draft) => (value: string) => setDraft({ ...draft, [field]: value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const body = {
      title: draft.title,
      content: draft.content,
      description: draft.description,
      category: draft.category,
      tags: tagsOf(draft.tags),
    };
    try {
      if (prompt) {
        await update.mutateAsync({ id: prompt.id, patch: body });
        toast.success(`“${draft.title.trim()}” saved`);
      } else {
        await create.mutateAsync(body);
        toast.success(`“${draft.title.trim()}” added to your prompts`);
      }
      onDone();
    } catch (cause) {
      setError(errorMessage(cause));
    }
  };

  return (
    <form className="grid gap-4" onSubmit={(event) => void submit(event)}>
      <FormField
        label="Title"
        required
        maxLength={promptLimits.title}
        value={draft.title}
        onChange={(event) => set('title')(event.target.value)}
      />
      <div className="grid gap-2">
        <Label htmlFor={`${id}-content`}>Prompt</Label>
        <Textarea
          id={`${id}-content`}
          required
          rows={8}
          maxLength={promptLimits.content}
          aria-describedby={`${id}-variables`}
          value={draft.content}
          onChange={(event) => set('content')(event.target.value)}
          placeholder="Summarise {{text}} for {{audience|a busy reader}} in three bullet points."
        />
        <p id={`${id}-variables`} className="text-xs text-muted-foreground">
          {variables.length > 0
            ? `Variables: ${variables
                .map((v) => (v.default === null ? v.name : `${v.name} (default “${v.default}”)`))
                .join(', ')}. They are filled in each time the prompt is used.`
            : 'Write {{name}} for a value filled in when the prompt is used, or {{name|default}} to give it a default. Variables work in the title and description too.'}
        </p>
      </div>
      <FormField
        label="Description"
        maxLength={promptLimits.description}
        value={draft.description}
        onChange={(event) => set('description')(event.target.value)}
        hint="What it is for; shown in the list and in the chat's / picker."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Category"
          maxLength={promptLimits.category}
          list={`${id}-categories`}
          value={draft.category}
          onChange={(event) => set('category')(event.target.value)}
          hint="Your own, e.g. Writing or Code."
        />
        <datalist id={`${id}-categories`}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <FormField
          label="Tags"
          value={draft.tags}
          onChange={(event) => set('tags')(event.target.value)}
          hint={`Separated by commas, at most ${promptLimits.tags}.`}
        />
      </div>
      <FormActions
        error={error}
        onCancel={onDone}
        submitLabel={prompt ? 'Save a new version' : 'Add prompt'}
        submitDisabled={pending}
      />
    </form>
  );
};

/** Writes a new prompt, or changes one (every change is kept as a version). */
export const PromptEditorDialog = ({
  open,
  prompt,
  categories,
  onClose,
}: {
  open: boolean;
  prompt: Prompt | null;
  categories: string[];
  onClose: () => void;
}) => (
  <Dialog
    open={open}
    title={prompt ? `Edit “${prompt.title}”` : 'New prompt'}
    onClose={onClose}
    className="max-w-2xl"
  >
    {open ? (
      <EditorForm
        key={prompt?.id ?? 'new'}
        prompt={prompt}
        categories={categories}
        onDone={onClose}
      />
    ) : null}
  </Dialog>
);
