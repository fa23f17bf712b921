import { Plus, X } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import type { Agent } from '@chorus/shared/api/agents';
import { builtinTools } from '@chorus/shared/api/tools';
import {
  toolNeedsArgumentRule,
  widgetLimits,
  widgetOwnerMessages,
  widgetPositions,
  type Widget,
  type WidgetAppearance,
} from '@chorus/shared/api/widgets';
import { DraftForm, EditorDialog, useEditorForm } from '@/components/forms/draft-form';
import { Field, TextAreaField, TextField } from '@/components/forms/field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useHttpTools, useMcpServers } from '@/lib/agents-tools/tool-queries';
import { useCustomAis } from '@/lib/queries/custom-ais';
import { useAgentChoices } from '@/lib/workflows/workflow-queries';
import { useCreateWidget, useUpdateWidget } from '../api/widgets';
import {
  bodyOf,
  type ArgumentChoice,
  type ArgumentChoices,
  checkOrigin,
  draftOf,
  fieldOfErrorCode,
  parseTarget,
  positionLabels,
  targetValue,
  type DraftErrors,
  type WidgetDraft,
} from './widget-draft';

const linkClass = 'text-primary underline underline-offset-4';

type SetField = <K extends keyof WidgetDraft>(field: K, value: WidgetDraft[K]) => void;

/** What a group of the form's fields is given: the draft, its errors and the setter. */
type FieldsetProps = { draft: WidgetDraft; errors: DraftErrors; set: SetField };

/** One argument of a tool: its name, its JSON type, whether the tool cannot go without it. */
type ToolArgument = { name: string; type: string; needed: boolean };

/** A tool of the picked agent, as visitors' replies may be given it. */
type ToolChoice = {
  key: string;
  title: string;
  needsApproval: boolean;
  /** For tools that carry your credentials (HTTP, MCP): their arguments. */
  arguments: ToolArgument[] | null;
};

const builtinTitles = new Map<string, string>(builtinTools.map((tool) => [tool.key, tool.title]));

/** A tool's arguments from its input schema; `alsoNeeded` adds an HTTP tool's URL placeholders. */
const argumentsOf = (schema: Record<string, unknown>, alsoNeeded: string[] = []) => {
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null
      ? (schema.properties as Record<string, { type?: unknown }>)
      : {};
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return Object.entries(properties).map(([name, property]) => ({
    name,
    type: typeof property?.type === 'string' ? property.type : 'string',
    needed: required.includes(name) || alsoNeeded.includes(name),
  }));
};

const placeholdersOf = (template: string) =>
  Array.from(template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g), (m) => m[1]!);

/** The picked agent's tools, named: the built-ins by title, the user's own by their name. */
const useToolChoices = (agent: Agent | undefined): ToolChoice[] => {
  const own = agent?.tools.some((tool) => !tool.tool.startsWith('builtin:')) ?? false;
  const http = useHttpTools(own);
  const mcp = useMcpServers(own);
  const names = new Map<string, string>(builtinTitles);
  const args = new Map<string, ToolArgument[]>();
  for (const tool of http.data?.tools ?? []) {
    names.set(tool.key, tool.name);
    args.set(tool.key, argumentsOf(tool.input_schema, placeholdersOf(tool.url_template)));
  }
  for (const server of mcp.data?.servers ?? []) {
    for (const tool of server.tools) {
      names.set(tool.key, `${tool.name} (${server.name})`);
      args.set(tool.key, argumentsOf(tool.input_schema));
    }
  }
  return (agent?.tools ?? []).map((tool) => ({
    key: tool.tool,
    title: names.get(tool.tool) ?? tool.tool,
    needsApproval: tool.approval !== 'never',
    arguments: toolNeedsArgumentRule(tool.tool) ? (args.get(tool.tool) ?? []) : null,
  }));
};

/** A fixed value as typed, made the value its argument's type wants. */
const fixedValue = (text: string, type: string): unknown => {
  if (type === 'string') return text;
  if (type === 'number' || type === 'integer') {
    const n = Number(text.trim());
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  if (type === 'boolean')
    return text.trim() === 'true' ? true : text.trim() === 'false' ? false : text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * For a tool that calls out with the owner's credentials: which arguments visitors may set, and
 * the owner's fixed values; with the warning of what a visitor-set argument means.
 */
const ArgumentRules = ({
  tool,
  choices,
  onChange,
}: {
  tool: ToolChoice;
  choices: ArgumentChoices;
  onChange: (choices: ArgumentChoices) => void;
}) => {
  const visitorSet = (tool.arguments ?? [])
    .filter((arg) => choices[arg.name]?.mode === 'visitor')
    .map((arg) => arg.name);
  return (
    <fieldset
      aria-label={`Arguments of ${tool.title}`}
      className="mt-1 ml-6 grid gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 p-2"
    >
      <legend className="sr-only">{`Arguments of ${tool.title}`}</legend>
      <p className="text-xs font-medium">{widgetOwnerMessages.toolArgumentsTitle}</p>
      <p className="text-xs text-muted-foreground">{widgetOwnerMessages.toolArgumentsWarning}</p>
      {(tool.arguments ?? []).length === 0 ? (
        <p className="text-xs text-muted-foreground">This tool takes no arguments.</p>
      ) : (
        <ul className="grid gap-1.5">
          {(tool.arguments ?? []).map((arg) => {
            const choice = choices[arg.name] ?? { mode: 'omit' as const };
            return (
              <li key={arg.name} className="grid items-center gap-2 sm:grid-cols-[8rem_11rem_1fr]">
                <code className="truncate text-xs" title={arg.name}>
                  {arg.name}
                  {arg.needed ? ' *' : ''}
                </code>
                <NativeSelect
                  aria-label={`${arg.name} of ${tool.title}`}
                  value={choice.mode}
                  onChange={(event) => {
                    const mode = event.target.value as ArgumentChoice['mode'];
                    onChange({
                      ...choices,
                      [arg.name]:
                        mode === 'fixed'
                          ? { mode, text: '', value: fixedValue('', arg.type) }
                          : { mode },
                    });
                  }}
                >
                  <option value="omit">Left out</option>
                  <option value="visitor">Visitors set it</option>
                  <option value="fixed">Fixed value</option>
                </NativeSelect>
                {choice.mode === 'fixed' ? (
                  <Input
                    aria-label={`Fixed value of ${arg.name}`}
                    placeholder={arg.type === 'string' ? 'Value' : `Value (${arg.type})`}
                    value={choice.text}
                    onChange={(event) =>
                      onChange({
                        ...choices,
                        [arg.name]: {
                          mode: 'fixed',
                          text: event.target.value,
                          value: fixedValue(event.target.value, arg.type),
                        },
                      })
                    }
                  />
                ) : (
                  <span />
                )}
              </li>
            );
          })}
        </ul>
      )}
      {(tool.arguments ?? []).some((arg) => arg.needed) ? (
        <p className="text-xs text-muted-foreground">* The tool cannot go without it.</p>
      ) : null}
      {visitorSet.length > 0 ? (
        <p className="text-xs font-medium text-amber-800 dark:text-amber-300">
          {widgetOwnerMessages.toolArgumentsVisitorSet(visitorSet.join(', '))}
        </p>
      ) : null}
    </fieldset>
  );
};

/** The agents and custom AIs a widget can answer as. */
const useTargets = () => {
  const agents = useAgentChoices();
  const customAis = useCustomAis();
  return {
    agents: agents.data?.agents ?? [],
    customAis: customAis.data?.custom_ais ?? [],
    loading: agents.isPending || customAis.isPending,
  };
};

const TargetField = ({
  value,
  error,
  targets,
  onChange,
}: {
  value: string;
  error: string | undefined;
  targets: ReturnType<typeof useTargets>;
  onChange: (value: string) => void;
}) => {
  const { agents, customAis, loading } = targets;
  const none = !loading && agents.length === 0 && customAis.length === 0;
  const picked = parseTarget(value);
  const listed =
    picked !== null &&
    (picked.kind === 'agent' ? agents : customAis).some((item) => item.id === picked.id);
  return (
    <Field
      label="Agent or custom AI"
      error={error}
      hint={
        none ? (
          <>
            You have none yet:{' '}
            <Link to="/agents" className={linkClass}>
              create an agent
            </Link>{' '}
            or a{' '}
            <Link to="/custom-ais" className={linkClass}>
              custom AI
            </Link>{' '}
            first.
          </>
        ) : (
          'Who answers visitors. It replies with your keys and quota, within the limits below.'
        )
      }
    >
      {({ id, describedBy, invalid }) => (
        <NativeSelect
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{loading ? 'Loading…' : 'Choose one'}</option>
          {agents.length > 0 ? (
            <optgroup label="Agents">
              {agents.map((agent) => (
                <option key={agent.id} value={targetValue('agent', agent.id)}>
                  {agent.name}
                </option>
              ))}
            </optgroup>
          ) : null}
          {customAis.length > 0 ? (
            <optgroup label="Custom AIs">
              {customAis.map((ai) => (
                <option key={ai.id} value={targetValue('custom_ai', ai.id)}>
                  {ai.name}
                </option>
              ))}
            </optgroup>
          ) : null}
          {picked && !loading && !listed ? (
            <option value={value}>Deleted — pick another</option>
          ) : null}
        </NativeSelect>
      )}
    </Field>
  );
};

const OriginsField = ({
  draft,
  error,
  set,
  onRefused,
}: {
  draft: WidgetDraft;
  error: string | undefined;
  set: SetField;
  onRefused: (reason: string) => void;
}) => {
  const add = () => {
    const checked = checkOrigin(draft.originInput, draft.origins);
    if (checked.origin === null) {
      onRefused(checked.error);
      return;
    }
    set('origins', [...draft.origins, checked.origin]);
    set('originInput', '');
  };
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1.5 text-sm font-medium">Allowed origins</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        The sites that may show the widget: a scheme and host, with a port if any, like
        https://example.com. Empty means no site — the widget is never shown anywhere until you add
        one. Browsers hold to this list; to know who a visitor is, require signed visitors below.
      </p>
      <ul aria-label="Allowed origins" className="grid gap-1">
        {draft.origins.map((origin) => (
          <li key={origin} className="flex items-center gap-2 rounded-md border px-2 py-1 text-sm">
            <code className="min-w-0 flex-1 truncate">{origin}</code>
            <Button
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={`Remove ${origin}`}
              title={`Remove ${origin}`}
              onClick={() =>
                set(
                  'origins',
                  draft.origins.filter((o) => o !== origin),
                )
              }
            >
              <X aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ul>
      {draft.origins.length === 0 ? (
        <p className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs">
          No site can show it yet — add an allowed origin.
        </p>
      ) : null}
      <Field label="Add origin" error={error}>
        {({ id, describedBy, invalid }) => (
          <div className="flex gap-2">
            <Input
              id={id}
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://example.com"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              disabled={draft.origins.length >= widgetLimits.origins}
              value={draft.originInput}
              onChange={(event) => set('originInput', event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter') return;
                event.preventDefault();
                add();
              }}
            />
            <Button
              variant="outline"
              disabled={draft.origins.length >= widgetLimits.origins}
              onClick={add}
            >
              <Plus aria-hidden="true" /> Add
            </Button>
          </div>
        )}
      </Field>
    </fieldset>
  );
};

const AppearanceFields = ({ draft, errors, set }: FieldsetProps) => (
  <fieldset className="grid gap-4">
    <legend className="mb-1.5 text-sm font-semibold">Appearance</legend>
    <div className="grid gap-4 sm:grid-cols-[1fr_auto_auto]">
      <TextField
        label="Title"
        error={errors.title}
        hint="The heading of the chat panel."
        maxLength={widgetLimits.title}
        placeholder="Ask us anything"
        value={draft.title}
        onChange={(value) => set('title', value)}
      />
      <Field label="Colour" error={errors.color} hint={draft.color}>
        {({ id, describedBy }) => (
          <Input
            id={id}
            type="color"
            aria-describedby={describedBy}
            className="h-9 w-16 cursor-pointer p-1"
            value={draft.color}
            onChange={(event) => set('color', event.target.value)}
          />
        )}
      </Field>
      <Field label="Position">
        {({ id }) => (
          <NativeSelect
            id={id}
            value={draft.position}
            onChange={(event) =>
              set('position', event.target.value as WidgetAppearance['position'])
            }
          >
            {widgetPositions.map((position) => (
              <option key={position} value={position}>
                {positionLabels[position]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
    </div>
    <TextAreaField
      label="Greeting"
      error={errors.greeting}
      hint="The first message visitors see, before they write. Leave empty for none."
      rows={2}
      maxLength={widgetLimits.greeting}
      value={draft.greeting}
      onChange={(value) => set('greeting', value)}
    />
  </fieldset>
);

const LimitFields = ({ draft, errors, set }: FieldsetProps) => (
  <fieldset className="grid gap-4">
    <legend className="mb-1.5 text-sm font-semibold">Limits</legend>
    <p className="-mt-3 text-xs text-muted-foreground">
      Replies run on your keys and count against your quota. When a budget is used up, visitors are
      told the assistant is unavailable and you get an e-mail.
    </p>
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Messages per visitor per hour"
        error={errors.messagesPerHour}
        inputMode="numeric"
        value={draft.messagesPerHour}
        onChange={(value) => set('messagesPerHour', value)}
      />
      <TextField
        label="Max reply tokens"
        error={errors.maxReplyTokens}
        hint={`The longest reply, up to ${widgetLimits.maxReplyTokens.toLocaleString()} tokens.`}
        inputMode="numeric"
        value={draft.maxReplyTokens}
        onChange={(value) => set('maxReplyTokens', value)}
      />
      <TextField
        label="Daily token budget"
        error={errors.dailyTokens}
        hint="Tokens in and out over all visitors, per day (UTC)."
        inputMode="numeric"
        value={draft.dailyTokens}
        onChange={(value) => set('dailyTokens', value)}
      />
      <TextField
        label="Monthly token budget"
        error={errors.monthlyTokens}
        hint="Per calendar month; at least the daily budget."
        inputMode="numeric"
        value={draft.monthlyTokens}
        onChange={(value) => set('monthlyTokens', value)}
      />
    </div>
  </fieldset>
);

const ToolsField = ({
  picked,
  choices,
  kind,
  selected,
  argumentChoices,
  error,
  onChange,
  onArguments,
}: {
  picked: boolean;
  choices: ToolChoice[];
  kind: 'agent' | 'custom_ai' | null;
  selected: string[];
  argumentChoices: Record<string, ArgumentChoices>;
  error: string | undefined;
  onChange: (tools: string[]) => void;
  onArguments: (key: string, choices: ArgumentChoices) => void;
}) => {
  let body;
  if (!picked || kind === null) {
    body = <p className="text-xs text-muted-foreground">Pick an agent to choose its tools.</p>;
  } else if (kind === 'custom_ai') {
    body = (
      <p className="text-xs text-muted-foreground">
        A custom AI answers without tools; it searches its knowledge bases and cites them.
      </p>
    );
  } else if (choices.length === 0) {
    body = <p className="text-xs text-muted-foreground">This agent has no tools.</p>;
  } else {
    body = (
      <ul aria-label="Tools visitors may use" className="grid gap-1">
        {choices.map((tool) => (
          <li key={tool.key}>
            <label
              className={
                tool.needsApproval
                  ? 'flex cursor-not-allowed items-start gap-2 text-sm opacity-60'
                  : 'flex cursor-pointer items-start gap-2 text-sm'
              }
            >
              <input
                type="checkbox"
                className="mt-1"
                disabled={tool.needsApproval}
                checked={!tool.needsApproval && selected.includes(tool.key)}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? [...selected, tool.key]
                      : selected.filter((key) => key !== tool.key),
                  )
                }
              />
              <span className="min-w-0">
                <span className="block font-medium break-words">{tool.title}</span>
                {tool.needsApproval ? (
                  <span className="block text-xs text-muted-foreground">
                    needs approval — never offered to visitors
                  </span>
                ) : null}
              </span>
            </label>
            {tool.arguments !== null && !tool.needsApproval && selected.includes(tool.key) ? (
              <ArgumentRules
                tool={tool}
                choices={argumentChoices[tool.key] ?? {}}
                onChange={(next) => onArguments(tool.key, next)}
              />
            ) : null}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-semibold">Allowed tools</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        The agent’s tools that visitors’ replies may use. None is given unless you tick it; a tool
        that waits for your approval in chats is never offered to visitors.
      </p>
      {body}
      {error ? <p className="text-sm text-destructive">{error}</p> : null}
    </fieldset>
  );
};

const Toggle = ({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) => {
  const id = useId();
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="mt-0.5 size-4"
        aria-describedby={`${id}-hint`}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <div className="grid gap-0.5">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
};

const WidgetForm = ({
  widget,
  onDone,
  onCancel,
}: {
  widget: Widget | null;
  onDone: (saved: Widget) => void;
  onCancel: () => void;
}) => {
  const targets = useTargets();
  // The tools visitors may be given, worked out below from the draft: `check` reads them when
  // the form is sent, after this render.
  let offered: string[] | null = null;
  const form = useEditorForm({
    item: widget,
    initial: () => draftOf(widget),
    check: (draft) => bodyOf(draft, offered),
    create: useCreateWidget(),
    update: useUpdateWidget(),
    onDone,
    fieldOfErrorCode,
  });
  const { draft, errors, set, setErrors } = form;
  const target = parseTarget(draft.target);
  const agent =
    target?.kind === 'agent' ? targets.agents.find((a) => a.id === target.id) : undefined;
  const choices = useToolChoices(agent);
  if (agent) offered = choices.filter((tool) => !tool.needsApproval).map((tool) => tool.key);
  else if (target?.kind === 'custom_ai') offered = [];

  return (
    <DraftForm form={form} onCancel={onCancel} submitLabel={widget ? 'Save' : 'Create widget'}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          error={errors.name}
          hint="For you only; visitors see the title."
          maxLength={widgetLimits.name}
          placeholder="e.g. Support on our site"
          value={draft.name}
          onChange={(value) => set('name', value)}
        />
        <TargetField
          value={draft.target}
          error={errors.target}
          targets={targets}
          onChange={(value) => {
            set('target', value);
            form.setDraft((current) => ({ ...current, allowedTools: [] }));
          }}
        />
      </div>
      <OriginsField
        draft={draft}
        error={errors.originInput}
        set={set}
        onRefused={(reason) => setErrors({ ...errors, originInput: reason })}
      />
      <AppearanceFields draft={draft} errors={errors} set={set} />
      <LimitFields draft={draft} errors={errors} set={set} />
      <ToolsField
        picked={Boolean(agent) || target?.kind === 'custom_ai'}
        choices={choices}
        kind={target?.kind ?? null}
        selected={draft.allowedTools}
        argumentChoices={draft.toolArguments}
        error={errors.allowedTools}
        onChange={(tools) => set('allowedTools', tools)}
        onArguments={(key, next) => set('toolArguments', { ...draft.toolArguments, [key]: next })}
      />
      <div className="grid gap-3">
        <Toggle
          label="Require signed visitors"
          hint="Only visitors your site’s server signed a token for may chat; others are refused. A signed visitor sees their conversations on any device."
          checked={draft.requireSigned}
          onChange={(checked) => set('requireSigned', checked)}
        />
        <Toggle
          label={widgetOwnerMessages.showSources}
          hint={widgetOwnerMessages.showSourcesHint(widgetLimits.sourceQuoteChars)}
          checked={draft.showSources}
          onChange={(checked) => set('showSources', checked)}
        />
        <Toggle
          label="Enabled"
          hint="Off: the widget answers nobody and shows visitors it is unavailable."
          checked={draft.enabled}
          onChange={(checked) => set('enabled', checked)}
        />
      </div>
    </DraftForm>
  );
};

/** Creates a widget, or edits one. A new widget comes back with its secret, shown once. */
export const WidgetEditorDialog = ({
  open,
  widget,
  onClose,
  onSaved,
}: {
  open: boolean;
  widget: Widget | null;
  onClose: () => void;
  onSaved: (widget: Widget) => void;
}) => (
  <EditorDialog
    open={open}
    item={widget}
    newTitle="New widget"
    onClose={onClose}
    className="max-w-3xl"
  >
    {(item) => <WidgetForm widget={item} onDone={onSaved} onCancel={onClose} />}
  </EditorDialog>
);
