import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// zod's classic API keeps every schema method in each bundle (~97 KB a function): schemas are
// written with zod/mini through shared/zod.ts, which also sets zod's English messages.
const zodThroughSharedModule = {
  selector: "ImportDeclaration[source.value=/^zod($|\\u002F)/][importKind!='type']",
  message: "Use `import * as z from '<path>/shared/zod'`: zod/mini with its English messages; classic zod doubles what every function compiles at init.",
};

const adapterFactories = {
  group: ['**/db/*', '**/webhooks/sqs-delivery-queue', '**/webhooks/eventbridge-publisher', '**/webhooks/http-sender', '**/storage/*', '**/acquirer/adyen-*', '**/email/*', '**/crypto/kms-*'],
  importNamePattern: '^(create|adyen|s3)[A-Z]',
  allowTypeImports: true,
  message: 'Adapters are built in shared/services/ (the composition root) only: take this one from its accessor there.',
};

// What the Lambdas ship (shared/, functions/) and what deploys them (lib/) never reach into the
// local stack or the operator's CLI (bin/): a file's restricted-imports list replaces the one of an
// earlier block, so each block below repeats this pattern.
const localStackStaysOut = { group: ['**/bin/*', '**/bin/**'], message: 'bin/ is the local stack and the CLIs; shared/, functions/ and lib/ never import it.' };

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', '.data', 'coverage', 'jest.config.js', 'test/support/summary-reporter.js', 'test/support/duration-sequencer.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', zodThroughSharedModule],
    },
  },
  {
    files: ['shared/**/*.ts', 'functions/**/*.ts', 'lib/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [localStackStaysOut] }] },
  },
  // One place builds adapters (docs/architecture.md, "Composition root"): the table's repositories
  // and stores, the webhook queue, bus and HTTP sender, the acquirer, the document store, the email sender and the secrets sealer are
  // made in shared/services/ only; everything else takes them from its accessors.
  {
    files: ['shared/**/*.ts', 'functions/**/*.ts'],
    ignores: ['shared/services/**', 'shared/db/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [localStackStaysOut, adapterFactories] }] },
  },
  // The boundaries of docs/architecture.md: the domain knows nothing of AWS, HTTP, the table or
  // the use cases; use cases see adapters only through the types of their ports, and the
  // composition root (shared/services/) is the one place that builds them.
  {
    files: ['shared/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            localStackStaysOut,
            { group: ['@aws-sdk/*'], message: 'The domain knows nothing of AWS.' },
            { group: ['**/http/*', '**/api/*', '**/db/*', '**/use-cases/*', '**/services', '**/services/*'], message: 'The domain depends on nothing but itself and the shared vocabulary.' },
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
            localStackStaysOut,
            { group: ['@aws-sdk/*'], message: 'Use cases know nothing of AWS: ask a repository for an intent-named operation.' },
            { group: ['**/http/*', '**/api/*', '**/services', '**/services/*'], message: 'Use cases know nothing of HTTP or of the wiring.' },
            { group: ['**/db/*'], allowTypeImports: true, message: 'Use cases receive their adapters (shared/services/ builds them); import their types only.' },
          ],
        },
      ],
    },
  },
  // A schema built when its module loads stays in every bundle that imports the module, used or
  // not (a call or a property read may have effects, so esbuild keeps it): build module-level
  // schemas in a `/* @__PURE__ */ (() => …)()`, which a bundle drops when nothing reads it.
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/zod.ts'],
    rules: {
      // Repeated here: a file's no-restricted-syntax list replaces the one above, not adds to it.
      'no-restricted-syntax': [
        'error',
        zodThroughSharedModule,
        {
          selector:
            ":matches(Program, ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator > :matches(CallExpression, ObjectExpression, ArrayExpression).init:not([callee.type='ArrowFunctionExpression']):has(MemberExpression[object.name='z'])",
          message: 'Build a module-level schema in `/* @__PURE__ */ (() => …)()`, so that bundles which never read it drop it.',
        },
      ],
    },
  },
  // The one module that imports zod itself.
  {
    files: ['shared/zod.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
