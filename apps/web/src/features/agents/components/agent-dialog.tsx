import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { agentHandle, agentLimits, type Agent } from '@chorus/shared/api/agents';
import {
  defaultTemperature,
  isProviderId,
  providers,
  type ModelOption,
} from '@chorus/shared/providers';
import { useModelGroups } from '@/components/chat/use-model-groups';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { Field, fieldOfServerError } from '@/lib/agents-tools/form-field';
import { errorMessage } from '@/lib/api-error';
import { readPreferredModels } from '@/lib/chat/provider-settings';
import { defaultAiProvider, providerList } from '@/lib/providers';
import { useEnabledProviders } from '@/lib/queries/enabled-providers';
import { useKeyAvailability } from '@/lib/queries/key-availability';
import { useKnowledgeBases } from '@/lib/queries/knowledge-bases';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useCreateAgent, useUpdateAgent } from '../api/agents';
import {
  bodyOf,
  draftOf,
  fieldOfErrorCode,
  type AgentDraft,
  type DraftErrors,
} from './agent-draft';
import { AgentToolsPicker } from './agent-tools-picker';

const linkClass = 'text-primary underline underline-offset-4';

const avatarChoices = ['🤖', '🛠️', '🧭', '🔎', '📊', '🗓️', '🧑‍💻', '📚', '🧪', '🦾'];

const ModelSelect = ({
  draft,
  onChange,
  id,
}: {
  draft: AgentDraft;
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

const KeyHint = ({ provider }: { provider: AgentDraft['provider'] }) => {
  const entry = useKeyAvailability().data?.find((item) => item.provider === provider);
  if (!entry || (entry.enabled && entry.source !== null)) return null;
  return (
    <p role="note" className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs">
      You have no {providers[provider].name} key: this agent cannot answer until you add one on the{' '}
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
        to let this agent search and cite them.
      </p>
    );
  } else {
    const full = selected.length >= agentLimits.knowledgeBases;
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
        The agent searches the ones you tick with its Knowledge search tool and cites the passages
        it uses (at most {agentLimits.knowledgeBases}).
      </p>
      {body}
      {error ? <p className="text-sm text-destructive">{error}</p> : null}
    </fieldset>
  );
};

const AgentForm = ({
  agent,
  onDone,
  onCancel,
}: {
  agent: Agent | null;
  onDone: (saved: Agent) => void;
  onCancel: () => void;
}) => {
  const [draft, setDraft] = useState(() => draftOf(agent, defaultAiProvider));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const enabled = useEnabledProviders();
  const formRef = useRef<HTMLFormElement>(null);
  const set = <K extends keyof AgentDraft>(field: K, value: AgentDraft[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors({ ...errors, [field]: undefined });
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
      const saved = agent
        ? await update.mutateAsync({ id: agent.id, patch: checked.body })
        : await create.mutateAsync(checked.body);
      toast.success(agent ? `“${saved.name}” saved` : `“${saved.name}” created`);
      onDone(saved);
    } catch (cause) {
      const field = fieldOfServerError(cause, fieldOfErrorCode);
      if (field) setErrors({ [field]: errorMessage(cause) });
      else setFailure(errorMessage(cause));
    }
  };

  const entry = providers[draft.provider];
  return (
    <form ref={formRef} noValidate className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <Field
        label="Name"
        error={errors.name}
        hint={
          agentHandle(draft.name)
            ? `Its handle is @${agentHandle(draft.name)}: type it in any chat to hand the agent the turn.`
            : 'Its @handle is made from the name: type it in any chat to hand the agent the turn.'
        }
      >
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            maxLength={agentLimits.name}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.name}
            placeholder="e.g. Travel planner"
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
              maxLength={agentLimits.avatar}
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
      <Field label="Description" error={errors.description} hint="What it is for.">
        {({ id, describedBy, invalid }) => (
          <Textarea
            id={id}
            rows={2}
            maxLength={agentLimits.description}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.description}
            onChange={(event) => set('description', event.target.value)}
          />
        )}
      </Field>
      <Field
        label="Instructions"
        error={errors.instructions}
        hint="What the model is told before every run: its job, when to use which tool, and what not to do."
      >
        {({ id, describedBy, invalid }) => (
          <Textarea
            id={id}
            rows={6}
            maxLength={agentLimits.instructions}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.instructions}
            placeholder="You plan trips. Check the weather with the weather tool before suggesting a day out, and say which sources you used."
            onChange={(event) => set('instructions', event.target.value)}
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
        <Field
          label="Model"
          error={errors.model}
          hint="Pick a model that can call tools; most current ones can."
        >
          {({ id }) => (
            <ModelSelect id={id} draft={draft} onChange={(model) => set('model', model)} />
          )}
        </Field>
      </div>
      <KeyHint provider={draft.provider} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Temperature"
          error={errors.temperature}
          hint="From 0 to 2. Leave empty for the provider’s default."
        >
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
        <Field
          label="Max steps"
          error={errors.maxSteps}
          hint={`Model calls in one run, tool calls between them; at most ${agentLimits.steps.max}.`}
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              inputMode="numeric"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              value={draft.maxSteps}
              placeholder={String(agentLimits.steps.default)}
              onChange={(event) => set('maxSteps', event.target.value)}
            />
          )}
        </Field>
      </div>
      <AgentToolsPicker
        selected={draft.tools}
        error={errors.tools}
        onChange={(tools) => set('tools', tools)}
      />
      <KnowledgeChoices
        selected={draft.knowledgeBaseIds}
        error={errors.knowledgeBaseIds}
        onChange={(ids) => set('knowledgeBaseIds', ids)}
      />
      <p className="text-xs text-muted-foreground">
        It answers with {entry.name} on your own keys and quota, and only you can see it. Each save
        keeps the version before it in its history.
      </p>
      <FormActions
        error={failure}
        onCancel={onCancel}
        submitLabel={agent ? 'Save' : 'Create agent'}
        submitDisabled={create.isPending || update.isPending}
      />
    </form>
  );
};

/** Creates an agent, or edits one. */
export const AgentDialog = ({
  open,
  agent,
  onClose,
  onSaved,
}: {
  open: boolean;
  agent: Agent | null;
  onClose: () => void;
  onSaved: (agent: Agent) => void;
}) => (
  <Dialog
    open={open}
    title={agent ? `Edit “${agent.name}”` : 'New agent'}
    onClose={onClose}
    className="max-w-2xl"
  >
    {open ? (
      <AgentForm key={agent?.id ?? 'new'} agent={agent} onDone={onSaved} onCancel={onClose} />
    ) : null}
  </Dialog>
);
