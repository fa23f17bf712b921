import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
// @ts-expect-error -- plain JavaScript, loaded by eslint.config.js
import { noCrossFeatureImports } from './no-cross-feature-imports.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const features = '/repo/apps/web/src/features';
const chatFile = `${features}/chat/components/chat-page.tsx`;
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('no-cross-feature-imports', noCrossFeatureImports(features), {
  valid: [
    { filename: chatFile, code: "import { a } from '../hooks/live-chat';" },
    { filename: chatFile, code: "import { a } from '@/features/chat/api/get-messages';" },
    { filename: chatFile, code: "import { a } from '@/lib/api-client';" },
    { filename: chatFile, code: "import { a } from '../../../components/ui/button';" },
    { filename: chatFile, code: "import { a } from 'react';" },
    { filename: '/repo/apps/web/src/app/router.tsx', code: "import('@/features/chat/page');" },
  ],
  invalid: [
    {
      filename: chatFile,
      code: "import { a } from '../../keys/api/get-keys';",
      errors: [{ messageId: 'crossFeature', data: { from: 'chat', to: 'keys' } }],
    },
    {
      filename: chatFile,
      code: "import { a } from '@/features/admin/api/get-users';",
      errors: [{ messageId: 'crossFeature', data: { from: 'chat', to: 'admin' } }],
    },
    {
      filename: chatFile,
      code: "export * from '@/features/keys/components/key-field';",
      errors: [{ messageId: 'crossFeature', data: { from: 'chat', to: 'keys' } }],
    },
    {
      filename: chatFile,
      code: "const m = () => import('../../profile/page');",
      errors: [{ messageId: 'crossFeature', data: { from: 'chat', to: 'profile' } }],
    },
  ],
});
