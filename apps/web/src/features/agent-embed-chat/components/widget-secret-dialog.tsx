import { TriangleAlert } from 'lucide-react';
import type { WidgetWithSecret } from '@chorus/shared/api/widgets';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { CopyBlock } from './copy-block';

/** How the host site's server signs a visitor token, in Node with `jose`. */
export const signingExample = (publicId: string) => `import { SignJWT } from 'jose';

// On your server, for the visitor signed in to your site. Keep the secret there, never in a page.
const secret = new TextEncoder().encode(process.env.CHORUS_WIDGET_SECRET);
const token = await new SignJWT({ widget: '${publicId}', visitor_id: user.id, name: user.name })
  .setProtectedHeader({ alg: 'HS256' })
  .setExpirationTime('1h')
  .sign(secret);`;

/** The snippet with the token your server signed for this page view. */
export const signedSnippet = (snippet: string) =>
  snippet.replace('<script ', '<script data-visitor-token="TOKEN_FROM_YOUR_SERVER" ');

/**
 * The widget's whole secret, after it was created or its secret rotated: the only time it is
 * shown. With it, the example of a visitor token signed on the host's server.
 */
export const WidgetSecretDialog = ({
  widget,
  onClose,
}: {
  widget: WidgetWithSecret | null;
  onClose: () => void;
}) => (
  <Dialog
    open={widget !== null}
    title="Copy the widget’s secret now"
    onClose={onClose}
    className="max-w-2xl"
  >
    {widget ? (
      <div className="grid gap-4 text-sm">
        <p className="flex items-start gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 p-3">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            This is the only time the secret of “{widget.name}” is shown. Keep it on your site’s
            server, never in a page or in source control. If it leaks, rotate it: tokens signed with
            the old one stop working at once.
          </span>
        </p>
        <CopyBlock
          label="Widget secret"
          text={widget.secret}
          copyLabel="Copy secret"
          copied="Secret copied"
        />
        <div className="grid gap-2">
          <h3 className="font-medium">Signed visitors (optional)</h3>
          <p className="text-muted-foreground">
            To tell the widget who a visitor is — and show them their conversations on any device —
            your server signs a short-lived token for them with this secret (HS256, at most 24
            hours). In Node with <code>jose</code>:
          </p>
          <CopyBlock
            label="Signing example"
            text={signingExample(widget.public_id)}
            copyLabel="Copy example"
            copied="Example copied"
          />
          <p className="text-muted-foreground">
            Then put the token on the snippet, or call{' '}
            <code>window.ChorusWidget.identify(token)</code> once the visitor signs in:
          </p>
          <CopyBlock
            label="Snippet with a visitor token"
            text={signedSnippet(widget.snippet)}
            copyLabel="Copy signed snippet"
            copied="Snippet copied"
          />
        </div>
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    ) : null}
  </Dialog>
);
