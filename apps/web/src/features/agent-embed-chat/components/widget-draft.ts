import {
  createWidgetSchema,
  originSchema,
  toolNeedsArgumentRule,
  widgetLimits,
  type CreateWidget,
  type Widget,
  type WidgetAppearance,
  type WidgetToolArguments,
} from '@chorus/shared/api/widgets';
import type { ErrorCode } from '@chorus/shared/error-codes';

/** What happens to one argument of a tool that carries the owner's credentials. */
export type ArgumentChoice =
  | { mode: 'visitor' }
  | { mode: 'omit' }
  /** `text` as typed; `value` what is sent (a number, true or false, or JSON, by its type). */
  | { mode: 'fixed'; text: string; value: unknown };

/** A tool's arguments by name; one not listed is left out. */
export type ArgumentChoices = Record<string, ArgumentChoice>;

/** The form's fields as typed: numbers stay text until sent. */
export type WidgetDraft = {
  name: string;
  /** `agent:<id>`, `custom_ai:<id>`, or '' before one is picked. */
  target: string;
  origins: string[];
  /** What is typed in "Add origin" and not added yet. */
  originInput: string;
  title: string;
  color: string;
  greeting: string;
  position: WidgetAppearance['position'];
  messagesPerHour: string;
  dailyTokens: string;
  monthlyTokens: string;
  maxReplyTokens: string;
  requireSigned: boolean;
  allowedTools: string[];
  /** For each allowed HTTP or MCP tool, by key. */
  toolArguments: Record<string, ArgumentChoices>;
  showSources: boolean;
  enabled: boolean;
};

export type DraftField = keyof WidgetDraft;
export type DraftErrors = Partial<Record<DraftField, string>>;

export const positionLabels: Record<WidgetAppearance['position'], string> = {
  'bottom-right': 'Bottom right',
  'bottom-left': 'Bottom left',
};

export const defaultColor = '#4f46e5';

export const targetValue = (kind: 'agent' | 'custom_ai', id: string) => `${kind}:${id}`;

export const parseTarget = (value: string): { kind: 'agent' | 'custom_ai'; id: string } | null => {
  const [kind, ...rest] = value.split(':');
  const id = rest.join(':');
  if (!id || (kind !== 'agent' && kind !== 'custom_ai')) return null;
  return { kind, id };
};

/** A stored rule as the form shows it. */
const choicesOf = (
  rules: Record<string, { visitor: string[]; fixed: Record<string, unknown> }>,
): Record<string, ArgumentChoices> =>
  Object.fromEntries(
    Object.entries(rules).map(([key, rule]) => [
      key,
      {
        ...Object.fromEntries(
          Object.entries(rule.fixed).map(([name, value]) => [
            name,
            {
              mode: 'fixed' as const,
              text: typeof value === 'string' ? value : JSON.stringify(value),
              value,
            },
          ]),
        ),
        ...Object.fromEntries(rule.visitor.map((name) => [name, { mode: 'visitor' as const }])),
      },
    ]),
  );

/** The rule sent for each allowed tool that needs one: an argument not chosen is left out. */
const rulesOf = (tools: string[], choices: Record<string, ArgumentChoices>): WidgetToolArguments =>
  Object.fromEntries(
    tools.filter(toolNeedsArgumentRule).map((key) => {
      const args = Object.entries(choices[key] ?? {});
      return [
        key,
        {
          visitor: args.filter(([, c]) => c.mode === 'visitor').map(([name]) => name),
          fixed: Object.fromEntries(
            args.flatMap(([name, c]) => (c.mode === 'fixed' ? [[name, c.value]] : [])),
          ),
        },
      ];
    }),
  );

export const draftOf = (widget: Widget | null): WidgetDraft => ({
  name: widget?.name ?? '',
  target: widget ? targetValue(widget.target.kind, widget.target.id) : '',
  origins: widget?.allowed_origins ?? [],
  originInput: '',
  title: widget?.appearance.title ?? '',
  color: widget?.appearance.color ?? defaultColor,
  greeting: widget?.appearance.greeting ?? '',
  position: widget?.appearance.position ?? 'bottom-right',
  messagesPerHour: String(
    widget?.budget.messages_per_visitor_hour ?? widgetLimits.defaultMessagesPerVisitorHour,
  ),
  dailyTokens: String(widget?.budget.daily_tokens ?? widgetLimits.defaultDailyTokens),
  monthlyTokens: String(widget?.budget.monthly_tokens ?? widgetLimits.defaultMonthlyTokens),
  maxReplyTokens: String(widget?.budget.max_reply_tokens ?? widgetLimits.defaultMaxReplyTokens),
  requireSigned: widget?.require_signed_visitors ?? false,
  allowedTools: widget?.allowed_tools ?? [],
  toolArguments: choicesOf(widget?.tool_arguments ?? {}),
  showSources: widget?.show_sources ?? true,
  enabled: widget?.enabled ?? true,
});

/**
 * An origin as typed, made the way the list keeps it: trimmed, in lower case, without the `/`
 * a copied address ends with. Answers the origin, or the reason it cannot be one.
 */
export const checkOrigin = (
  typed: string,
  origins: string[],
): { origin: string; error: null } | { origin: null; error: string } => {
  const origin = typed.trim().replace(/\/$/, '').toLowerCase();
  if (!origin) return { origin: null, error: 'Type an origin first, like https://example.com' };
  const parsed = originSchema.safeParse(origin);
  if (!parsed.success) {
    return { origin: null, error: parsed.error.issues[0]?.message ?? 'Not an origin' };
  }
  if (origins.includes(parsed.data))
    return { origin: null, error: 'That origin is listed already' };
  if (origins.length >= widgetLimits.origins) {
    return {
      origin: null,
      error: `A widget has at most ${widgetLimits.origins} allowed origins`,
    };
  }
  return { origin: parsed.data, error: null };
};

const whole = (
  text: string,
  min: number,
  max: number,
  label: string,
): { value: number; error: null } | { value: null; error: string } => {
  const value = Number(text.trim().replace(/[\s,_]/g, ''));
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    return {
      value: null,
      error: `${label} is a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`,
    };
  }
  return { value, error: null };
};

/** Where the contract's checks land in the form. */
const fieldOfPath = (path: PropertyKey[]): DraftField => {
  const [head, sub] = path;
  if (head === 'allowed_origins') return 'originInput';
  if (head === 'appearance') {
    if (sub === 'color') return 'color';
    if (sub === 'greeting') return 'greeting';
    return 'title';
  }
  if (head === 'budget') {
    if (sub === 'messages_per_visitor_hour') return 'messagesPerHour';
    if (sub === 'daily_tokens') return 'dailyTokens';
    if (sub === 'max_reply_tokens') return 'maxReplyTokens';
    return 'monthlyTokens';
  }
  if (head === 'allowed_tools' || head === 'tool_arguments') return 'allowedTools';
  if (head === 'target') return 'target';
  return 'name';
};

/**
 * The draft checked as the server will check it: the body to send, or what to fix under each
 * field. An origin typed but not added yet is added, when it is one. `offeredTools`, when known,
 * are the tools visitors may be given: any other is left out.
 */
export const bodyOf = (
  draft: WidgetDraft,
  offeredTools: string[] | null = null,
): { body: CreateWidget | null; errors: DraftErrors | null } => {
  const errors: DraftErrors = {};
  let origins = draft.origins;
  if (draft.originInput.trim()) {
    const typed = checkOrigin(draft.originInput, origins);
    if (typed.origin === null) errors.originInput = typed.error;
    else origins = [...origins, typed.origin];
  }
  const target = parseTarget(draft.target);
  if (!target) errors.target = 'Pick the agent or custom AI that answers visitors';
  const numbers = {
    messagesPerHour: whole(
      draft.messagesPerHour,
      1,
      widgetLimits.maxMessagesPerVisitorHour,
      'Messages per visitor per hour',
    ),
    dailyTokens: whole(draft.dailyTokens, 1, widgetLimits.maxTokenBudget, 'The daily budget'),
    monthlyTokens: whole(draft.monthlyTokens, 1, widgetLimits.maxTokenBudget, 'The monthly budget'),
    maxReplyTokens: whole(draft.maxReplyTokens, 16, widgetLimits.maxReplyTokens, 'A reply'),
  };
  for (const [field, checked] of Object.entries(numbers)) {
    if (checked.error) errors[field as DraftField] = checked.error;
  }
  const tools = offeredTools
    ? draft.allowedTools.filter((tool) => offeredTools.includes(tool))
    : draft.allowedTools;
  const parsed = createWidgetSchema.safeParse({
    name: draft.name,
    target: {
      agent_id: target?.kind === 'agent' ? target.id : null,
      custom_ai_id: target?.kind === 'custom_ai' ? target.id : null,
    },
    allowed_origins: origins,
    appearance: {
      title: draft.title,
      color: draft.color,
      greeting: draft.greeting,
      position: draft.position,
    },
    budget: {
      messages_per_visitor_hour: numbers.messagesPerHour.value ?? 1,
      daily_tokens: numbers.dailyTokens.value ?? 1,
      monthly_tokens: numbers.monthlyTokens.value ?? widgetLimits.maxTokenBudget,
      max_reply_tokens: numbers.maxReplyTokens.value ?? 16,
    },
    require_signed_visitors: draft.requireSigned,
    allowed_tools: tools,
    tool_arguments: rulesOf(tools, draft.toolArguments),
    show_sources: draft.showSources,
    enabled: draft.enabled,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path);
      errors[field] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { body: null, errors };
  return { body: parsed.data, errors: null };
};

/** A refused save's code, said under the field it is about. */
export const fieldOfErrorCode: Partial<Record<ErrorCode, DraftField>> = {
  'widgets:target_not_found': 'target',
  'widgets:unknown_tool': 'allowedTools',
  'widgets:tool_arguments': 'allowedTools',
};
