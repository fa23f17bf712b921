import { KeyRound, Plus, X } from 'lucide-react';
import { Link } from 'react-router';
import { scenarioLimits, type ScenarioTarget } from '@chorus/shared/api/scenarios';
import { providerIds, providers, type ProviderId } from '@chorus/shared/providers';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { useKeyAvailability } from '@/lib/queries/key-availability';
import { modelLabel } from '../utils/model-label';
import { nextTarget, targetFor } from '../utils/setup-draft';

type TargetsFieldProps = {
  targets: ScenarioTarget[];
  onChange: (targets: ScenarioTarget[]) => void;
  error?: string | undefined;
  disabled?: boolean;
};

const modelOptions = (target: ScenarioTarget) => {
  const options = providers[target.provider].models.map(({ value, label }) => ({ value, label }));
  if (!options.some((option) => option.value === target.model)) {
    options.unshift({
      value: target.model,
      label: target.model
        ? target.model
        : `Default (${modelLabel(target.provider, providers[target.provider].defaultModel)})`,
    });
  }
  return options;
};

/** 1–8 models to compare, each a provider and one of its models, with a warning per missing key. */
export const TargetsField = ({ targets, onChange, error, disabled }: TargetsFieldProps) => {
  const availability = useKeyAvailability();
  const hasKey = (provider: ProviderId): boolean | undefined => {
    const entry = availability.data?.find((item) => item.provider === provider);
    return entry ? entry.enabled && entry.source !== null : undefined;
  };
  const replace = (index: number, target: ScenarioTarget) =>
    onChange(targets.map((old, i) => (i === index ? target : old)));

  return (
    <fieldset className="grid gap-3" aria-describedby={error ? 'targets-error' : undefined}>
      <legend className="mb-1 text-sm font-medium">
        Models to compare{' '}
        <span className="font-normal text-muted-foreground">
          ({scenarioLimits.minTargets}–{scenarioLimits.maxTargets}, one column each)
        </span>
      </legend>
      <ol className="grid gap-2">
        {targets.map((target, i) => {
          const n = i + 1;
          const keyMissing = hasKey(target.provider) === false;
          return (
            <li key={i} className="grid gap-1">
              <div className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[10rem_1fr_auto]">
                <NativeSelect
                  aria-label={`Provider of model ${n}`}
                  value={target.provider}
                  disabled={disabled}
                  className="col-span-2 sm:col-span-1"
                  onChange={(event) => replace(i, targetFor(event.target.value as ProviderId))}
                >
                  {providerIds.map((id) => (
                    <option key={id} value={id}>
                      {providers[id].name}
                    </option>
                  ))}
                </NativeSelect>
                <NativeSelect
                  aria-label={`Model ${n}`}
                  value={target.model}
                  disabled={disabled}
                  onChange={(event) => replace(i, { ...target, model: event.target.value })}
                >
                  {modelOptions(target).map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </NativeSelect>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove model ${n}`}
                  disabled={disabled || targets.length <= scenarioLimits.minTargets}
                  onClick={() => onChange(targets.filter((_, j) => j !== i))}
                >
                  <X aria-hidden="true" />
                </Button>
              </div>
              {keyMissing ? (
                <p className="flex items-center gap-1.5 text-xs text-amber-700 dark:text-amber-400">
                  <KeyRound aria-hidden="true" className="size-3.5" />
                  No {providers[target.provider].name} key: this column will fail.{' '}
                  <Link to="/copy-api-keys" className="underline underline-offset-2">
                    Add a key
                  </Link>
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          variant="outline"
          size="sm"
          disabled={disabled || targets.length >= scenarioLimits.maxTargets}
          onClick={() => onChange([...targets, nextTarget(targets)])}
        >
          <Plus aria-hidden="true" /> Add a model
        </Button>
      </div>
      {error ? (
        <p id="targets-error" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
};
