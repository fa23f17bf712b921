import { agentHandle, agentLimits, type Agent } from '@chorus/shared/api/agents';
import { EditorDialog, useEditorForm } from '@/components/forms/draft-form';
import { TextField } from '@/components/forms/field';
import { TemperatureField, type PersonaCopy } from '@/components/persona/persona-fields';
import { PersonaForm } from '@/components/persona/persona-form';
import { defaultAiProvider } from '@/lib/providers';
import { useCreateAgent, useUpdateAgent } from '../api/agents';
import { bodyOf, draftOf, fieldOfErrorCode } from './agent-draft';
import { AgentToolsPicker } from './agent-tools-picker';

const copy: PersonaCopy = {
  noun: 'agent',
  limits: {
    name: agentLimits.name,
    avatar: agentLimits.avatar,
    description: agentLimits.description,
    instructions: agentLimits.instructions,
  },
  avatarChoices: ['🤖', '🛠️', '🧭', '🔎', '📊', '🗓️', '🧑‍💻', '📚', '🧪', '🦾'],
  namePlaceholder: 'e.g. Travel planner',
  descriptionHint: 'What it is for.',
  instructionsHint:
    'What the model is told before every run: its job, when to use which tool, and what not to do.',
  instructionsPlaceholder:
    'You plan trips. Check the weather with the weather tool before suggesting a day out, and say which sources you used.',
  modelHint: 'Pick a model that can call tools; most current ones can.',
};

const handleHint = (name: string) =>
  agentHandle(name)
    ? `Its handle is @${agentHandle(name)}: type it in any chat to hand the agent the turn.`
    : 'Its @handle is made from the name: type it in any chat to hand the agent the turn.';

const AgentForm = ({
  agent,
  onDone,
  onCancel,
}: {
  agent: Agent | null;
  onDone: (saved: Agent) => void;
  onCancel: () => void;
}) => {
  const form = useEditorForm({
    item: agent,
    initial: () => draftOf(agent, defaultAiProvider),
    check: bodyOf,
    create: useCreateAgent(),
    update: useUpdateAgent(),
    onDone,
    fieldOfErrorCode,
  });
  const { draft, errors, set, setDraft } = form;

  return (
    <PersonaForm
      form={form}
      copy={{ ...copy, nameHint: handleHint(draft.name) }}
      onProviderChange={(provider) => setDraft((current) => ({ ...current, provider, model: '' }))}
      onCancel={onCancel}
      submitLabel={agent ? 'Save' : 'Create agent'}
      knowledge={{
        limit: agentLimits.knowledgeBases,
        description: `The agent searches the ones you tick with its Knowledge search tool and cites the passages it uses (at most ${agentLimits.knowledgeBases}).`,
      }}
      note="Each save keeps the version before it in its history."
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TemperatureField
          provider={draft.provider}
          value={draft.temperature}
          error={errors.temperature}
          hint="From 0 to 2. Leave empty for the provider’s default."
          onChange={(value) => set('temperature', value)}
        />
        <TextField
          label="Max steps"
          error={errors.maxSteps}
          hint={`Model calls in one run, tool calls between them; at most ${agentLimits.steps.max}.`}
          inputMode="numeric"
          value={draft.maxSteps}
          placeholder={String(agentLimits.steps.default)}
          onChange={(value) => set('maxSteps', value)}
        />
      </div>
      <AgentToolsPicker
        selected={draft.tools}
        error={errors.tools}
        onChange={(tools) => set('tools', tools)}
      />
    </PersonaForm>
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
  <EditorDialog open={open} item={agent} newTitle="New agent" onClose={onClose}>
    {(item) => <AgentForm agent={item} onDone={onSaved} onCancel={onClose} />}
  </EditorDialog>
);
