import type { ProviderId } from '@chorus/shared/providers';
import { Field } from '@/components/forms/field';
import { ModelSelect, ProviderSelect } from '@/components/persona/persona-fields';

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
}) => (
  <div className="grid gap-4 sm:grid-cols-2">
    <Field label="Provider" error={error}>
      {({ id, describedBy }) => (
        <ProviderSelect
          id={id}
          describedBy={describedBy}
          provider={provider}
          onChange={(next) => onChange({ provider: next, model: '' })}
        />
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
