import { SlidersHorizontal, Star } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import {
  defaultTemperature,
  isProviderId,
  providers,
  type ModelOption,
  type ProviderId,
} from '@chorus/shared/providers';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { DisclosurePanel } from '@/components/ui/disclosure-panel';
import { useEnabledProviders } from '@/lib/queries/enabled-providers';
import { providerList } from '@/lib/providers';
import { useOllamaModels } from '@/lib/queries/ollama-models';
import { useOpenRouterModels } from '@/lib/queries/openrouter-models';
import {
  readPreferredModels,
  settingLimits,
  togglePreferredModel,
  type ProviderSettings,
} from '@/lib/chat/provider-settings';

type UpdateSetting = <K extends keyof ProviderSettings>(
  name: K,
  value: ProviderSettings[K],
) => void;

type ModelGroups = { preferred: ModelOption[]; others: ModelOption[] };

/**
 * The catalogue's models; Ollama's as its server lists them (the catalogue's until it answers);
 * or OpenRouter's live list with the user's preferred models first.
 */
const useModelGroups = (provider: ProviderId, current: string, preferredIds: string[]) => {
  const dynamic = Boolean(providers[provider].dynamicModels);
  const live = useOpenRouterModels(dynamic);
  const ollama = useOllamaModels(provider === 'ollama');
  const groups = useMemo<ModelGroups>(() => {
    const catalogue = providers[provider].models;
    if (provider === 'ollama' && ollama.data?.source === 'server') {
      const installed = ollama.data.models.map((m) => ({ ...m, description: '' }));
      const others = installed.some((m) => m.value === current)
        ? installed
        : [{ value: current, label: current, description: '' }, ...installed];
      return { preferred: [], others };
    }
    if (!dynamic) return { preferred: [], others: catalogue };
    const all = new Map<string, ModelOption>();
    for (const option of catalogue) all.set(option.value, option);
    for (const model of live.data ?? []) {
      all.set(model.id, {
        value: model.id,
        label: model.name,
        description: model.description ?? '',
      });
    }
    const named = (id: string) => all.get(id) ?? { value: id, label: id, description: '' };
    const preferred = preferredIds.map(named);
    const others = [...all.values()].filter((option) => !preferredIds.includes(option.value));
    if (!all.has(current) && !preferredIds.includes(current)) others.unshift(named(current));
    return { preferred, others };
  }, [dynamic, provider, live.data, ollama.data, preferredIds, current]);
  return { groups, dynamic, loading: dynamic && live.isPending, failed: dynamic && live.isError };
};

const NumberSetting = ({
  label,
  hint,
  value,
  min,
  max,
  integer = false,
  onChange,
}: {
  label: string;
  hint: string;
  value: number | undefined;
  min: number;
  max: number;
  integer?: boolean;
  onChange: (value: number | undefined) => void;
}) => {
  const id = useId();
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const parsed = text.trim() === '' ? undefined : Number(text);
  const invalid =
    parsed !== undefined &&
    (!Number.isFinite(parsed) ||
      parsed < min ||
      parsed > max ||
      (integer && !Number.isInteger(parsed)));
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        inputMode="decimal"
        value={text}
        placeholder="Provider default"
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          const number = next.trim() === '' ? undefined : Number(next);
          const ok =
            number === undefined ||
            (Number.isFinite(number) &&
              number >= min &&
              number <= max &&
              (!integer || Number.isInteger(number)));
          if (ok) onChange(number);
        }}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {invalid ? `Use a number from ${min} to ${max}${integer ? ', whole' : ''}.` : hint}
      </p>
    </div>
  );
};

const SettingsPopover = ({
  provider,
  settings,
  onSettingChange,
  onReset,
}: {
  provider: ProviderId;
  settings: ProviderSettings;
  onSettingChange: UpdateSetting;
  onReset: () => void;
}) => {
  const temperatureId = useId();
  // Remounts the typed fields after a reset so they show the defaults again.
  const [resets, setResets] = useState(0);
  return (
    <DisclosurePanel
      label={`${providers[provider].name} settings`}
      className="right-0 bottom-full mb-2 grid gap-4"
      trigger={(props) => (
        <Button
          variant="ghost"
          size="icon"
          aria-label="Model settings"
          title="Model settings"
          {...props}
        >
          <SlidersHorizontal />
        </Button>
      )}
    >
      <p className="text-sm font-medium">{providers[provider].name} settings</p>
      <div className="grid gap-1.5">
        <div className="flex items-center justify-between">
          <Label htmlFor={temperatureId}>Temperature</Label>
          <span className="text-sm tabular-nums text-muted-foreground">
            {settings.temperature.toFixed(1)}
          </span>
        </div>
        <input
          id={temperatureId}
          type="range"
          min={settingLimits.temperature.min}
          max={settingLimits.temperature.max}
          step={0.1}
          value={settings.temperature}
          onChange={(event) => onSettingChange('temperature', Number(event.target.value))}
          className="accent-primary"
        />
        <p className="text-xs text-muted-foreground">
          Lower is more focused, higher more varied. Default{' '}
          {defaultTemperature[provider].toFixed(1)}.
        </p>
      </div>
      <NumberSetting
        key={`${provider}-top-p-${resets}`}
        label="Top P"
        hint="From 0 to 1. Leave empty for the provider's default."
        value={settings.topP}
        min={settingLimits.topP.min}
        max={settingLimits.topP.max}
        onChange={(value) => onSettingChange('topP', value)}
      />
      <NumberSetting
        key={`${provider}-max-tokens-${resets}`}
        label="Max tokens"
        hint="The longest reply, in tokens. Leave empty for the provider's default."
        value={settings.maxTokens}
        min={settingLimits.maxTokens.min}
        max={settingLimits.maxTokens.max}
        integer
        onChange={(value) => onSettingChange('maxTokens', value)}
      />
      <Button
        variant="outline"
        size="sm"
        onClick={() => {
          onReset();
          setResets((count) => count + 1);
        }}
      >
        Reset to defaults
      </Button>
    </DisclosurePanel>
  );
};

type ModelPickerProps = {
  provider: ProviderId;
  onProviderChange: (provider: ProviderId) => void;
  settings: ProviderSettings;
  onSettingChange: UpdateSetting;
  onResetSettings: () => void;
  disabled?: boolean;
  /** The provider select's id, for a "Switch model" elsewhere to focus it. */
  providerSelectId?: string;
};

/** Provider, model and per-provider settings; every choice is remembered in local storage. */
export const ModelPicker = ({
  provider,
  onProviderChange,
  settings,
  onSettingChange,
  onResetSettings,
  disabled = false,
  providerSelectId,
}: ModelPickerProps) => {
  const generatedId = useId();
  const providerId = providerSelectId ?? generatedId;
  const modelId = useId();
  const [preferredIds, setPreferredIds] = useState(readPreferredModels);
  const { groups, dynamic, loading, failed } = useModelGroups(
    provider,
    settings.model,
    preferredIds,
  );
  const isPreferred = preferredIds.includes(settings.model);
  const enabled = useEnabledProviders();
  const renderOption = (option: ModelOption) => (
    <option key={option.value} value={option.value} title={option.description}>
      {option.label}
    </option>
  );

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={providerId} className="sr-only">
        Provider
      </label>
      <NativeSelect
        id={providerId}
        value={provider}
        disabled={disabled}
        className="w-auto"
        onChange={(event) => {
          if (isProviderId(event.target.value)) onProviderChange(event.target.value);
        }}
      >
        {providerList.map((option) => {
          const off = enabled !== undefined && !enabled.includes(option.id);
          return (
            // The chosen provider stays selectable, so the picker never shows a blank value.
            <option key={option.id} value={option.id} disabled={off && option.id !== provider}>
              {off ? `${option.name} (turned off by an admin)` : option.name}
            </option>
          );
        })}
      </NativeSelect>
      <label htmlFor={modelId} className="sr-only">
        Model
      </label>
      <NativeSelect
        id={modelId}
        value={settings.model}
        disabled={disabled}
        className="w-auto max-w-[16rem]"
        onChange={(event) => onSettingChange('model', event.target.value)}
      >
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
      {dynamic ? (
        <Button
          variant="ghost"
          size="icon"
          aria-pressed={isPreferred}
          aria-label={isPreferred ? 'Remove from preferred models' : 'Add to preferred models'}
          title={isPreferred ? 'Remove from preferred models' : 'Add to preferred models'}
          onClick={() => setPreferredIds(togglePreferredModel(settings.model))}
        >
          <Star className={isPreferred ? 'fill-current text-amber-500' : undefined} />
        </Button>
      ) : null}
      <SettingsPopover
        provider={provider}
        settings={settings}
        onSettingChange={onSettingChange}
        onReset={onResetSettings}
      />
      {failed ? (
        <span className="text-xs text-muted-foreground">
          Could not load OpenRouter's model list.
        </span>
      ) : null}
    </div>
  );
};
