import { Ban, CheckCircle2, CircleDashed, KeyRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { toast } from 'sonner';
import type { ApiKeySummary, KeySource, ProviderAvailability } from '@chorus/shared/api/keys';
import { keyMessages } from '@chorus/shared/messages';
import type { ProviderEntry } from '@chorus/shared/providers';
import { KeyTestResult } from '@/components/keys/key-test-result';
import { Button } from '@/components/ui/button';
import { FieldProblem, SecretKeyInput } from '@/components/ui/secret-key-input';
import { useKeyDraft } from '@/lib/key-draft';
import { errorMessage } from '@/lib/api-error';
import { useTestApiKey } from '@/lib/queries/test-api-key';
import { useDeleteApiKey } from '../api/delete-api-key';
import { useSaveApiKey } from '../api/save-api-key';

export const keySourceLabel: Record<KeySource, string> = {
  user: 'Your key',
  default: 'Default key from your administrator',
  system: 'System key',
  none: 'Runs locally, no key needed',
};

/** Which key a call to this provider would use now, or why there is none. */
const Status = ({ entry }: { entry: ProviderAvailability | undefined }) => {
  if (!entry) return null;
  if (!entry.enabled) {
    return (
      <span className="inline-flex items-center gap-1.5">
        <Ban aria-hidden="true" className="size-3.5" />
        Turned off by your administrator
      </span>
    );
  }
  if (!entry.source) {
    return (
      <span className="inline-flex items-center gap-1.5">
        <CircleDashed aria-hidden="true" className="size-3.5" />
        No key available
      </span>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <CheckCircle2 aria-hidden="true" className="size-3.5 text-primary" />
      {keySourceLabel[entry.source]}
      {entry.key_hint ? <code className="font-mono">{entry.key_hint}</code> : null}
    </span>
  );
};

/**
 * One provider: which key its calls use, and a form to test, save or remove a key. Test checks
 * the typed key; with nothing typed, the saved key of the user's own (opened on the server), or
 * for Ollama, which needs none, whether its server answers. The outcome shows on the row.
 */
export const ProviderKeyRow = ({
  provider,
  saved,
  availability,
}: {
  provider: ProviderEntry;
  saved: ApiKeySummary | undefined;
  availability: ProviderAvailability | undefined;
}) => {
  const key = useKeyDraft(provider.id);
  const save = useSaveApiKey();
  const remove = useDeleteApiKey();
  const test = useTestApiKey();
  const inputId = `key-${provider.id}`;
  const typed = key.draft.trim();
  const ownSaved = saved?.source === 'user';

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const apiKey = key.validKey();
    if (!apiKey) return;
    save.mutate(
      { provider: provider.id, apiKey, model: saved?.model ?? null },
      {
        onSuccess: () => {
          key.clear();
          test.reset();
          toast.success(`${provider.name} API key saved`);
        },
        onError: (error) =>
          toast.error(keyMessages.saveFailed(provider.name), { description: errorMessage(error) }),
      },
    );
  };

  const canTest = typed !== '' || ownSaved || Boolean(provider.keyOptional);
  const testLabel =
    typed !== ''
      ? 'Test'
      : ownSaved
        ? 'Test saved key'
        : provider.keyOptional
          ? 'Test server'
          : 'Test';
  const onTest = () =>
    test.mutate(
      typed !== ''
        ? { provider: provider.id, apiKey: typed }
        : ownSaved
          ? { provider: provider.id, stored: true }
          : { provider: provider.id },
    );

  const onRemove = () =>
    remove.mutate(provider.id, {
      onSuccess: () => {
        test.reset();
        toast.success(`${provider.name} API key removed`);
      },
      onError: (error) =>
        toast.error(`Failed to remove ${provider.name} API key`, {
          description: errorMessage(error),
        }),
    });

  return (
    <li
      id={`provider-${provider.id}`}
      aria-labelledby={`${inputId}-name`}
      className="grid gap-3 py-5 first:pt-0 last:pb-0 md:grid-cols-[14rem_1fr] md:gap-6"
    >
      <div>
        <p id={`${inputId}-name`} className="flex items-center gap-2 font-medium">
          <span
            aria-hidden="true"
            className="inline-block size-2.5 rounded-full"
            style={{ backgroundColor: provider.color }}
          />
          {provider.name}
        </p>
        <p className="mt-1 text-sm text-muted-foreground">
          <Status entry={availability} />
        </p>
      </div>
      <form noValidate onSubmit={onSave} className="grid gap-2">
        <label htmlFor={inputId} className="sr-only">
          {provider.name} API key
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <SecretKeyInput
            id={inputId}
            value={key.draft}
            problem={key.problem}
            placeholder={
              provider.keyOptional
                ? `Optional: a key, if your ${provider.name} server asks for one`
                : ownSaved
                  ? 'Paste a new key to replace it'
                  : `Paste your ${provider.name} key`
            }
            onChange={(value) => {
              key.setDraft(value);
              test.reset();
            }}
          />
          <div className="flex flex-wrap gap-2 sm:shrink-0 sm:flex-nowrap">
            <Button
              type="button"
              variant="outline"
              disabled={test.isPending || !canTest}
              onClick={onTest}
            >
              {test.isPending ? 'Testing…' : testLabel}
            </Button>
            <Button type="submit" disabled={save.isPending || typed === ''}>
              <KeyRound aria-hidden="true" />
              Save
            </Button>
            {ownSaved ? (
              <Button type="button" variant="ghost" disabled={remove.isPending} onClick={onRemove}>
                Remove
              </Button>
            ) : null}
          </div>
        </div>
        <FieldProblem id={inputId} problem={key.problem} />
        <KeyTestResult result={test.data} error={test.error} />
      </form>
    </li>
  );
};
