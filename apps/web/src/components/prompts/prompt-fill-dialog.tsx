import { useId, useState, type FormEvent } from 'react';
import type { Prompt, RenderedPrompt } from '@chorus/shared/api/prompts';
import { fillTemplate, missingVariables } from '@chorus/shared/template';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { renderPrompt } from '@/lib/queries/prompts';

type Values = Record<string, string>;

const initialValues = (prompt: Prompt): Values =>
  Object.fromEntries(prompt.variables.map((v) => [v.name, v.default ?? '']));

/** One field per variable, a live preview, and the server's fill on submit. */
const FillForm = ({
  prompt,
  submitLabel,
  onFilled,
  onCancel,
}: {
  prompt: Prompt;
  submitLabel: string;
  onFilled: (rendered: RenderedPrompt) => void;
  onCancel: () => void;
}) => {
  const [values, setValues] = useState<Values>(() => initialValues(prompt));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const id = useId();
  const missing = missingVariables([prompt.title, prompt.description, prompt.content], values);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      onFilled(await renderPrompt(prompt.id, values));
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="grid gap-4" onSubmit={(event) => void submit(event)}>
      {prompt.variables.map((variable, index) => {
        const fieldId = `${id}-${index}`;
        const required = variable.default === null;
        return (
          <div key={variable.name} className="grid gap-1.5">
            <Label htmlFor={fieldId}>
              {variable.name}
              {required ? (
                <span className="text-xs font-normal text-muted-foreground">(required)</span>
              ) : null}
            </Label>
            <Textarea
              id={fieldId}
              rows={2}
              // The first field takes the cursor when the form opens.
              autoFocus={index === 0}
              required={required}
              placeholder={variable.default ? `Default: ${variable.default}` : undefined}
              value={values[variable.name] ?? ''}
              onChange={(event) => setValues({ ...values, [variable.name]: event.target.value })}
            />
          </div>
        );
      })}
      <div className="grid gap-1.5">
        <p id={`${id}-preview`} className="text-sm font-medium">
          Preview
        </p>
        <pre
          aria-labelledby={`${id}-preview`}
          className="max-h-48 overflow-auto rounded-md border bg-muted/40 p-3 font-sans text-sm whitespace-pre-wrap"
        >
          {fillTemplate(prompt.content, values)}
        </pre>
      </div>
      <FormActions
        error={error}
        onCancel={onCancel}
        submitLabel={submitLabel}
        submitDisabled={pending || missing.length > 0}
      />
    </form>
  );
};

/**
 * Fills a saved prompt's `{{variables}}`: one field per variable (its default filled in), a
 * preview, and the text as the server fills it. Nothing in a prompt is ever run as code.
 */
export const PromptFillDialog = ({
  prompt,
  submitLabel = 'Insert',
  onFilled,
  onClose,
}: {
  prompt: Prompt | null;
  submitLabel?: string;
  onFilled: (rendered: RenderedPrompt, prompt: Prompt) => void;
  onClose: () => void;
}) => (
  <Dialog
    open={prompt !== null}
    title={prompt ? `Fill in “${prompt.title}”` : 'Fill in the prompt'}
    onClose={onClose}
    className="max-w-xl"
  >
    {prompt ? (
      <FillForm
        key={prompt.id}
        prompt={prompt}
        submitLabel={submitLabel}
        onFilled={(rendered) => onFilled(rendered, prompt)}
        onCancel={onClose}
      />
    ) : null}
  </Dialog>
);
