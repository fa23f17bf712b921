import type { FormEvent } from 'react';
import { toast } from 'sonner';
import type { AdminApiKeySummary, AdminKeyKind } from '@chorus/shared/api/admin-keys';
import { keyMessages } from '@chorus/shared/messages';
import type { ProviderEntry } from '@chorus/shared/providers';
import { KeyTestResult } from '@/components/keys/key-test-result';
import { Button } from '@/components/ui/button';
import { FieldProblem, SecretKeyInput } from '@/components/ui/secret-key-input';
import { useKeyDraft } from '@/lib/key-draft';
import { errorMessage } from '@/lib/api-error';
import { withArticle } from '@/lib/providers';
import { useTestApiKey } from '@/lib/queries/test-api-key';
import { useDeleteAdminApiKey } from '../api/delete-admin-api-key';
import { useSaveAdminApiKey } from '../api/save-admin-api-key';

const kindLabel: Record<AdminKeyKind, string> = { system: 'System key', default: 'Default key' };

/**
 * One admin key of a provider: its masked hint, and a form to test, set, rotate or remove it.
 * Test asks the provider about the pasted key before anyone's calls depend on it.
 */
export const AdminKeySlot = ({
  provider,
  kind,
  saved,
}: {
  provider: ProviderEntry;
  kind: AdminKeyKind;
  saved: AdminApiKeySummary | undefined;
}) => {
  const key = useKeyDraft(provider.id);
  const save = useSaveAdminApiKey();
  const remove = useDeleteAdminApiKey();
  const test = useTestApiKey();
  const typed = key.draft.trim();
  const inputId = `admin-key-${kind}-${provider.id}`;

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const apiKey = key.validKey();
    if (!apiKey) return;
    save.mutate(
      { kind, provider: provider.id, apiKey },
      {
        onSuccess: () => {
          key.clear();
          test.reset();
          toast.success(`${provider.name} ${kindLabel[kind].toLowerCase()} saved`);
        },
        onError: (error) =>
          toast.error(keyMessages.saveFailed(provider.name), { description: errorMessage(error) }),
      },
    );
  };

  const onRemove = () =>
    remove.mutate(
      { kind, provider: provider.id },
      {
        onSuccess: () => toast.success(`${provider.name} ${kindLabel[kind].toLowerCase()} removed`),
        onError: (error) =>
          toast.error(`Failed to remove the ${provider.name} ${kindLabel[kind].toLowerCase()}`, {
            description: errorMessage(error),
          }),
      },
    );

  return (
    <form noValidate onSubmit={onSave} className="grid gap-2">
      <label htmlFor={inputId} className="text-sm font-medium">
        {kindLabel[kind]}{' '}
        <span className="font-normal text-muted-foreground">
          {saved ? <code className="font-mono">{saved.key_hint}</code> : 'not set'}
        </span>
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <SecretKeyInput
          id={inputId}
          value={key.draft}
          problem={key.problem}
          placeholder={
            saved ? 'Paste a new key to rotate it' : `Paste ${withArticle(provider.name)} key`
          }
          onChange={(value) => {
            key.setDraft(value);
            test.reset();
          }}
        />
        <div className="flex gap-2">
          <Button
            type="button"
            variant="outline"
            disabled={test.isPending || typed === ''}
            onClick={() => test.mutate({ provider: provider.id, apiKey: typed })}
          >
            {test.isPending ? 'Testing…' : 'Test'}
          </Button>
          <Button type="submit" disabled={save.isPending || typed === ''}>
            Save
          </Button>
          {saved ? (
            <Button type="button" variant="ghost" disabled={remove.isPending} onClick={onRemove}>
              Remove
            </Button>
          ) : null}
        </div>
      </div>
      <FieldProblem id={inputId} problem={key.problem} />
      <KeyTestResult result={test.data} error={test.error} />
    </form>
  );
};
