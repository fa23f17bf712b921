import {
  MessageSquarePlus,
  PanelLeftClose,
  PanelLeftOpen,
  Search,
  X,
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useMatch } from 'react-router';
import { ConversationList } from '@/components/conversations/conversation-list';
import { Logo } from '@/components/logo';
import { Button, buttonVariants } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { SearchMessagesButton } from '@/features/search/components/search-messages-button';
import { useAdminStatus } from '@/lib/roles';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';
import { LazyThemeMenu, LazyUserMenu } from './header-menus';
import { adminNav, exploreNav, workspaceNav } from './nav-items';
import type { NavSection } from './nav-types';

const searchDelayMs = 250;

/** The id of the conversation search box, for a shortcut that focuses it. */
export const conversationSearchId = 'conversation-search';

const useDebounced = (value: string, delayMs: number) => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
};

/** The areas a signed-in person can open: the workspace's, then the back office's for admins. */
const useNavSections = (): NavSection[] => {
  const { isAdmin } = useAdminStatus();
  return [...workspaceNav, ...(isAdmin ? adminNav : []), exploreNav];
};

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex h-8 items-center gap-2 rounded-md px-2 text-sm transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
    isActive
      ? 'bg-accent font-medium text-accent-foreground'
      : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
  );

const AreaNav = ({ sections, className }: { sections: NavSection[]; className?: string }) => {
  const ref = useRef<HTMLElement>(null);
  const baseId = useId();
  const { pathname } = useLocation();
  // A long list scrolls: the open area stays in sight (the back office's appear once the admin
  // check answers).
  useEffect(() => {
    ref.current?.querySelector('[aria-current="page"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [pathname, sections.length]);
  return (
    <nav ref={ref} aria-label="Areas" className={cn('grid content-start gap-3', className)}>
      {sections.map((section, index) => (
        <div key={section.title}>
          <p
            id={`${baseId}-${index}`}
            className="px-2 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase"
          >
            {section.title}
          </p>
          <ul aria-labelledby={`${baseId}-${index}`} className="grid gap-0.5">
            {section.items.map(({ to, label, icon: Icon, end }) => (
              <li key={to}>
                <NavLink to={to} end={end ?? false} className={navLinkClass}>
                  <Icon aria-hidden="true" className="size-4 shrink-0" />
                  <span className="truncate">{label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
};

const Account = ({ compact }: { compact: boolean }) => {
  const session = useSession();
  if (session.status !== 'signed-in') return null;
  const { user } = session;
  return (
    <div className={cn('flex items-center gap-1 border-t pt-2', compact && 'flex-col')}>
      <LazyUserMenu user={user} />
      {compact ? null : (
        <span className="min-w-0 flex-1 truncate text-sm" title={user.email}>
          {user.name || user.email}
        </span>
      )}
      <LazyThemeMenu />
    </div>
  );
};

type SidebarProps = {
  /** A New chat press: the shell focuses the composer once the chat is there. */
  onNewChat: () => void;
};

/**
 * The full sidebar, on wide screens and in the phone's drawer: New chat, the search, the areas
 * and the conversations. While a search is typed the areas step aside so results are in sight.
 */
export const WorkspaceSidebar = ({
  onNewChat,
  onCollapse,
  onClose,
  onOpenConversation,
  autoFocusSearch = false,
}: SidebarProps & {
  /** Wide screens: folds the sidebar into a rail of icons. */
  onCollapse?: () => void;
  /** The drawer: closes it. */
  onClose?: () => void;
  onOpenConversation?: () => void;
  autoFocusSearch?: boolean;
}) => {
  const chat = useMatch('/chat/:chatId');
  const sections = useNavSections();
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), searchDelayMs);
  const searching = searchText.trim() !== '';
  const listLabelId = useId();

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-3">
      <div className="flex items-center justify-between gap-2">
        <Link
          to="/start"
          className="flex items-center gap-2 rounded-md px-1 font-semibold tracking-tight"
        >
          <Logo className="size-6" />
          <span>Chorus</span>
        </Link>
        {onCollapse ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Collapse sidebar"
            aria-expanded={true}
            title="Collapse sidebar"
            onClick={onCollapse}
          >
            <PanelLeftClose aria-hidden="true" />
          </Button>
        ) : null}
        {onClose ? (
          <Button variant="ghost" size="icon" aria-label="Close navigation" onClick={onClose}>
            <X aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      <Link to="/chat" onClick={onNewChat} className={buttonVariants({ className: 'w-full' })}>
        <MessageSquarePlus aria-hidden="true" />
        New chat
      </Link>
      <div role="search" className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          id={conversationSearchId}
          type="search"
          aria-label="Search conversations"
          placeholder="Search conversations"
          autoFocus={autoFocusSearch}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && searchText) {
              event.preventDefault();
              setSearchText('');
            }
          }}
          className="pl-8"
        />
      </div>
      <SearchMessagesButton />
      {/* The areas take what they need, down to where the conversations keep 45% of the height. */}
      {searching ? null : (
        <AreaNav sections={sections} className="min-h-0 overflow-y-auto border-b pb-3" />
      )}
      <section
        aria-labelledby={listLabelId}
        className="flex min-h-[45%] flex-1 flex-col gap-1 basis-0"
      >
        <p
          id={listLabelId}
          className="px-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase"
        >
          {searching ? 'Matching conversations' : 'Conversations'}
        </p>
        <ConversationList
          activeId={chat?.params.chatId}
          search={search}
          className="-mx-1 flex-1 px-1"
          {...(onOpenConversation ? { onOpen: onOpenConversation } : {})}
        />
      </section>
      <Account compact={false} />
    </div>
  );
};

const RailLink = ({
  to,
  label,
  icon: Icon,
  end,
}: {
  to: string;
  label: string;
  icon: LucideIcon;
  end?: boolean;
}) => (
  <NavLink
    to={to}
    end={end ?? false}
    title={label}
    className={({ isActive }) =>
      cn(
        buttonVariants({ variant: 'ghost', size: 'icon' }),
        isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
      )
    }
  >
    <Icon aria-hidden="true" />
    <span className="sr-only">{label}</span>
  </NavLink>
);

/** The folded sidebar on wide screens: a rail of icons, each named for screen readers. */
export const WorkspaceRail = ({
  onNewChat,
  onExpand,
  onSearch,
}: SidebarProps & { onExpand: () => void; onSearch: () => void }) => {
  const sections = useNavSections();
  return (
    <div className="flex h-full min-h-0 flex-col items-center gap-2 px-2 py-3">
      <Button
        variant="ghost"
        size="icon"
        aria-label="Expand sidebar"
        aria-expanded={false}
        title="Expand sidebar"
        onClick={onExpand}
      >
        <PanelLeftOpen aria-hidden="true" />
      </Button>
      <Link
        to="/chat"
        title="New chat"
        onClick={onNewChat}
        className={buttonVariants({ size: 'icon' })}
      >
        <MessageSquarePlus aria-hidden="true" />
        <span className="sr-only">New chat</span>
      </Link>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Search conversations"
        title="Search conversations"
        onClick={onSearch}
      >
        <Search aria-hidden="true" />
      </Button>
      <SearchMessagesButton compact />
      <nav
        aria-label="Areas"
        className="-mx-2 flex min-h-0 flex-1 flex-col items-center gap-1 overflow-y-auto border-t px-2 pt-2"
      >
        {sections
          .flatMap((section) => section.items)
          .map((item) => (
            <RailLink key={item.to} {...item} />
          ))}
      </nav>
      <Account compact />
    </div>
  );
};
