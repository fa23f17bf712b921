import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { noCrossFeatureImports } from './tools/eslint/src/no-cross-feature-imports.js';

const chorus = {
  rules: {
    'no-cross-feature-imports': noCrossFeatureImports(
      fileURLToPath(new URL('./apps/web/src/features', import.meta.url)),
    ),
  },
};

/** The AI SDK's model-calling functions: only the model-call seam (apps/server/src/ai) uses them. */
const modelCalls = [
  'streamText',
  'generateText',
  'embed',
  'embedMany',
  'generateObject',
  'streamObject',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/drizzle/meta/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Features never import each other, by alias or by relative path (ARCHITECTURE §1). Import
    // cycles, type-only ones included, are found by dpdm in `npm run lint`.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { chorus },
    rules: { 'chorus/no-cross-feature-imports': 'error' },
  },
  {
    // One model-call seam (ARCHITECTURE §11): nothing else calls a model or a provider package.
    files: ['apps/server/**/*.ts', 'apps/server/**/*.tsx'],
    ignores: ['apps/server/src/ai/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'ai',
              importNames: modelCalls,
              message:
                'Call models through the seam in apps/server/src/ai (prepareModelCall, embedTexts).',
            },
          ],
          patterns: [
            {
              group: ['@ai-sdk/*', '@openrouter/*'],
              message: 'Provider packages are used only by the seam in apps/server/src/ai.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@chorus/server', '**/apps/server/**'],
              message: 'The web app never imports server code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'e2e/**', 'tools/**', 'bench/**', '**/*.config.{js,ts}', '**/build.mjs'],
    rules: { 'no-console': 'off' },
  },
);
