import { CheckCircle2, KeyRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { toast } from 'sonner';
import type { ApiKeySummary } from '@chorus/shared/api/keys';
import { keyMessages } from '@chorus/shared/messages';
import type { ProviderEntry } from '@chorus/shared/providers';
import { Button } from '@/components/ui/button';
import { FieldProblem, SecretKeyInput } from '@/components/ui/secret-key-input';
import { useKeyDraft } from '@/lib/key-draft';
import { errorMessage } from '@/lib/api-error';
import { useDeleteApiKey } from '../api/delete-api-key';
import { useSaveApiKey } from '../api/save-api-key';
import { useTestApiKey } from '../api/test-api-key';

const sourceLabel: Record<ApiKeySummary['source'], string> = {
  user: 'Your key',
  default: 'Default key from your administrator',
  system: 'System key',
};

/** One provider: its saved key (masked), and a form to test, save or remove a key. */
export const ProviderKeyRow = ({
  provider,
  saved,
}: {
  provider: ProviderEntry;
  saved: ApiKeySummary | undefined;
}) => {
  const key = useKeyDraft(provider.id);
  const save = useSaveApiKey();
  const remove = useDeleteApiKey();
  const test = useTestApiKey();
  const inputId = `key-${provider.id}`;

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const apiKey = key.validKey();
    if (!apiKey) return;
    save.mutate(
      { provider: provider.id, apiKey, model: saved?.model ?? null },
      {
        onSuccess: () => {
          key.clear();
          toast.success(`${provider.name} API key saved`);
        },
        onError: (error) =>
          toast.error(keyMessages.saveFailed(provider.name), { description: errorMessage(error) }),
      },
    );
  };

  const onTest = () =>
    test.mutate(
      { provider: provider.id, apiKey: key.draft.trim() },
      {
        onSuccess: (result) =>
          result.valid ? toast.success(result.message) : toast.error(result.message),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );

  const onRemove = () =>
    remove.mutate(provider.id, {
      onSuccess: () => toast.success(`${provider.name} API key removed`),
      onError: (error) =>
        toast.error(`Failed to remove ${provider.name} API key`, {
          description: errorMessage(error),
        }),
    });

  return (
    <li className="grid gap-3 py-5 first:pt-0 last:pb-0 md:grid-cols-[14rem_1fr] md:gap-6">
      <div>
        <p className="flex items-center gap-2 font-medium">
          <span
            aria-hidden="true"
            className="inline-block size-2.5 rounded-full"
            style={{ backgroundColor: provider.color }}
          />
          {provider.name}
        </p>
        <p className="mt-1 text-sm text-muted-foreground">
          {saved ? (
            <span className="inline-flex items-center gap-1.5">
              <CheckCircle2 aria-hidden="true" className="size-3.5 text-primary" />
              {sourceLabel[saved.source]} <code className="font-mono">{saved.key_hint}</code>
            </span>
          ) : provider.keyOptional ? (
            'Runs locally; a key is optional.'
          ) : (
            'No key saved.'
          )}
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
              saved ? 'Paste a new key to replace it' : `Paste your ${provider.name} key`
            }
            onChange={key.setDraft}
          />
          <div className="flex gap-2">
            <Button
              type="button"
              variant="outline"
              disabled={test.isPending || (!key.draft.trim() && !provider.keyOptional)}
              onClick={onTest}
            >
              {test.isPending ? 'Testing…' : 'Test'}
            </Button>
            <Button type="submit" disabled={save.isPending || !key.draft.trim()}>
              <KeyRound aria-hidden="true" />
              Save
            </Button>
            {saved?.source === 'user' ? (
              <Button type="button" variant="ghost" disabled={remove.isPending} onClick={onRemove}>
                Remove
              </Button>
            ) : null}
          </div>
        </div>
        <FieldProblem id={inputId} problem={key.problem} />
      </form>
    </li>
  );
};
