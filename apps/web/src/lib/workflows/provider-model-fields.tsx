import { useState } from 'react';
import {
  isProviderId,
  providers,
  type ModelOption,
  type ProviderId,
} from '@chorus/shared/providers';
import { useModelGroups } from '@/components/chat/use-model-groups';
import { NativeSelect } from '@/components/ui/native-select';
import { Field } from '@/lib/agents-tools/form-field';
import { readPreferredModels } from '@/lib/chat/provider-settings';
import { providerList } from '@/lib/providers';
import { useEnabledProviders } from '@/lib/queries/enabled-providers';

const ModelSelect = ({
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

/**
 * A provider and one of its models ('' for the provider's default), as the agent dialog picks
 * them: providers an admin turned off are shown but cannot be chosen.
 */
export const ProviderModelFields = ({
  provider,
  model,
  onChange,
  error,
}: {
  provider: ProviderId;
  model: string;
  onChange: (next: { provider: ProviderId; model: string }) => void;
  error?: string | undefined;
}) => {
  const enabled = useEnabledProviders();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Provider" error={error}>
        {({ id, describedBy }) => (
          <NativeSelect
            id={id}
            aria-describedby={describedBy}
            value={provider}
            onChange={(event) => {
              const next = event.target.value;
              if (isProviderId(next)) onChange({ provider: next, model: '' });
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
        )}
      </Field>
      <Field label="Model">
        {({ id }) => (
          <ModelSelect
            id={id}
            provider={provider}
            model={model}
            onChange={(next) => onChange({ provider, model: next })}
          />
        )}
      </Field>
    </div>
  );
};
