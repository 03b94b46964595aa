// ESLint: the JavaScript and typescript-eslint recommended rules over felt's
// own code. Formatting is Prettier's job (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // What felt's own commands write into the project (built sites, the local buckets, the dev content) is not source.
  {
    ignores: [
      'node_modules/',
      'lib/',
      'dist/',
      'dist.*/',
      'dist-*/',
      'content/',
      'content.dev/',
      '.buckets/',
      '.felt-preview/',
      '.felt-preview.releases/',
      'scripts/tools/',
      'bench/.peers/',
      '.felt-cache/',
      'tests/fixtures/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The two classic hook rules. The plugin's newer recommended set adds the
    // React Compiler's rules, which felt (React 18, no compiler) does not target.
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    languageOptions: {
      globals: {
        // Node and the browser: each file runs in one of them, and tsc (with
        // the right lib per tsconfig) already checks which globals exist.
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        window: 'readonly',
        document: 'readonly',
        navigator: 'readonly',
        location: 'readonly',
        EventSource: 'readonly',
        history: 'readonly',
        self: 'readonly',
        caches: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      // Unused names are errors, except those marked unused on purpose with a leading underscore.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
