import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

/** The folders that run an evaluation, and the glue above them. */
const EXECUTION = ['execute', 'record', 'engine', 'evaluate', 'merge', 'cli', 'github', 'main']
/** The layers that plug into a run, and what they are built on. */
const LAYERS = ['agent', 'conformance', 'resilience', 'security', 'telemetry', 'tooltests', 'scoring']

const ACTIONS_ONLY_IN_GLUE = { group: ['@actions/*'], message: '@actions/* belongs in src/main.ts and src/github/ only' }
/** One pattern: a relative import that the regex matches is refused with the message. */
const below = (message, regex) => ({ regex, message })
const restrictedImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [ACTIONS_ONLY_IN_GLUE, ...patterns] }] })

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'src/report/html/viewer-assets.generated.ts', 'src/config/*-validator.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', fetch: 'readonly', Buffer: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', Request: 'readonly', Response: 'readonly', Headers: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off'
    }
  },
  { files: ['src/**/*.ts'], ignores: ['src/main.ts', 'src/github/**'], rules: restrictedImports() },
  // The HTML report's page runs in the browser: its globals, and only the types of the document from the rest of src/.
  { files: ['src/report/html/viewer/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  // The direction of the house (docs/architecture.md): a folder imports only what lies below it.
  // ESLint keeps one no-restricted-imports setting per file, so each of these repeats the @actions rule.
  { files: ['src/util/**/*.ts'], rules: restrictedImports(below('src/util/ is the floor: it imports nothing else of src/', '^\\.\\./')) },
  {
    files: ['src/results/**/*.ts'],
    rules: restrictedImports(below('src/results/ is the schema of the document: it imports only itself and src/util/', '^\\.\\./(?!util/)'))
  },
  {
    files: ['src/config/**/*.ts'],
    rules: restrictedImports(below('src/config/ reads and validates the configuration: it imports only config/, results/, util/, constants and the published schema', `^\\.\\./(?!${['util/', 'results/', 'constants\\.js$', 'version\\.js$', '\\.\\./schema/'].join('|')})`))
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: restrictedImports(below('src/mcp/ is sessions and transports: no execution, conformance or run layer above it', `^\\.\\./(?:${[...EXECUTION, ...LAYERS, 'aggregate', 'report'].join('|')})(?:/|\\.js$)`))
  },
  {
    files: ['src/report/**/*.ts', 'src/aggregate/**/*.ts'],
    rules: restrictedImports(below('src/report/ and src/aggregate/ read the results document: no MCP session, LLM client, agent loop or execution', `^\\.\\./(?:${['mcp', 'llm', 'agent', ...EXECUTION].join('|')})(?:/|\\.js$)`))
  }
)
