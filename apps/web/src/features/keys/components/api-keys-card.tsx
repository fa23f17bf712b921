import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { providerList } from '@/lib/providers';
import { useApiKeys } from '../api/get-api-keys';
import { ProviderKeyRow } from './provider-key-row';

export const ApiKeysCard = () => {
  const keys = useApiKeys();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your provider keys</CardTitle>
        <CardDescription>
          Keys are stored encrypted on the server and never shown again in full. Test a key before
          saving it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {keys.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading your keys" />
          </div>
        ) : keys.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Your keys could not be loaded: {errorMessage(keys.error)} Reload the page to try again.
          </p>
        ) : (
          <ul className="divide-y">
            {providerList.map((provider) => (
              <ProviderKeyRow
                key={provider.id}
                provider={provider}
                saved={keys.data.find((k) => k.provider === provider.id)}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
};
