import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { providerList } from '@/lib/providers';
import { useKeyAvailability } from '@/lib/queries/key-availability';
import { useApiKeys } from '../api/get-api-keys';
import { ProviderKeyRow } from './provider-key-row';

/** The eight providers once each: the key a call would use, and the user's own key to manage. */
export const ApiKeysCard = () => {
  const keys = useApiKeys();
  const availability = useKeyAvailability();
  const failed = keys.isError ? keys.error : availability.isError ? availability.error : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your provider keys</CardTitle>
        <CardDescription>
          For every call Chorus uses your own key first, then a default key your administrator
          granted you, then the system key. Keys are stored encrypted on the server and never shown
          again in full. Test a key before saving it, or test the one you saved.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {failed ? (
          <p role="alert" className="text-sm text-destructive">
            Your keys could not be loaded: {errorMessage(failed)} Reload the page to try again.
          </p>
        ) : keys.isPending || availability.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading your keys" />
          </div>
        ) : (
          <ul aria-label="Providers" className="divide-y">
            {providerList.map((provider) => (
              <ProviderKeyRow
                key={provider.id}
                provider={provider}
                saved={keys.data?.find((k) => k.provider === provider.id)}
                availability={availability.data?.find((a) => a.provider === provider.id)}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
};
