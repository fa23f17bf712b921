import { SlidersHorizontal, Star } from 'lucide-react';
import { useId, useState } from 'react';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
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
import { useModelGroups } from './use-model-groups';
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

/** The provider select's value for a custom AI; a provider's is its id. */
const customAiValue = (id: string) => `custom-ai:${id}`;

/** An emoji avatar goes before the name in the list; letters would read as part of it. */
const optionLabel = (ai: CustomAi) =>
  ai.avatar.trim() && !/^[\p{L}\p{N}]+$/u.test(ai.avatar.trim())
    ? `${ai.avatar.trim()} ${ai.name}`
    : ai.name;

/** The model a custom AI answers with, by its catalogue name where it has one. */
const modelName = ({ provider, model }: CustomAi) =>
  model === null
    ? 'default model'
    : (providers[provider].models.find((option) => option.value === model)?.label ?? model);

type ModelPickerProps = {
  provider: ProviderId;
  onProviderChange: (provider: ProviderId) => void;
  settings: ProviderSettings;
  onSettingChange: UpdateSetting;
  onResetSettings: () => void;
  disabled?: boolean;
  /** The provider select's id, for a "Switch model" elsewhere to focus it. */
  providerSelectId?: string;
  /** The user's custom AIs, offered as a group after the providers (undefined: not loaded). */
  customAis?: CustomAi[] | undefined;
  /** The custom AI chosen: its model and settings replace the picker's. Null for none. */
  customAiId?: string | null;
  /** A custom AI was chosen, or (null) a plain provider instead of one. */
  onCustomAiChange?: (id: string | null) => void;
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
  customAis,
  customAiId = null,
  onCustomAiChange,
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
  const customAi = customAiId ? customAis?.find((ai) => ai.id === customAiId) : undefined;
  const offerCustomAis = onCustomAiChange !== undefined && (customAis?.length ?? 0) > 0;
  const renderOption = (option: ModelOption) => (
    <option key={option.value} value={option.value} title={option.description}>
      {option.label}
    </option>
  );

  const providerOptions = providerList.map((option) => {
    const off = enabled !== undefined && !enabled.includes(option.id);
    return (
      // The chosen provider stays selectable, so the picker never shows a blank value.
      <option key={option.id} value={option.id} disabled={off && option.id !== provider}>
        {off ? `${option.name} (turned off by an admin)` : option.name}
      </option>
    );
  });

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={providerId} className="sr-only">
        Provider
      </label>
      <NativeSelect
        id={providerId}
        value={customAiId ? customAiValue(customAiId) : provider}
        disabled={disabled}
        className="w-auto max-w-[14rem]"
        onChange={(event) => {
          const { value } = event.target;
          const chosen = customAis?.find((ai) => customAiValue(ai.id) === value);
          if (chosen) {
            onCustomAiChange?.(chosen.id);
            return;
          }
          if (!isProviderId(value)) return;
          if (customAiId) onCustomAiChange?.(null);
          onProviderChange(value);
        }}
      >
        {offerCustomAis || customAiId ? (
          <>
            <optgroup label="Providers">{providerOptions}</optgroup>
            <optgroup label="Custom AIs">
              {customAis?.map((ai) => (
                <option key={ai.id} value={customAiValue(ai.id)} title={ai.description}>
                  {optionLabel(ai)}
                </option>
              ))}
              {customAiId && !customAi ? (
                // The list is still loading: the choice shows as what it is meanwhile.
                <option value={customAiValue(customAiId)}>Custom AI</option>
              ) : null}
            </optgroup>
          </>
        ) : (
          providerOptions
        )}
      </NativeSelect>
      {customAiId ? (
        <span
          className="max-w-[16rem] truncate text-xs text-muted-foreground"
          title="The custom AI's own model and settings answer. Change them on the Custom AIs page."
        >
          {customAi ? `${providers[customAi.provider].name} · ${modelName(customAi)}` : null}
        </span>
      ) : (
        <>
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
        </>
      )}
      {failed && !customAiId ? (
        <span className="text-xs text-muted-foreground">
          Could not load OpenRouter's model list.
        </span>
      ) : null}
    </div>
  );
};
