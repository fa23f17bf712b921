import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  defaultTemperature,
  isProviderId,
  providers,
  type ModelOption,
  type ProviderId,
} from '@chorus/shared/providers';
import { useModelGroups } from '@/components/chat/use-model-groups';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';
import { Field, TextAreaField, TextField } from '@/components/forms/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { readPreferredModels } from '@/lib/chat/provider-settings';
import { providerList } from '@/lib/providers';
import { useEnabledProviders } from '@/lib/queries/enabled-providers';
import { useKeyAvailability } from '@/lib/queries/key-availability';
import { useKnowledgeBases } from '@/lib/queries/knowledge-bases';
import { cn } from '@/lib/utils';

const linkClass = 'text-primary underline underline-offset-4';

/**
 * What a custom AI and an agent both are, as their forms type it: a name, an avatar, what it is
 * for, its instructions and the model that follows them. Numbers stay text until sent.
 */
export type PersonaDraft = {
  name: string;
  avatar: string;
  description: string;
  instructions: string;
  provider: ProviderId;
  /** '' for the provider's default model. */
  model: string;
  temperature: string;
  knowledgeBaseIds: string[];
};

export type PersonaErrors = Partial<Record<keyof PersonaDraft, string>>;

/** How one kind of persona words and bounds the shared fields. */
export type PersonaCopy = {
  /** What it is called in hints: "custom AI", "agent". */
  noun: string;
  limits: { name: number; avatar: number; description: number; instructions: number };
  avatarChoices: readonly string[];
  namePlaceholder: string;
  nameHint?: ReactNode;
  descriptionHint: string;
  instructionsHint: string;
  instructionsPlaceholder: string;
  modelHint?: string;
};

/** A provider's models, the user's preferred ones first; '' is the provider's default. */
export const ModelSelect = ({
  id,
  provider,
  model,
  onChange,
}: {
  id: string;
  provider: ProviderId;
  model: string;
  onChange: (model: string) => void;
}) => {
  const entry = providers[provider];
  const [preferredIds] = useState(readPreferredModels);
  const { groups, loading } = useModelGroups(provider, model || entry.defaultModel, preferredIds);
  const all = [...groups.preferred, ...groups.others];
  const defaultLabel = all.find((m) => m.value === entry.defaultModel)?.label ?? entry.defaultModel;
  const renderOption = (option: ModelOption) => (
    <option key={option.value} value={option.value} title={option.description}>
      {option.label}
    </option>
  );
  return (
    <NativeSelect id={id} value={model} onChange={(event) => onChange(event.target.value)}>
      <option value="">Provider default ({defaultLabel})</option>
      {model && !all.some((m) => m.value === model) ? <option value={model}>{model}</option> : null}
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

/** The providers to pick from: those an admin turned off are shown but cannot be chosen. */
export const ProviderSelect = ({
  id,
  describedBy,
  provider,
  onChange,
}: {
  id: string;
  describedBy: string | undefined;
  provider: ProviderId;
  onChange: (provider: ProviderId) => void;
}) => {
  const enabled = useEnabledProviders();
  return (
    <NativeSelect
      id={id}
      aria-describedby={describedBy}
      value={provider}
      onChange={(event) => {
        const next = event.target.value;
        if (isProviderId(next)) onChange(next);
      }}
    >
      {providerList.map((option) => {
        const off = enabled !== undefined && !enabled.includes(option.id);
        return (
          <option key={option.id} value={option.id} disabled={off && option.id !== provider}>
            {off ? `${option.name} (turned off by an admin)` : option.name}
          </option>
        );
      })}
    </NativeSelect>
  );
};

const KeyHint = ({ provider, noun }: { provider: ProviderId; noun: string }) => {
  const entry = useKeyAvailability().data?.find((item) => item.provider === provider);
  if (!entry || (entry.enabled && entry.source !== null)) return null;
  return (
    <p role="note" className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs">
      You have no {providers[provider].name} key: this {noun} cannot answer until you add one on the{' '}
      <Link to="/copy-api-keys" className={linkClass}>
        API keys page
      </Link>
      . It always runs on your own keys and quota.
    </p>
  );
};

const AvatarField = ({
  name,
  avatar,
  error,
  maxLength,
  choices,
  onChange,
}: {
  name: string;
  avatar: string;
  error: string | undefined;
  maxLength: number;
  choices: readonly string[];
  onChange: (avatar: string) => void;
}) => (
  <Field
    label="Avatar"
    error={error}
    hint="An emoji, or up to two letters. Left empty, its initials show."
  >
    {({ id, describedBy, invalid }) => (
      <div className="flex flex-wrap items-center gap-2">
        <CustomAiAvatar name={name || '?'} avatar={avatar} />
        <Input
          id={id}
          className="w-20"
          maxLength={maxLength}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={avatar}
          onChange={(event) => onChange(event.target.value)}
        />
        <div className="flex flex-wrap gap-1" role="group" aria-label="Pick an avatar">
          {choices.map((emoji) => (
            <button
              key={emoji}
              type="button"
              aria-label={`Use ${emoji} as the avatar`}
              aria-pressed={avatar === emoji}
              className={cn(
                'flex size-8 items-center justify-center rounded-full border text-base hover:bg-muted',
                avatar === emoji && 'border-primary bg-primary/10',
              )}
              onClick={() => onChange(emoji)}
            >
              {emoji}
            </button>
          ))}
        </div>
      </div>
    )}
  </Field>
);

/**
 * A persona's name, avatar, description and instructions, then its provider and model (with a
 * note when the user has no key for that provider).
 */
export const PersonaFields = ({
  draft,
  errors,
  set,
  onProviderChange,
  copy,
}: {
  draft: PersonaDraft;
  errors: PersonaErrors;
  /** A field's new value; its error goes. */
  set(field: 'name' | 'avatar' | 'description' | 'instructions' | 'model', value: string): void;
  /** Another provider: its default model, and the error stays till the next save. */
  onProviderChange: (provider: ProviderId) => void;
  copy: PersonaCopy;
}) => (
  <>
    <TextField
      label="Name"
      error={errors.name}
      hint={copy.nameHint}
      maxLength={copy.limits.name}
      value={draft.name}
      placeholder={copy.namePlaceholder}
      onChange={(value) => set('name', value)}
    />
    <AvatarField
      name={draft.name}
      avatar={draft.avatar}
      error={errors.avatar}
      maxLength={copy.limits.avatar}
      choices={copy.avatarChoices}
      onChange={(value) => set('avatar', value)}
    />
    <TextAreaField
      label="Description"
      error={errors.description}
      hint={copy.descriptionHint}
      rows={2}
      maxLength={copy.limits.description}
      value={draft.description}
      onChange={(value) => set('description', value)}
    />
    <TextAreaField
      label="Instructions"
      error={errors.instructions}
      hint={copy.instructionsHint}
      rows={6}
      maxLength={copy.limits.instructions}
      value={draft.instructions}
      placeholder={copy.instructionsPlaceholder}
      onChange={(value) => set('instructions', value)}
    />
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Provider" error={errors.provider}>
        {({ id, describedBy }) => (
          <ProviderSelect
            id={id}
            describedBy={describedBy}
            provider={draft.provider}
            onChange={onProviderChange}
          />
        )}
      </Field>
      <Field label="Model" error={errors.model} hint={copy.modelHint}>
        {({ id }) => (
          <ModelSelect
            id={id}
            provider={draft.provider}
            model={draft.model}
            onChange={(model) => set('model', model)}
          />
        )}
      </Field>
    </div>
    <KeyHint provider={draft.provider} noun={copy.noun} />
  </>
);

/** The sampling temperature, empty for the provider's default (shown as the placeholder). */
export const TemperatureField = ({
  provider,
  value,
  error,
  hint,
  onChange,
}: {
  provider: ProviderId;
  value: string;
  error: string | undefined;
  hint: string;
  onChange: (value: string) => void;
}) => (
  <TextField
    label="Temperature"
    error={error}
    hint={hint}
    inputMode="decimal"
    value={value}
    placeholder={`Default (${defaultTemperature[provider].toFixed(1)})`}
    onChange={onChange}
  />
);

/** The user's knowledge bases to tick, at most `limit` of them. */
export const KnowledgeBasePicker = ({
  selected,
  onChange,
  error,
  limit,
  noun,
  description,
  legend = 'Knowledge bases',
}: {
  selected: string[];
  onChange: (ids: string[]) => void;
  error: string | undefined;
  limit: number;
  /** What searches them, in "to let this … search and cite them". */
  noun: string;
  /** What ticking one does; none to say nothing. */
  description?: ReactNode;
  /** The fieldset's name, "Knowledge bases" unless given. */
  legend?: string;
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
        to let this {noun} search and cite them.
      </p>
    );
  } else {
    const full = selected.length >= limit;
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
      <legend className="mb-1.5 text-sm font-medium">{legend}</legend>
      {description !== undefined ? (
        <p className="-mt-1 text-xs text-muted-foreground">{description}</p>
      ) : null}
      {body}
      {error ? <p className="text-sm text-destructive">{error}</p> : null}
    </fieldset>
  );
};

/** Under a persona's form: whose keys it runs on and who sees it. */
export const OwnKeysNote = ({ provider, more }: { provider: ProviderId; more?: string }) => (
  <p className="text-xs text-muted-foreground">
    It answers with {providers[provider].name} on your own keys and quota, and only you can see it.
    {more ? ` ${more}` : null}
  </p>
);
