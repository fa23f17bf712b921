import { isProviderId } from '@chorus/shared/providers';
import { providerList } from '@/lib/providers';
import { Label } from '@/components/ui/label';
import { useChat } from './chat-context';

export const ProviderPicker = () => {
  const { provider, setProvider } = useChat();
  return (
    <div className="grid gap-2 sm:max-w-xs">
      <Label htmlFor="default-provider">Default provider</Label>
      <select
        id="default-provider"
        value={provider}
        onChange={(event) => {
          if (isProviderId(event.target.value)) setProvider(event.target.value);
        }}
        className="h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:bg-input/30"
      >
        {providerList.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
      <p className="text-xs text-muted-foreground">New conversations start with this provider.</p>
    </div>
  );
};
