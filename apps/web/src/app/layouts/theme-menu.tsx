import { Monitor, Moon, Sun } from 'lucide-react';
import { themes, type Theme } from '@chorus/shared/storage-keys';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useTheme } from '@/app/providers/theme-context';
import { ThemeMenuButton, type MenuStart } from './menu-triggers';

const themeLabels: Record<Theme, string> = { light: 'Light', dark: 'Dark', system: 'System' };
const themeIcons = { light: Sun, dark: Moon, system: Monitor } as const;

export const ThemeMenu = ({ defaultOpen, autoFocus }: MenuStart) => {
  const { theme, setTheme } = useTheme();
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <ThemeMenuButton autoFocus={autoFocus} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuRadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
          {themes.map((option) => {
            const Icon = themeIcons[option];
            return (
              <DropdownMenuRadioItem key={option} value={option}>
                <Icon aria-hidden="true" />
                {themeLabels[option]}
              </DropdownMenuRadioItem>
            );
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
};
