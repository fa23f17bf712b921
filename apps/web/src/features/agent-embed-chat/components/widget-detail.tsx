import { ArrowLeft, KeyRound, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Widget, WidgetWithSecret } from '@chorus/shared/api/widgets';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useRotateWidgetSecret } from '../api/widgets';
import { CopyBlock } from './copy-block';
import { BudgetBar, EnabledSwitch, OriginsLine, TargetLine } from './widget-parts';
import { WidgetSessions } from './widget-sessions';
import { WidgetUsage } from './widget-usage';

const embedPath = (publicId: string) => `/embed/${encodeURIComponent(publicId)}`;

/**
 * The widget's own page (`/embed/{public_id}`) inside a drawing of a host page, in the corner the
 * widget sits in. The app's origin may always frame its widgets; a save reloads it.
 */
const Preview = ({ widget }: { widget: Widget }) => {
  const left = widget.appearance.position === 'bottom-left';
  return (
    <div className="overflow-hidden rounded-xl border bg-muted/30 shadow-sm">
      <div aria-hidden="true" className="flex items-center gap-1.5 border-b bg-muted/60 px-3 py-2">
        <span className="size-2.5 rounded-full bg-red-400" />
        <span className="size-2.5 rounded-full bg-amber-400" />
        <span className="size-2.5 rounded-full bg-emerald-400" />
        <span className="ml-3 truncate rounded bg-background px-2 py-0.5 text-xs text-muted-foreground">
          {widget.allowed_origins[0] ?? 'https://your-site.example'}
        </span>
      </div>
      <div className="relative min-h-[600px] p-6">
        <div aria-hidden="true" className="grid max-w-md gap-3">
          <div className="h-5 w-2/3 rounded bg-muted" />
          <div className="h-3 w-full rounded bg-muted" />
          <div className="h-3 w-5/6 rounded bg-muted" />
          <div className="h-3 w-4/6 rounded bg-muted" />
        </div>
        <div
          className={cn(
            'absolute bottom-4 flex flex-col gap-3',
            left ? 'left-4 items-start' : 'right-4 items-end',
          )}
        >
          <iframe
            key={widget.updated_at}
            title="Widget preview"
            src={embedPath(widget.public_id)}
            className="h-[480px] w-[min(360px,calc(100vw-6rem))] rounded-xl border bg-background shadow-lg"
          />
          <span
            aria-hidden="true"
            className="size-12 rounded-full shadow-md"
            style={{ backgroundColor: widget.appearance.color }}
          />
        </div>
      </div>
    </div>
  );
};

/**
 * One widget: the snippet to paste, a live preview, its visitors' conversations and its use per
 * day, with Edit, Rotate secret and Delete.
 */
export const WidgetDetail = ({
  widget,
  onEdit,
  onRotated,
  onDelete,
}: {
  widget: Widget;
  onEdit: () => void;
  onRotated: (widget: WidgetWithSecret) => void;
  onDelete: () => void;
}) => {
  const rotate = useRotateWidgetSecret();
  const [rotating, setRotating] = useState(false);
  const [tab, setTab] = useState('sessions');

  return (
    <div className="grid gap-8">
      <div>
        <Link
          to="/agent-embed-chat"
          className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden="true" className="size-4" /> All widgets
        </Link>
        <PageHeader
          title={widget.name}
          description={<TargetLine target={widget.target} />}
          actions={
            <>
              <Button variant="outline" onClick={onEdit}>
                <Pencil aria-hidden="true" /> Edit
              </Button>
              <Button
                variant="outline"
                disabled={rotate.isPending}
                onClick={() => setRotating(true)}
              >
                <KeyRound aria-hidden="true" /> Rotate secret
              </Button>
              <Button variant="outline" className="text-destructive" onClick={onDelete}>
                <Trash2 aria-hidden="true" /> Delete widget
              </Button>
            </>
          }
        />
        <div className="-mt-4 grid gap-3 sm:grid-cols-[auto_1fr_1fr] sm:items-center sm:gap-6">
          <EnabledSwitch widget={widget} />
          <BudgetBar
            label="Tokens today"
            used={widget.usage.tokens_today}
            budget={widget.budget.daily_tokens}
          />
          <BudgetBar
            label="Tokens this month"
            used={widget.usage.tokens_this_month}
            budget={widget.budget.monthly_tokens}
          />
        </div>
      </div>

      <div className="grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="snippet-title" className="grid content-start gap-3">
          <h2 id="snippet-title" className="text-lg font-semibold">
            Put it on your site
          </h2>
          <p className="text-sm text-muted-foreground">
            Paste this before <code>&lt;/body&gt;</code> on the pages of an allowed origin. It adds
            a button in the corner that opens the chat.
          </p>
          <CopyBlock
            label="Snippet"
            text={widget.snippet}
            copyLabel="Copy snippet"
            copied="Snippet copied"
          />
          <OriginsLine origins={widget.allowed_origins} />
          {widget.allowed_origins.length > 0 ? (
            <ul aria-label="Allowed origins" className="grid gap-0.5 text-xs">
              {widget.allowed_origins.map((origin) => (
                <li key={origin}>
                  <code>{origin}</code>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="text-xs text-muted-foreground">
            {widget.require_signed_visitors
              ? 'Signed visitors only: your server signs a token for each visitor with the widget’s secret and puts it on the snippet as data-visitor-token.'
              : 'Anyone on an allowed site may chat. To know who a visitor is, your server can sign a token with the widget’s secret and put it on the snippet as data-visitor-token.'}{' '}
            The secret starts with <code>{widget.secret_hint}</code>; it was shown once. Lost it?
            Rotate it.
          </p>
          {!widget.enabled ? (
            <p className="text-xs text-muted-foreground">
              The widget is off: visitors and the preview are told it is unavailable.
            </p>
          ) : null}
        </section>
        <section aria-labelledby="preview-title" className="grid content-start gap-3">
          <h2 id="preview-title" className="text-lg font-semibold">
            Live preview
          </h2>
          <Preview widget={widget} />
        </section>
      </div>

      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="sm:w-80">
          <TabsTrigger value="sessions">Sessions</TabsTrigger>
          <TabsTrigger value="usage">Usage</TabsTrigger>
        </TabsList>
        <TabsContent value="sessions">
          <WidgetSessions widgetId={widget.id} widgetName={widget.name} />
        </TabsContent>
        <TabsContent value="usage">
          <WidgetUsage widgetId={widget.id} />
        </TabsContent>
      </Tabs>

      <ConfirmDialog
        open={rotating}
        title="Rotate the secret?"
        confirmLabel="Rotate secret"
        destructive
        onConfirm={() => {
          setRotating(false);
          rotate.mutate(widget.id, {
            onSuccess: (rotated) => onRotated(rotated),
            onError: (error) =>
              toast.error('The secret was not rotated', { description: errorMessage(error) }),
          });
        }}
        onCancel={() => setRotating(false)}
      >
        The widget gets a new secret, shown once. Visitor tokens signed with the old one are refused
        from now on, so update your server at the same time.
      </ConfirmDialog>
    </div>
  );
};
