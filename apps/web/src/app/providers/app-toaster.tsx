import type { CSSProperties } from 'react';
import { Toaster } from 'sonner';
import { toastDefaults } from '@chorus/shared/limits';
import { useTheme } from './theme-context';

export const AppToaster = () => {
  const { resolvedTheme } = useTheme();
  return (
    <Toaster
      theme={resolvedTheme}
      richColors
      closeButton
      position="bottom-right"
      duration={toastDefaults.durationMs}
      visibleToasts={toastDefaults.visibleToasts}
      gap={toastDefaults.gapPx}
      style={{ '--width': `${toastDefaults.widthPx}px` } as CSSProperties}
    />
  );
};
