import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/clipboard';
import { toast } from '@/lib/toast';

/** Text to copy as it is, read-only in a code block, with its copy button. */
export const CopyBlock = ({
  label,
  text,
  copyLabel,
  copied: copiedMessage,
}: {
  /** What the block holds, for screen readers ("Snippet"). */
  label: string;
  text: string;
  copyLabel: string;
  /** Said in a toast once copied. */
  copied: string;
}) => {
  const [copied, setCopied] = useState(false);
  return (
    <div className="grid gap-2">
      <pre
        aria-label={label}
        className="overflow-x-auto rounded-md border bg-muted/50 p-3 font-mono text-xs break-all whitespace-pre-wrap"
      >
        <code>{text}</code>
      </pre>
      <div>
        <Button
          variant="outline"
          size="sm"
          onClick={() =>
            void copyText(text).then((ok) => {
              if (!ok) return;
              setCopied(true);
              toast.success(copiedMessage);
            })
          }
        >
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />} {copyLabel}
        </Button>
      </div>
    </div>
  );
};
