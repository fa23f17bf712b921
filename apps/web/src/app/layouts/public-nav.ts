import { BookOpen, Compass, LifeBuoy, TrendingUp } from 'lucide-react';
import type { NavItem } from './nav-types';

export const publicNav: NavItem[] = [
  { to: '/discover', label: 'Discover', icon: Compass },
  { to: '/trends', label: 'Trends', icon: TrendingUp },
  { to: '/scenarios-cookbook', label: 'Cookbook', icon: BookOpen },
  { to: '/help', label: 'Help', icon: LifeBuoy },
];
