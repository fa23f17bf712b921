// Every table, one file per area; drizzle and drizzle-kit read them through this list.
export * from './auth.ts';
export * from './accounts.ts';
export * from './chat.ts';
export * from './keys.ts';
export * from './usage.ts';
export * from './billing.ts';
export * from './email.ts';
export * from './admin.ts';
export * from './library.ts';
export * from './files.ts';
export * from './knowledge.ts';
export * from './custom-ais.ts';
export * from './agents.ts';
export * from './workflows.ts';
export * from './instances.ts';
export * from './views.ts';
export * from './test-runs.ts';
