// ESLint: typescript-eslint's type-checked rules, Next.js's plugin and React's hooks rules
// (`npm run lint`; CI runs it before the tests).
import js from '@eslint/js'
import nextPlugin from '@next/eslint-plugin-next'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['.next/**', 'lib/generated/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Route handlers, engine methods and stores are async by contract (their callers await
      // them); one that needs no await of its own is no defect.
      '@typescript-eslint/require-await': 'off',
      // Rethrowing what a catch received (`.catch((error: unknown) => Promise.reject(...))`) keeps it as it came.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // React's event handlers may be async: React ignores what they return.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // `_`-prefixed names are the ones left out of a destructuring on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // replicad models (docs/replicad.md): the engine reads their top-level defaultParams, parameters and main.
    files: ['demo/*/*.js'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^(defaultParams|parameters|main)$' }],
    },
  },
  {
    // Tests read JSON answers they assert on at once: an `any` there fails an assertion, not a customer.
    files: ['**/*.test.ts', 'e2e/**', 'test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.{mjs,js}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
  { files: ['public/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  {
    plugins: { '@next/next': nextPlugin },
    rules: { ...nextPlugin.configs.recommended.rules, ...nextPlugin.configs['core-web-vitals'].rules },
  },
  {
    // The rules of hooks; the plugin's React Compiler rules are left out, as the project does not use the compiler.
    files: ['app/**/*.tsx', 'components/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
)
