import type { Element } from 'hast';
import { Check, Copy } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { copyText } from '@/lib/clipboard';

/** The fence's language (```ts → "ts"), from the `language-*` class remark gives its code. */
export const languageOf = (node: Element | undefined): string | null => {
  const code = node?.children.find(
    (child): child is Element => child.type === 'element' && child.tagName === 'code',
  );
  const classes = code?.properties.className;
  const list = Array.isArray(classes) ? classes : [];
  for (const name of list) {
    if (typeof name === 'string' && name.startsWith('language-')) {
      return name.slice('language-'.length) || null;
    }
  }
  return null;
};

/**
 * A fenced code block with its language named above it and a copy button. The copy takes the
 * text as rendered (highlighting is only spans), so what lands on the clipboard is the code.
 */
export const CodeBlock = ({
  node,
  children,
}: {
  node?: Element | undefined;
  children?: ReactNode;
}) => {
  const preRef = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const language = languageOf(node);
  const copy = async () => {
    const text = preRef.current?.textContent ?? '';
    if (await copyText(text.replace(/\n$/, ''))) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  };
  return (
    <div className="code-block my-3 overflow-hidden rounded-md border bg-muted/60">
      <div className="flex items-center justify-between gap-2 border-b bg-muted/80 py-1 pr-1 pl-3 text-xs text-muted-foreground">
        <span className="font-mono" data-testid="code-language">
          {language ?? 'text'}
        </span>
        <button
          type="button"
          onClick={() => void copy()}
          className="inline-flex items-center gap-1 rounded px-2 py-1 hover:bg-background hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          aria-label={copied ? 'Code copied' : `Copy ${language ?? 'code'}`}
        >
          {copied ? (
            <Check aria-hidden="true" className="size-3.5" />
          ) : (
            <Copy aria-hidden="true" className="size-3.5" />
          )}
          <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
        </button>
      </div>
      <pre ref={preRef} className="overflow-x-auto p-3 text-[0.8125rem] leading-relaxed">
        {children}
      </pre>
    </div>
  );
};
