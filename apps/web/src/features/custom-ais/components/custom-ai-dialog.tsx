import { Plus, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { customAiLimits, type CustomAi } from '@chorus/shared/api/custom-ais';
import {
  defaultTemperature,
  isProviderId,
  providers,
  type ModelOption,
} from '@chorus/shared/providers';
import { useModelGroups } from '@/components/chat/use-model-groups';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { readPreferredModels } from '@/lib/chat/provider-settings';
import { defaultAiProvider, providerList } from '@/lib/providers';
import { useEnabledProviders } from '@/lib/queries/enabled-providers';
import { useKeyAvailability } from '@/lib/queries/key-availability';
import { useKnowledgeBases } from '@/lib/queries/knowledge-bases';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useCreateCustomAi, useUpdateCustomAi } from '../api/custom-ais';
import { bodyOf, draftOf, type CustomAiDraft, type DraftErrors } from './custom-ai-draft';

const linkClass = 'text-primary underline underline-offset-4';

const avatarChoices = ['🤖', '🦜', '🧠', '📚', '✍️', '🧑‍💻', '🎨', '🔬', '⚖️', '🩺'];

/** A field's label, its control (given the ids to wire up) and its error or hint under it. */
const Field = ({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) => {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
};

const ModelSelect = ({
  draft,
  onChange,
  id,
}: {
  draft: CustomAiDraft;
  onChange: (model: string) => void;
  id: string;
}) => {
  const entry = providers[draft.provider];
  const [preferredIds] = useState(readPreferredModels);
  const { groups, loading } = useModelGroups(
    draft.provider,
    draft.model || entry.defaultModel,
    preferredIds,
  );
  const all = [...groups.preferred, ...groups.others];
  const defaultLabel = all.find((m) => m.value === entry.defaultModel)?.label ?? entry.defaultModel;
  const renderOption = (option: ModelOption) => (
    <option key={option.value} value={option.value} title={option.description}>
      {option.label}
    </option>
  );
  return (
    <NativeSelect id={id} value={draft.model} onChange={(event) => onChange(event.target.value)}>
      <option value="">Provider default ({defaultLabel})</option>
      {draft.model && !all.some((m) => m.value === draft.model) ? (
        <option value={draft.model}>{draft.model}</option>
      ) : null}
      {groups.preferred.length > 0 ? (
        <>
          <optgroup label="Preferred">{groups.preferred.map(renderOption)}</optgroup>
          <optgroup label={loading ? 'Loading models…' : 'All models'}>
            {groups.others.map(renderOption)}
          </optgroup>
        </>
      ) : (
        groups.others.map(renderOption)
      )}
    </NativeSelect>
  );
};

const KeyHint = ({ provider }: { provider: CustomAiDraft['provider'] }) => {
  const entry = useKeyAvailability().data?.find((item) => item.provider === provider);
  if (!entry || (entry.enabled && entry.source !== null)) return null;
  return (
    <p role="note" className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs">
      You have no {providers[provider].name} key: this custom AI cannot answer until you add one on
      the{' '}
      <Link to="/copy-api-keys" className={linkClass}>
        API keys page
      </Link>
      . It always runs on your own keys and quota.
    </p>
  );
};

const KnowledgeChoices = ({
  selected,
  onChange,
  error,
}: {
  selected: string[];
  onChange: (ids: string[]) => void;
  error: string | undefined;
}) => {
  const bases = useKnowledgeBases();
  let body;
  if (bases.isPending) body = <Spinner className="size-5" label="Loading your knowledge bases" />;
  else if (bases.isError) {
    body = (
      <p role="alert" className="text-sm text-destructive">
        Your knowledge bases could not be loaded: {errorMessage(bases.error)}
      </p>
    );
  } else if (bases.data.knowledge_bases.length === 0) {
    body = (
      <p className="text-sm text-muted-foreground">
        You have no knowledge bases yet.{' '}
        <Link to="/knowledge-base" className={linkClass}>
          Create one and upload documents
        </Link>{' '}
        to let this custom AI search and cite them.
      </p>
    );
  } else {
    const full = selected.length >= customAiLimits.knowledgeBases;
    body = (
      <ul className="grid max-h-48 gap-1 overflow-y-auto rounded-md border p-1">
        {bases.data.knowledge_bases.map((base) => {
          const checked = selected.includes(base.id);
          return (
            <li key={base.id}>
              <label
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded px-1.5 py-1 text-sm hover:bg-muted',
                  !checked && full && 'cursor-not-allowed opacity-50',
                )}
              >
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={!checked && full}
                  onChange={() =>
                    onChange(
                      checked ? selected.filter((id) => id !== base.id) : [...selected, base.id],
                    )
                  }
                />
                <span className="min-w-0 truncate">{base.name}</span>
              </label>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">Knowledge bases</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        Every reply searches the ones you tick and cites the passages it uses (at most{' '}
        {customAiLimits.knowledgeBases}).
      </p>
      {body}
      {error ? <p className="text-sm text-destructive">{error}</p> : null}
    </fieldset>
  );
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
  const [draft, setDraft] = useState(() => draftOf(ai, defaultAiProvider));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateCustomAi();
  const update = useUpdateCustomAi();
  const enabled = useEnabledProviders();
  const formRef = useRef<HTMLFormElement>(null);
  const set = <K extends keyof CustomAiDraft>(field: K, value: CustomAiDraft[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    if (errors[field as keyof DraftErrors]) setErrors({ ...errors, [field]: undefined });
  };

  // After a refused submit, the first field to fix gets the cursor.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = bodyOf(draft);
    if (!checked.body) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const saved = ai
        ? await update.mutateAsync({ id: ai.id, patch: checked.body })
        : await create.mutateAsync(checked.body);
      toast.success(ai ? `“${saved.name}” saved` : `“${saved.name}” created`);
      onDone(saved);
    } catch (cause) {
      setFailure(errorMessage(cause));
    }
  };

  const entry = providers[draft.provider];
  return (
    <form ref={formRef} noValidate className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <Field label="Name" error={errors.name}>
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            maxLength={customAiLimits.name}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.name}
            placeholder="e.g. Contract reviewer"
            onChange={(event) => set('name', event.target.value)}
          />
        )}
      </Field>
      <Field
        label="Avatar"
        error={errors.avatar}
        hint="An emoji, or up to two letters. Left empty, its initials show."
      >
        {({ id, describedBy, invalid }) => (
          <div className="flex flex-wrap items-center gap-2">
            <CustomAiAvatar name={draft.name || '?'} avatar={draft.avatar} />
            <Input
              id={id}
              className="w-20"
              maxLength={customAiLimits.avatar}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              value={draft.avatar}
              onChange={(event) => set('avatar', event.target.value)}
            />
            <div className="flex flex-wrap gap-1" role="group" aria-label="Pick an avatar">
              {avatarChoices.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  aria-label={`Use ${emoji} as the avatar`}
                  aria-pressed={draft.avatar === emoji}
                  className={cn(
                    'flex size-8 items-center justify-center rounded-full border text-base hover:bg-muted',
                    draft.avatar === emoji && 'border-primary bg-primary/10',
                  )}
                  onClick={() => set('avatar', emoji)}
                >
                  {emoji}
                </button>
              ))}
            </div>
          </div>
        )}
      </Field>
      <Field
        label="Description"
        error={errors.description}
        hint="What it is for; shown on its card and when a chat with it starts."
      >
        {({ id, describedBy, invalid }) => (
          <Textarea
            id={id}
            rows={2}
            maxLength={customAiLimits.description}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.description}
            onChange={(event) => set('description', event.target.value)}
          />
        )}
      </Field>
      <Field
        label="Instructions"
        error={errors.systemPrompt}
        hint="The system prompt: what the model is told before every conversation — its role, its tone, what to do and what not to."
      >
        {({ id, describedBy, invalid }) => (
          <Textarea
            id={id}
            rows={6}
            maxLength={customAiLimits.systemPrompt}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.systemPrompt}
            placeholder="You review contracts for a small business. Point out risky clauses in plain words, quote them, and suggest fairer wording."
            onChange={(event) => set('systemPrompt', event.target.value)}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Provider" error={errors.provider}>
          {({ id, describedBy }) => (
            <NativeSelect
              id={id}
              aria-describedby={describedBy}
              value={draft.provider}
              onChange={(event) => {
                const next = event.target.value;
                if (!isProviderId(next)) return;
                setDraft((current) => ({ ...current, provider: next, model: '' }));
              }}
            >
              {providerList.map((option) => {
                const off = enabled !== undefined && !enabled.includes(option.id);
                return (
                  <option
                    key={option.id}
                    value={option.id}
                    disabled={off && option.id !== draft.provider}
                  >
                    {off ? `${option.name} (turned off by an admin)` : option.name}
                  </option>
                );
              })}
            </NativeSelect>
          )}
        </Field>
        <Field label="Model" error={errors.model}>
          {({ id }) => (
            <ModelSelect id={id} draft={draft} onChange={(model) => set('model', model)} />
          )}
        </Field>
      </div>
      <KeyHint provider={draft.provider} />
      <fieldset className="grid gap-2">
        <legend className="mb-1.5 text-sm font-medium">Parameters</legend>
        <p className="-mt-1 text-xs text-muted-foreground">
          Leave a field empty for the provider’s default.
        </p>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="Temperature" error={errors.temperature} hint="From 0 to 2.">
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                inputMode="decimal"
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                value={draft.temperature}
                placeholder={`Default (${defaultTemperature[draft.provider].toFixed(1)})`}
                onChange={(event) => set('temperature', event.target.value)}
              />
            )}
          </Field>
          <Field label="Top P" error={errors.topP} hint="From 0 to 1.">
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                inputMode="decimal"
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                value={draft.topP}
                placeholder="Default"
                onChange={(event) => set('topP', event.target.value)}
              />
            )}
          </Field>
          <Field label="Max tokens" error={errors.maxTokens} hint="The longest reply.">
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                inputMode="numeric"
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                value={draft.maxTokens}
                placeholder="Default"
                onChange={(event) => set('maxTokens', event.target.value)}
              />
            )}
          </Field>
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
      <KnowledgeChoices
        selected={draft.knowledgeBaseIds}
        error={errors.knowledgeBaseIds}
        onChange={(ids) => set('knowledgeBaseIds', ids)}
      />
      <p className="text-xs text-muted-foreground">
        It answers with {entry.name} on your own keys and quota, and only you can see it.
      </p>
      <FormActions
        error={failure}
        onCancel={onCancel}
        submitLabel={ai ? 'Save' : 'Create custom AI'}
        submitDisabled={create.isPending || update.isPending}
      />
    </form>
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
  <Dialog
    open={open}
    title={ai ? `Edit “${ai.name}”` : 'New custom AI'}
    onClose={onClose}
    className="max-w-2xl"
  >
    {open ? (
      <CustomAiForm key={ai?.id ?? 'new'} ai={ai} onDone={onSaved} onCancel={onClose} />
    ) : null}
  </Dialog>
);
