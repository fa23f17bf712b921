import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { LibraryKind } from '@chorus/shared/api/library';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { useCreateLibraryEntry } from '../api/create-library-entry';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** An admin adds a curated prompt (with its text and tags) or scenario (with its steps). */
export const AdminPromptsForm = ({ kind, onDone }: { kind: LibraryKind; onDone: () => void }) => {
  const create = useCreateLibraryEntry();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState('');
  const [body, setBody] = useState('');
  const [tags, setTags] = useState('');
  const [published, setPublished] = useState(true);
  const [featured, setFeatured] = useState(false);
  const [errors, setErrors] = useState<{ title?: string; body?: string }>({});
  const bodyId = useId();
  const noun = kind === 'prompts' ? 'prompt' : 'scenario';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!title.trim()) found.title = 'Give it a title';
    if (kind === 'prompts' ? !body.trim() : lines(body).length === 0) {
      found.body = kind === 'prompts' ? 'Write the prompt' : 'Add at least one step';
    }
    setErrors(found);
    if (found.title || found.body) return;
    const common = { title, description, category, published, featured };
    const input =
      kind === 'prompts'
        ? ({
            kind,
            entry: {
              ...common,
              content: body,
              tags: tags
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            },
          } as const)
        : ({ kind, entry: { ...common, steps: lines(body) } } as const);
    create.mutate(input, {
      onSuccess: () => {
        toast.success(`The ${noun} was added`);
        onDone();
      },
      onError: (error) =>
        toast.error(`Could not add the ${noun}`, { description: errorMessage(error) }),
    });
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={`New ${noun}`}
      className="grid gap-4 rounded-xl border bg-card p-5 shadow-sm"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Title"
          name="title"
          maxLength={200}
          value={title}
          error={errors.title}
          onChange={(event) => setTitle(event.target.value)}
        />
        <FormField
          label="Category"
          name="category"
          maxLength={60}
          placeholder="General"
          value={category}
          onChange={(event) => setCategory(event.target.value)}
        />
      </div>
      <FormField
        label="Description"
        name="description"
        maxLength={2000}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <div className="grid gap-2">
        <Label htmlFor={bodyId}>{kind === 'prompts' ? 'Prompt' : 'Steps (one per line)'}</Label>
        <Textarea
          id={bodyId}
          rows={5}
          value={body}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? `${bodyId}-error` : undefined}
          onChange={(event) => setBody(event.target.value)}
        />
        {errors.body ? (
          <p id={`${bodyId}-error`} className="text-sm text-destructive">
            {errors.body}
          </p>
        ) : null}
      </div>
      {kind === 'prompts' ? (
        <FormField
          label="Tags (comma separated)"
          name="tags"
          value={tags}
          onChange={(event) => setTags(event.target.value)}
        />
      ) : null}
      <div className="flex flex-wrap gap-6 text-sm">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className="size-4"
            checked={published}
            onChange={(event) => setPublished(event.target.checked)}
          />
          Published
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className="size-4"
            checked={featured}
            onChange={(event) => setFeatured(event.target.checked)}
          />
          Featured (also publishes)
        </label>
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={create.isPending}>
          Add {noun}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
};
