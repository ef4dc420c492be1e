import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', '.data', 'coverage', 'jest.config.js', 'test/support/summary-reporter.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // `import { z } from 'zod'` keeps every zod locale in each bundle (about 360 KB a function);
      // the namespace import lets esbuild drop what is not used.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message: "Use `import * as z from 'zod'`: the named `z` pulls every zod locale into each bundle.",
        },
      ],
    },
  },
  // The boundaries of docs/architecture.md: the domain knows nothing of AWS, HTTP, the table or
  // the use cases; use cases see adapters only through the types of their ports, and the
  // composition root (shared/services.ts) is the one place that builds them.
  {
    files: ['shared/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@aws-sdk/*'], message: 'The domain knows nothing of AWS.' },
            { group: ['**/http/*', '**/api/*', '**/db/*', '**/use-cases/*', '**/services'], message: 'The domain depends on nothing but itself and the shared vocabulary.' },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/use-cases/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@aws-sdk/*'], message: 'Use cases know nothing of AWS: ask a repository for an intent-named operation.' },
            { group: ['**/http/*', '**/api/*', '**/services'], message: 'Use cases know nothing of HTTP or of the wiring.' },
            { group: ['**/db/*'], allowTypeImports: true, message: 'Use cases receive their adapters (shared/services.ts builds them); import their types only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
