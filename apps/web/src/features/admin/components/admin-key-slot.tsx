import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { AdminApiKeySummary, AdminKeyKind } from '@chorus/shared/api/admin-keys';
import { apiKeyFormatError } from '@chorus/shared/api/keys';
import { keyMessages } from '@chorus/shared/messages';
import type { ProviderEntry } from '@chorus/shared/providers';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
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
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveAdminApiKey();
  const remove = useDeleteAdminApiKey();
  const inputId = `admin-key-${kind}-${provider.id}`;

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formatProblem = apiKeyFormatError(provider.id, draft);
    setProblem(formatProblem);
    if (formatProblem) return;
    save.mutate(
      { kind, provider: provider.id, apiKey: draft.trim() },
      {
        onSuccess: () => {
          setDraft('');
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
        <Input
          id={inputId}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={saved ? 'Paste a new key to rotate it' : `Paste a ${provider.name} key`}
          value={draft}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${inputId}-problem` : undefined}
          onChange={(event) => {
            setDraft(event.target.value);
            setProblem(null);
          }}
        />
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending || !draft.trim()}>
            Save
          </Button>
          {saved ? (
            <Button type="button" variant="ghost" disabled={remove.isPending} onClick={onRemove}>
              Remove
            </Button>
          ) : null}
        </div>
      </div>
      {problem ? (
        <p id={`${inputId}-problem`} className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
    </form>
  );
};
