import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', fetch: 'readonly', Buffer: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', Request: 'readonly', Response: 'readonly', Headers: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off'
    }
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/main.ts', 'src/github/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@actions/*'], message: '@actions/* belongs in src/main.ts and src/github/ only' }] }]
    }
  }
)
