import {
  Bot,
  Feather,
  Fish,
  Gem,
  Route,
  Search,
  Server,
  Sparkles,
  Wind,
  type LucideIcon,
} from 'lucide-react';
import type { ProviderEntry } from '@chorus/shared/providers';

/** The catalogue names lucide icons by name; only these eight are bundled. */
const icons: Record<string, LucideIcon> = {
  sparkles: Sparkles,
  feather: Feather,
  gem: Gem,
  fish: Fish,
  wind: Wind,
  search: Search,
  server: Server,
  route: Route,
};

export const ProviderIcon = ({ provider }: { provider: ProviderEntry }) => {
  const Icon = icons[provider.icon] ?? Bot;
  return (
    <span
      aria-hidden="true"
      className="flex size-9 shrink-0 items-center justify-center rounded-lg border bg-background"
    >
      <Icon className="size-5" style={{ color: provider.color }} />
    </span>
  );
};
