import { useId, type ReactNode } from 'react';
import { scenarioLimits } from '@chorus/shared/api/scenarios';
import { templateVariables } from '@chorus/shared/template';
import { FormField } from '@/components/ui/form-field';
import { cn } from '@/lib/utils';
import { errorFor, type FieldErrors } from '../utils/field-errors';
import type { SetupDraft } from '../utils/setup-draft';
import { TargetsField } from './targets-field';
import { TextareaField } from './textarea-field';

type SetupFieldsProps = {
  draft: SetupDraft;
  onChange: (draft: SetupDraft) => void;
  errors: FieldErrors;
  disabled?: boolean;
  /** Shown under the models (the cost estimate, the Run button). */
  aside?: ReactNode;
  /** Prompts on the left and models on the right, on a wide screen. */
  split?: boolean;
};

/** What a run sends: the prompts, their `{{variables}}`, the parameters and the models. */
export const SetupFields = ({
  draft,
  onChange,
  errors,
  disabled,
  aside,
  split = false,
}: SetupFieldsProps) => {
  const variables = templateVariables(draft.systemPrompt, draft.userPrompt);
  const variablesId = useId();
  const set = (change: Partial<SetupDraft>) => onChange({ ...draft, ...change });
  return (
    <div
      className={cn(
        'grid gap-5',
        split && 'lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] lg:items-start lg:gap-8',
      )}
    >
      <div className="grid gap-5">
        <TextareaField
          label="System prompt"
          hint="Optional: how every model should behave."
          rows={3}
          maxLength={scenarioLimits.systemPrompt}
          value={draft.systemPrompt}
          disabled={disabled}
          error={errorFor(errors, 'system_prompt')}
          onChange={(event) => set({ systemPrompt: event.target.value })}
        />
        <TextareaField
          label="Prompt"
          hint="Sent to every model. Write {{name}} for a variable, or {{name|default}} to give it a default."
          rows={6}
          maxLength={scenarioLimits.userPrompt}
          value={draft.userPrompt}
          disabled={disabled}
          error={errorFor(errors, 'user_prompt')}
          onChange={(event) => set({ userPrompt: event.target.value })}
        />
        {variables.length > 0 ? (
          <fieldset className="grid gap-3 rounded-lg border p-4" aria-describedby={variablesId}>
            <legend className="px-1 text-sm font-medium">Variables</legend>
            <p id={variablesId} className="-mt-1 text-xs text-muted-foreground">
              One value per variable of the prompts. An empty one takes its default.
            </p>
            <div className="grid gap-3 sm:grid-cols-2">
              {variables.map((variable) => (
                <FormField
                  key={variable.name}
                  label={`{{${variable.name}}}`}
                  value={draft.variables[variable.name] ?? ''}
                  placeholder={variable.default ?? ''}
                  disabled={disabled}
                  hint={
                    variable.default === null
                      ? 'Needed: it has no default.'
                      : `Default: ${variable.default || '(empty)'}`
                  }
                  error={errorFor(errors, `variables.${variable.name}`)}
                  onChange={(event) =>
                    set({ variables: { ...draft.variables, [variable.name]: event.target.value } })
                  }
                />
              ))}
            </div>
          </fieldset>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField
            label="Temperature"
            type="number"
            inputMode="decimal"
            min={0}
            max={2}
            step={0.1}
            placeholder="Provider default"
            hint="0 to 2; empty for each provider's default."
            value={draft.temperature}
            disabled={disabled}
            error={errorFor(errors, 'parameters.temperature')}
            onChange={(event) => set({ temperature: event.target.value })}
          />
          <FormField
            label="Max tokens"
            type="number"
            inputMode="numeric"
            min={1}
            max={scenarioLimits.maxTokens}
            step={1}
            placeholder="Provider default"
            hint="The longest answer each model may write."
            value={draft.maxTokens}
            disabled={disabled}
            error={errorFor(errors, 'parameters.max_tokens')}
            onChange={(event) => set({ maxTokens: event.target.value })}
          />
        </div>
      </div>
      <div className="grid gap-5">
        <TargetsField
          targets={draft.targets}
          disabled={disabled}
          error={errorFor(errors, 'targets')}
          onChange={(targets) => set({ targets })}
        />
        {aside}
      </div>
    </div>
  );
};
