import { Menu, MessageSquarePlus } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link, useLocation, useMatches, useNavigate } from 'react-router';
import { storageKeys } from '@chorus/shared/storage-keys';
import { Logo } from '@/components/logo';
import { MessageSearchLauncher } from '@/features/search/components/message-search-launcher';
import { onMessageSearchHit } from '@/features/search/message-search-state';
import { Button, buttonVariants } from '@/components/ui/button';
import { focusWhenReady } from '@/lib/focus-when-ready';
import { isNewChatShortcut } from '@/lib/shortcuts';
import { storage } from '@/lib/storage';
import { useMediaQuery } from '@/lib/use-media-query';
import { cn } from '@/lib/utils';
import { PageOutlet, SkipLink } from './page-outlet';
import { WorkspaceRail, WorkspaceSidebar } from './workspace-sidebar';

/** What a route tells the shell about its page (`handle` in routes.tsx). */
export type WorkspaceRouteHandle = {
  /** The page fills the whole area beside the sidebar, edge to edge (the chat). */
  fullBleed?: boolean;
};

/** Below this width the sidebar is a drawer (Tailwind's `md`). */
const wideQuery = '(min-width: 768px)';
const composerId = 'chat-composer';

const useSidebarCollapsed = () => {
  const [collapsed, setCollapsed] = useState(
    () => storage.get(storageKeys.sidebarCollapsed) === '1',
  );
  const update = useCallback((next: boolean) => {
    storage.set(storageKeys.sidebarCollapsed, next ? '1' : '0');
    setCollapsed(next);
  }, []);
  return [collapsed, update] as const;
};

/**
 * New chat focuses the composer once the new chat is on the page; the page may still be
 * loading, or be the chat that was open a moment ago.
 */
const useNewChatFocus = () => {
  const wanted = useRef(false);
  const location = useLocation();
  useEffect(() => {
    if (!wanted.current || location.pathname !== '/chat') return;
    wanted.current = false;
    return focusWhenReady(composerId);
  }, [location]);
  return useCallback(() => {
    wanted.current = true;
  }, []);
};

/**
 * The phone's drawer, over the native <dialog>: the browser traps focus, closes it on Escape and
 * makes the page behind it inert. A followed link closes it before the next page renders, so the
 * focus that returns to the menu button never lands after the page moved it (to the composer).
 */
const Drawer = ({
  open,
  onClose,
  onNewChat,
}: {
  open: boolean;
  onClose: () => void;
  onNewChat: () => void;
}) => {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // A message search opened from the drawer closes it too when a hit is chosen; as with a link,
  // the native dialog closes now and its close event tells the state.
  useEffect(() => onMessageSearchHit(() => ref.current?.close()), []);
  const closeOnLink = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget) {
      onClose();
      return;
    }
    // Only the native dialog closes here; its close event tells the state later. Unmounting the
    // content now would drop the link before the router handles the click, and the browser would
    // load the page afresh.
    if ((event.target as Element).closest('a[href]')) ref.current?.close();
  };
  return (
    <dialog
      ref={ref}
      aria-label="Navigation"
      onClose={() => {
        if (open) onClose();
      }}
      onClickCapture={closeOnLink}
      className="fixed inset-y-0 left-0 m-0 h-dvh max-h-none w-[85vw] max-w-80 border-r bg-background p-0 text-foreground shadow-xl transition-transform duration-200 backdrop:bg-black/50 starting:open:-translate-x-full"
    >
      {open ? <WorkspaceSidebar onNewChat={onNewChat} onClose={onClose} /> : null}
    </dialog>
  );
};

/** The top of the page on a phone: the drawer's button, the product, and New chat. */
const PhoneBar = ({ onOpen, onNewChat }: { onOpen: () => void; onNewChat: () => void }) => (
  <header className="flex h-12 shrink-0 items-center gap-2 border-b px-2">
    <Button variant="ghost" size="icon" aria-label="Open navigation" onClick={onOpen}>
      <Menu aria-hidden="true" />
    </Button>
    <Link to="/start" className="flex items-center gap-2 rounded-md font-semibold tracking-tight">
      <Logo className="size-6" />
      <span>Chorus</span>
    </Link>
    <Link
      to="/chat"
      onClick={onNewChat}
      title="New chat"
      className={buttonVariants({ variant: 'ghost', size: 'icon', className: 'ml-auto' })}
    >
      <MessageSquarePlus aria-hidden="true" />
      <span className="sr-only">New chat</span>
    </Link>
  </header>
);

/**
 * Every signed-in page: full height, one sidebar (New chat, the conversation search and list,
 * the areas, the account) that folds into a rail on wide screens and is a drawer on phones,
 * and the page beside it. No marketing header or footer.
 */
export const WorkspaceLayout = () => {
  const wide = useMediaQuery(wideQuery);
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const onNewChat = useNewChatFocus();
  const navigate = useNavigate();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isNewChatShortcut(event) || event.repeat) return;
      event.preventDefault();
      setDrawerOpen(false);
      onNewChat();
      void navigate('/chat');
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navigate, onNewChat]);
  // The rail's search button opens the sidebar with the search box focused.
  const [searchOnExpand, setSearchOnExpand] = useState(false);
  const { pathname } = useLocation();
  const fullBleed = useMatches().some(
    (match) => (match.handle as WorkspaceRouteHandle | undefined)?.fullBleed,
  );
  const mainRef = useRef<HTMLElement>(null);

  // The page scrolls inside <main>, which the router's scroll handling does not know about.
  useEffect(() => {
    mainRef.current?.scrollTo?.(0, 0);
  }, [pathname]);

  return (
    <div className="flex h-dvh overflow-hidden">
      <SkipLink />
      {wide ? (
        <aside
          aria-label="Sidebar"
          className={cn('shrink-0 border-r bg-muted/30', collapsed ? 'w-14' : 'w-72')}
        >
          {collapsed ? (
            <WorkspaceRail
              onNewChat={onNewChat}
              onExpand={() => setCollapsed(false)}
              onSearch={() => {
                setSearchOnExpand(true);
                setCollapsed(false);
              }}
            />
          ) : (
            <WorkspaceSidebar
              onNewChat={onNewChat}
              autoFocusSearch={searchOnExpand}
              onCollapse={() => {
                setSearchOnExpand(false);
                setCollapsed(true);
              }}
            />
          )}
        </aside>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        {wide ? null : <PhoneBar onOpen={() => setDrawerOpen(true)} onNewChat={onNewChat} />}
        <main
          id="main"
          ref={mainRef}
          // In the tab order: the page scrolls inside it, and a keyboard must be able to scroll a
          // page that has nothing focusable (axe: scrollable-region-focusable).
          tabIndex={0}
          className="min-h-0 flex-1 overflow-y-auto outline-none focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:ring-inset"
        >
          <div
            className={
              fullBleed ? 'h-full' : 'mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 lg:px-10 lg:py-10'
            }
          >
            <PageOutlet />
          </div>
        </main>
      </div>
      {wide ? null : (
        <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)} onNewChat={onNewChat} />
      )}
      <MessageSearchLauncher />
    </div>
  );
};
