import type { FormEvent } from 'react';
import { toast } from 'sonner';
import type { AdminApiKeySummary, AdminKeyKind } from '@chorus/shared/api/admin-keys';
import { keyMessages } from '@chorus/shared/messages';
import type { ProviderEntry } from '@chorus/shared/providers';
import { Button } from '@/components/ui/button';
import { FieldProblem, SecretKeyInput } from '@/components/ui/secret-key-input';
import { useKeyDraft } from '@/lib/key-draft';
import { errorMessage } from '@/lib/api-error';
import { useDeleteAdminApiKey } from '../api/delete-admin-api-key';
import { useSaveAdminApiKey } from '../api/save-admin-api-key';

const kindLabel: Record<AdminKeyKind, string> = { system: 'System key', default: 'Default key' };

/** One admin key of a provider: its masked hint, and a form to set, rotate or remove it. */
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
          placeholder={saved ? 'Paste a new key to rotate it' : `Paste a ${provider.name} key`}
          onChange={key.setDraft}
        />
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending || !key.draft.trim()}>
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
    </form>
  );
};
