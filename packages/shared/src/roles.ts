export const roles = ['user', 'admin', 'super_admin'] as const;
export type Role = (typeof roles)[number];

export const isAdminRole = (role: Role | null | undefined): boolean =>
  role === 'admin' || role === 'super_admin';
