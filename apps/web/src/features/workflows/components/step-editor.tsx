import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { WorkflowStep } from '@chorus/shared/api/workflows';
import { Field, TextField } from '@/components/forms/field';
import { KnowledgeBasePicker } from '@/components/persona/persona-fields';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { useHttpTools } from '@/lib/agents-tools/tool-queries';
import { defaultAiProvider } from '@/lib/providers';
import { useCustomAis } from '@/lib/queries/custom-ais';
import { ProviderModelFields } from '@/lib/workflows/provider-model-fields';
import { useAgentChoices } from '@/lib/workflows/workflow-queries';
import { stepKindLabels, type DraftErrors, type DraftStep } from './workflow-draft';
import {
  expressionChoices,
  stepProblems,
  templateChoices,
  type Scope,
} from './workflow-references';
import { TemplateField } from './template-field';

const linkClass = 'text-primary underline underline-offset-4';

type StepOf<K extends WorkflowStep['kind']> = Extract<DraftStep, { kind: K }>;

type KindProps<K extends WorkflowStep['kind']> = {
  step: StepOf<K>;
  onChange: (step: StepOf<K>) => void;
  scope: Scope;
  problems: Record<string, string[]>;
  errorOf: (field: string) => string | undefined;
};

type PromptSource = 'model' | 'custom_ai' | 'agent';

const sourceOf = (step: StepOf<'prompt'>): PromptSource =>
  step.agent_id !== null ? 'agent' : step.custom_ai_id !== null ? 'custom_ai' : 'model';

const PromptFields = ({ step, onChange, scope, problems, errorOf }: KindProps<'prompt'>) => {
  const source = sourceOf(step);
  const customAis = useCustomAis(source === 'custom_ai');
  const agents = useAgentChoices(source === 'agent');
  const choices = templateChoices(scope);
  const setSource = (next: PromptSource) =>
    onChange({
      ...step,
      provider: next === 'model' ? (step.provider ?? defaultAiProvider) : null,
      model: next === 'model' ? step.model : null,
      custom_ai_id: next === 'custom_ai' ? (customAis.data?.custom_ais[0]?.id ?? '') : null,
      agent_id: next === 'agent' ? (agents.data?.agents[0]?.id ?? '') : null,
    });
  return (
    <>
      <Field label="Answered by">
        {({ id }) => (
          <NativeSelect
            id={id}
            value={source}
            onChange={(event) => setSource(event.target.value as PromptSource)}
          >
            <option value="model">A provider and model</option>
            <option value="custom_ai">One of your custom AIs</option>
            <option value="agent">One of your agents</option>
          </NativeSelect>
        )}
      </Field>
      {source === 'model' ? (
        <ProviderModelFields
          provider={step.provider ?? defaultAiProvider}
          model={step.model ?? ''}
          error={errorOf('provider')}
          onChange={({ provider, model }) =>
            onChange({ ...step, provider, model: model === '' ? null : model })
          }
        />
      ) : null}
      {source === 'custom_ai' ? (
        <Field label="Custom AI" error={errorOf('custom_ai_id')}>
          {({ id, describedBy }) =>
            customAis.isPending ? (
              <Spinner className="size-5" label="Loading your custom AIs" />
            ) : (
              <NativeSelect
                id={id}
                aria-describedby={describedBy}
                value={step.custom_ai_id ?? ''}
                onChange={(event) => onChange({ ...step, custom_ai_id: event.target.value })}
              >
                <option value="">Pick a custom AI</option>
                {(customAis.data?.custom_ais ?? []).map((ai) => (
                  <option key={ai.id} value={ai.id}>
                    {ai.name}
                  </option>
                ))}
              </NativeSelect>
            )
          }
        </Field>
      ) : null}
      {source === 'agent' ? (
        <Field label="Agent" error={errorOf('agent_id')}>
          {({ id, describedBy }) =>
            agents.isPending ? (
              <Spinner className="size-5" label="Loading your agents" />
            ) : (
              <NativeSelect
                id={id}
                aria-describedby={describedBy}
                value={step.agent_id ?? ''}
                onChange={(event) => onChange({ ...step, agent_id: event.target.value })}
              >
                <option value="">Pick an agent</option>
                {(agents.data?.agents ?? []).map((agent) => (
                  <option key={agent.id} value={agent.id}>
                    {agent.name}
                  </option>
                ))}
              </NativeSelect>
            )
          }
        </Field>
      ) : null}
      {source === 'model' ? (
        <TemplateField
          label="Instructions"
          value={step.system}
          onChange={(system) => onChange({ ...step, system })}
          choices={choices}
          problems={problems.system ?? []}
          error={errorOf('system')}
          rows={2}
          hint="Optional: what the model is told before the prompt."
        />
      ) : null}
      <TemplateField
        label="Prompt"
        value={step.prompt}
        onChange={(prompt) => onChange({ ...step, prompt })}
        choices={choices}
        problems={problems.prompt ?? []}
        error={errorOf('prompt')}
        rows={4}
        placeholder="Summarise {{inputs.topic}} in three bullet points."
      />
      {source === 'model' ? (
        <Field
          label="Temperature"
          error={errorOf('temperature')}
          hint="From 0 to 2. Leave empty for the provider’s default."
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              inputMode="decimal"
              className="w-32"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              defaultValue={step.temperature ?? ''}
              onChange={(event) => {
                const text = event.target.value.trim();
                onChange({ ...step, temperature: text === '' ? null : Number(text) });
              }}
            />
          )}
        </Field>
      ) : null}
    </>
  );
};

const KnowledgeFields = ({
  step,
  onChange,
  scope,
  problems,
  errorOf,
}: KindProps<'knowledge_search'>) => {
  return (
    <>
      <KnowledgeBasePicker
        legend="Knowledge bases to search"
        noun="step"
        limit={10}
        selected={step.knowledge_base_ids}
        onChange={(ids) => onChange({ ...step, knowledge_base_ids: ids })}
        error={errorOf('knowledge_base_ids')}
      />
      <TemplateField
        label="Query"
        value={step.query}
        onChange={(query) => onChange({ ...step, query })}
        choices={templateChoices(scope)}
        problems={problems.query ?? []}
        error={errorOf('query')}
        rows={2}
      />
      <TextField
        label="Passages"
        error={errorOf('top_k')}
        hint="How many passages to return, 1 to 20."
        type="number"
        min={1}
        max={20}
        className="w-24"
        value={String(step.top_k)}
        onChange={(value) => onChange({ ...step, top_k: Number(value) })}
      />
    </>
  );
};

const propertiesOf = (schema: unknown): string[] => {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties && typeof properties === 'object' ? Object.keys(properties) : [];
};

const HttpToolFields = ({ step, onChange, scope, problems, errorOf }: KindProps<'http_tool'>) => {
  const tools = useHttpTools();
  const tool = tools.data?.tools.find((t) => t.id === step.tool_id);
  const names = tool ? propertiesOf(tool.input_schema) : Object.keys(step.input);
  return (
    <>
      <Field label="HTTP tool" error={errorOf('tool_id')}>
        {({ id, describedBy }) =>
          tools.isPending ? (
            <Spinner className="size-5" label="Loading your HTTP tools" />
          ) : (
            <NativeSelect
              id={id}
              aria-describedby={describedBy}
              value={step.tool_id}
              onChange={(event) => onChange({ ...step, tool_id: event.target.value, input: {} })}
            >
              <option value="">Pick an HTTP tool</option>
              {(tools.data?.tools ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
          )
        }
      </Field>
      {tools.data?.tools.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          You have no HTTP tools yet.{' '}
          <Link to="/tools" className={linkClass}>
            Add one on the tools page
          </Link>
          .
        </p>
      ) : null}
      {names.map((name) => (
        <TemplateField
          key={name}
          label={`Input: ${name}`}
          singleLine
          value={step.input[name] ?? ''}
          onChange={(text) => onChange({ ...step, input: { ...step.input, [name]: text } })}
          choices={templateChoices(scope)}
          problems={problems[`input.${name}`] ?? []}
        />
      ))}
    </>
  );
};

const ConditionFields = ({ step, onChange, scope, problems, errorOf }: KindProps<'condition'>) => (
  <TemplateField
    label="Condition"
    singleLine
    value={step.expression}
    onChange={(expression) => onChange({ ...step, expression })}
    choices={expressionChoices(scope)}
    problems={problems.expression ?? []}
    error={errorOf('expression')}
    placeholder={'steps.prompt_1.output.contains("urgent")'}
    hint="A CEL expression, or a plain comparison (inputs.count > 3). When it does not hold, the steps after it are skipped and the run ends complete."
  />
);

const TransformFields = ({ step, onChange, scope, problems, errorOf }: KindProps<'transform'>) => (
  <>
    <Field label="Transform">
      {({ id }) => (
        <NativeSelect
          id={id}
          value={step.mode}
          onChange={(event) =>
            onChange({
              ...step,
              mode: event.target.value === 'extract_json' ? 'extract_json' : 'template',
            })
          }
        >
          <option value="template">Make a text from a template</option>
          <option value="extract_json">Extract JSON from a text</option>
        </NativeSelect>
      )}
    </Field>
    <TemplateField
      label={step.mode === 'template' ? 'Template' : 'Text to read JSON from'}
      value={step.template}
      onChange={(template) => onChange({ ...step, template })}
      choices={templateChoices(scope)}
      problems={problems.template ?? []}
      error={errorOf('template')}
    />
    {step.mode === 'extract_json' ? (
      <Field
        label="Path"
        error={errorOf('path')}
        hint="A dotted path into the JSON, such as items.0.name; empty for all of it."
      >
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            className="font-mono"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={step.path}
            onChange={(event) => onChange({ ...step, path: event.target.value })}
          />
        )}
      </Field>
    ) : null}
  </>
);

const KindFields = (props: KindProps<WorkflowStep['kind']>) => {
  const { step } = props;
  const cast = <K extends WorkflowStep['kind']>() => props as unknown as KindProps<K>;
  switch (step.kind) {
    case 'prompt':
      return <PromptFields {...cast<'prompt'>()} />;
    case 'knowledge_search':
      return <KnowledgeFields {...cast<'knowledge_search'>()} />;
    case 'http_tool':
      return <HttpToolFields {...cast<'http_tool'>()} />;
    case 'condition':
      return <ConditionFields {...cast<'condition'>()} />;
    case 'transform':
      return <TransformFields {...cast<'transform'>()} />;
  }
};

/** One step of the editor: its name and id, its place in the list, and its kind's fields. */
export const StepEditor = ({
  step,
  index,
  count,
  scope,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  step: DraftStep;
  index: number;
  count: number;
  scope: Scope;
  errors: DraftErrors;
  onChange: (step: DraftStep) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) => {
  const title = `Step ${index + 1}: ${step.name || stepKindLabels[step.kind]}`;
  const errorOf = (field: string) => errors[`steps.${step.key}.${field}`];
  const problems = stepProblems(step, scope);
  return (
    <li aria-label={title} className="grid gap-4 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="min-w-0 flex-1 text-sm font-semibold break-words">
          {title}{' '}
          <span className="font-normal text-muted-foreground">· {stepKindLabels[step.kind]}</span>
        </h4>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={`Move step ${index + 1} up`}
          title="Move up"
          disabled={index === 0}
          onClick={() => onMove(-1)}
        >
          <ArrowUp aria-hidden="true" />
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={`Move step ${index + 1} down`}
          title="Move down"
          disabled={index === count - 1}
          onClick={() => onMove(1)}
        >
          <ArrowDown aria-hidden="true" />
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground"
          aria-label={`Remove step ${index + 1}`}
          title="Remove"
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Step name"
          error={errorOf('name')}
          hint="What the run page calls it."
          maxLength={80}
          value={step.name}
          onChange={(name) => onChange({ ...step, name })}
        />
        <TextField
          label="Step id"
          error={errorOf('id')}
          hint={`Later steps use its output as {{steps.${step.id || 'id'}.output}}.`}
          className="font-mono"
          maxLength={40}
          value={step.id}
          onChange={(id) => onChange({ ...step, id })}
        />
      </div>
      <KindFields
        step={step}
        onChange={(next) => onChange(next)}
        scope={scope}
        problems={problems}
        errorOf={errorOf}
      />
    </li>
  );
};
