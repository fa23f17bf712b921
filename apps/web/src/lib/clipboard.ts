import { toast } from './toast';

/** Puts text on the clipboard; says so when the browser refuses. True when it was copied. */
export const copyText = async (text: string): Promise<boolean> => {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    toast.error('Could not copy: the browser refused access to the clipboard.');
    return false;
  }
};
