import { Link } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { MobileNavButton, type MenuStart } from './menu-triggers';
import type { NavItem } from './nav-types';

export const MobileNavMenu = ({
  links,
  defaultOpen,
  autoFocus,
}: { links: NavItem[] } & MenuStart) => (
  <DropdownMenu defaultOpen={defaultOpen}>
    <DropdownMenuTrigger asChild>
      <MobileNavButton autoFocus={autoFocus} />
    </DropdownMenuTrigger>
    <DropdownMenuContent align="end">
      {links.map((item) => (
        <DropdownMenuItem key={item.to} asChild>
          <Link to={item.to}>{item.label}</Link>
        </DropdownMenuItem>
      ))}
    </DropdownMenuContent>
  </DropdownMenu>
);
