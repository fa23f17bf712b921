import { Plus, X } from 'lucide-react';
import { customAiLimits, type CustomAi } from '@chorus/shared/api/custom-ais';
import { EditorDialog, useEditorForm } from '@/components/forms/draft-form';
import { TextField } from '@/components/forms/field';
import { TemperatureField, type PersonaCopy } from '@/components/persona/persona-fields';
import { PersonaForm } from '@/components/persona/persona-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { defaultAiProvider } from '@/lib/providers';
import { useCreateCustomAi, useUpdateCustomAi } from '../api/custom-ais';
import { bodyOf, draftOf, type DraftErrors } from './custom-ai-draft';

const copy: PersonaCopy = {
  noun: 'custom AI',
  limits: {
    name: customAiLimits.name,
    avatar: customAiLimits.avatar,
    description: customAiLimits.description,
    instructions: customAiLimits.systemPrompt,
  },
  avatarChoices: ['🤖', '🦜', '🧠', '📚', '✍️', '🧑‍💻', '🎨', '🔬', '⚖️', '🩺'],
  namePlaceholder: 'e.g. Contract reviewer',
  descriptionHint: 'What it is for; shown on its card and when a chat with it starts.',
  instructionsHint:
    'The system prompt: what the model is told before every conversation — its role, its tone, what to do and what not to.',
  instructionsPlaceholder:
    'You review contracts for a small business. Point out risky clauses in plain words, quote them, and suggest fairer wording.',
};

const Starters = ({
  starters,
  errors,
  onChange,
}: {
  starters: string[];
  errors: DraftErrors;
  onChange: (starters: string[]) => void;
}) => {
  const full = starters.length >= customAiLimits.starters;
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">Conversation starters</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        Shown as buttons in a new chat with this custom AI; a click sends one. Up to{' '}
        {customAiLimits.starters}.
      </p>
      {starters.length > 0 ? (
        <ol className="grid gap-2">
          {starters.map((starter, index) => {
            const error = errors[`starters.${index}`];
            return (
              // Starters are edited in place: their place is who they are.
              <li key={index} className="grid gap-1">
                <div className="flex items-center gap-1">
                  <Input
                    aria-label={`Conversation starter ${index + 1}`}
                    aria-invalid={error ? true : undefined}
                    maxLength={customAiLimits.starter}
                    value={starter}
                    placeholder="Explain this to me like I am new to it"
                    onChange={(event) =>
                      onChange(starters.map((s, i) => (i === index ? event.target.value : s)))
                    }
                  />
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove conversation starter ${index + 1}`}
                    title="Remove"
                    onClick={() => onChange(starters.filter((_, i) => i !== index))}
                  >
                    <X aria-hidden="true" />
                  </Button>
                </div>
                {error ? <p className="text-sm text-destructive">{error}</p> : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      {errors.starters ? <p className="text-sm text-destructive">{errors.starters}</p> : null}
      <div>
        <Button
          variant="outline"
          size="sm"
          disabled={full}
          onClick={() => onChange([...starters, ''])}
        >
          <Plus aria-hidden="true" /> Add a starter
        </Button>
      </div>
    </fieldset>
  );
};

const CustomAiForm = ({
  ai,
  onDone,
  onCancel,
}: {
  ai: CustomAi | null;
  onDone: (saved: CustomAi) => void;
  onCancel: () => void;
}) => {
  const form = useEditorForm({
    item: ai,
    initial: () => draftOf(ai, defaultAiProvider),
    check: bodyOf,
    create: useCreateCustomAi(),
    update: useUpdateCustomAi(),
    onDone,
  });
  const { draft, errors, set, setDraft, setErrors } = form;

  return (
    <PersonaForm
      form={form}
      copy={copy}
      onProviderChange={(provider) => setDraft((current) => ({ ...current, provider, model: '' }))}
      onCancel={onCancel}
      submitLabel={ai ? 'Save' : 'Create custom AI'}
      knowledge={{
        limit: customAiLimits.knowledgeBases,
        description: `Every reply searches the ones you tick and cites the passages it uses (at most ${customAiLimits.knowledgeBases}).`,
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1.5 text-sm font-medium">Parameters</legend>
        <p className="-mt-1 text-xs text-muted-foreground">
          Leave a field empty for the provider’s default.
        </p>
        <div className="grid gap-4 sm:grid-cols-3">
          <TemperatureField
            provider={draft.provider}
            value={draft.temperature}
            error={errors.temperature}
            hint="From 0 to 2."
            onChange={(value) => set('temperature', value)}
          />
          <TextField
            label="Top P"
            error={errors.topP}
            hint="From 0 to 1."
            inputMode="decimal"
            value={draft.topP}
            placeholder="Default"
            onChange={(value) => set('topP', value)}
          />
          <TextField
            label="Max tokens"
            error={errors.maxTokens}
            hint="The longest reply."
            inputMode="numeric"
            value={draft.maxTokens}
            placeholder="Default"
            onChange={(value) => set('maxTokens', value)}
          />
        </div>
      </fieldset>
      <Starters
        starters={draft.starters}
        errors={errors}
        onChange={(starters) => {
          setDraft((current) => ({ ...current, starters }));
          setErrors({});
        }}
      />
    </PersonaForm>
  );
};

/** Creates a custom AI, or edits one. */
export const CustomAiDialog = ({
  open,
  ai,
  onClose,
  onSaved,
}: {
  open: boolean;
  ai: CustomAi | null;
  onClose: () => void;
  onSaved: (ai: CustomAi) => void;
}) => (
  <EditorDialog open={open} item={ai} newTitle="New custom AI" onClose={onClose}>
    {(item) => <CustomAiForm ai={item} onDone={onSaved} onCancel={onClose} />}
  </EditorDialog>
);
