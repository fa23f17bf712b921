import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { providerList } from '@/lib/providers';
import { useAdminApiKeys } from '../api/get-admin-api-keys';
import { useSetProviderEnabled } from '../api/set-provider-enabled';
import { AdminKeySlot } from './admin-key-slot';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';

export const AdminApiKeysPage = () => {
  const keys = useAdminApiKeys();
  const toggle = useSetProviderEnabled();

  const onToggle = (provider: (typeof providerList)[number], enabled: boolean) =>
    toggle.mutate(
      { provider: provider.id, enabled },
      {
        onSuccess: () => toast.success(`${provider.name} turned ${enabled ? 'on' : 'off'}`),
        onError: (error) =>
          toast.error(`Could not turn ${provider.name} ${enabled ? 'on' : 'off'}`, {
            description: errorMessage(error),
          }),
      },
    );

  return (
    <div>
      <PageHeader
        title="System API keys"
        description="A system key serves every user who has no key of their own. A default key serves the users it is granted to (at sign-up, or from their API keys page). Keys are stored encrypted and never shown again in full; every change is written to the audit log."
      />
      {keys.isPending ? (
        <TableLoading label="Loading the system keys" />
      ) : keys.isError ? (
        <TableLoadError what="The system keys" error={keys.error} />
      ) : (
        <ul className="grid gap-4">
          {providerList.map((provider) => {
            const enabled =
              keys.data.providers.find((p) => p.provider === provider.id)?.enabled ?? true;
            const keyOf = (kind: 'system' | 'default') =>
              keys.data.keys.find((k) => k.provider === provider.id && k.kind === kind);
            return (
              <li key={provider.id} className="grid gap-4 rounded-xl border bg-card p-5 shadow-sm">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p className="flex items-center gap-2 font-medium">
                    <span
                      aria-hidden="true"
                      className="inline-block size-2.5 rounded-full"
                      style={{ backgroundColor: provider.color }}
                    />
                    {provider.name}
                    <span className="text-sm font-normal text-muted-foreground">
                      {enabled ? 'Enabled' : 'Turned off for everyone'}
                    </span>
                  </p>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={toggle.isPending}
                    onClick={() => onToggle(provider, !enabled)}
                  >
                    {enabled ? `Turn ${provider.name} off` : `Turn ${provider.name} on`}
                  </Button>
                </div>
                <div className="grid gap-4 md:grid-cols-2">
                  <AdminKeySlot provider={provider} kind="system" saved={keyOf('system')} />
                  <AdminKeySlot provider={provider} kind="default" saved={keyOf('default')} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
};
