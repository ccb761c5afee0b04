/** Names of the action's inputs and outputs, in one place (action.yml must agree). */
export const Inputs = {
  ServerConfig: 'server_config',
  EvalCases: 'eval_cases',
  EvalSuite: 'eval_suite',
  ServerUrl: 'server_url',
  OutputDir: 'output_dir',
  EvalsVersion: 'evals_version',
  NodeVersion: 'node_version',
  OpenRouterApiKey: 'openrouter_api_key',
  ApiKey: 'api_key',
  Filter: 'filter',
  MaxSteps: 'max_steps',
  Parallel: 'parallel',
  Concurrency: 'concurrency',
  BaseUrl: 'base_url',
  JudgeModel: 'judge_model',
  Models: 'models',
  TimeoutSeconds: 'timeout_seconds',
  JobSummary: 'job_summary',
  Conformance: 'conformance',
  ConformanceFailOn: 'conformance_fail_on',
  GithubToken: 'github_token',
  Comment: 'comment',
  CommentKey: 'comment_key',
  UploadArtifact: 'upload_artifact',
  ArtifactName: 'artifact_name',
  RetentionDays: 'retention_days',
  Gate: 'gate',
  MaxDrop: 'max_drop',
  Baseline: 'baseline',
  SaveBaseline: 'save_baseline',
  Cache: 'cache',
  Resume: 'resume',
  ToolTests: 'tool_tests',
  SnapshotDir: 'snapshot_dir',
  UpdateSnapshots: 'update_snapshots',
  ConformanceProbes: 'conformance_probes',
  ConformanceExpectedFailures: 'conformance_expected_failures',
  MaxCostUsd: 'max_cost_usd',
  MaxCostPerRunUsd: 'max_cost_per_run_usd',
  MaxTokensPerRun: 'max_tokens_per_run',
  MaxP95ToolMs: 'max_p95_tool_ms',
  MaxP95RunS: 'max_p95_run_s',
  MaxP95Increase: 'max_p95_increase',
  MaxCostIncrease: 'max_cost_increase',
  OtlpEndpoint: 'otlp_endpoint',
  OtlpHeaders: 'otlp_headers',
  MaxToolResultChars: 'max_tool_result_chars',
  KeepRunDirs: 'keep_run_dirs',
  ChromePath: 'chrome_path',
  AppVisualDiff: 'app_visual_diff',
  Shard: 'shard',
  Merge: 'merge',
  ServerReuse: 'server_reuse',
  HtmlReport: 'html_report'
} as const

/**
 * The CLI's flags, as typed (errors name them so): the action's inputs' counterparts, and the
 * flags of the CLI alone. The parser's option names are these without the dashes.
 */
export const Flags = {
  ServerConfig: '--server-config',
  EvalCases: '--eval-cases',
  EvalSuite: '--eval-suite',
  ServerUrl: '--server-url',
  OutputDir: '--output-dir',
  EvalsVersion: '--evals-version',
  NodeVersion: '--node-version',
  ApiKey: '--api-key',
  Filter: '--filter',
  Output: '--output',
  Report: '--report',
  MaxSteps: '--max-steps',
  Parallel: '--parallel',
  Concurrency: '--concurrency',
  BaseUrl: '--base-url',
  JudgeModel: '--judge-model',
  Models: '--models',
  TimeoutSeconds: '--timeout-seconds',
  Conformance: '--conformance',
  ConformanceFailOn: '--conformance-fail-on',
  ConformanceProbes: '--conformance-probes',
  ConformanceExpectedFailures: '--conformance-expected-failures',
  ToolTests: '--tool-tests',
  OnlyToolTests: '--only-tool-tests',
  SnapshotDir: '--snapshot-dir',
  UpdateSnapshots: '--update-snapshots',
  Gate: '--gate',
  MaxDrop: '--max-drop',
  Baseline: '--baseline',
  Cache: '--cache',
  CacheDir: '--cache-dir',
  Journal: '--journal',
  Resume: '--resume',
  MaxCostUsd: '--max-cost-usd',
  MaxCostPerRunUsd: '--max-cost-per-run-usd',
  MaxTokensPerRun: '--max-tokens-per-run',
  MaxP95ToolMs: '--max-p95-tool-ms',
  MaxP95RunS: '--max-p95-run-s',
  MaxP95Increase: '--max-p95-increase',
  MaxCostIncrease: '--max-cost-increase',
  OtlpEndpoint: '--otlp-endpoint',
  OtlpHeaders: '--otlp-headers',
  MaxToolResultChars: '--max-tool-result-chars',
  KeepRunDirs: '--keep-run-dirs',
  ChromePath: '--chrome-path',
  AppVisualDiff: '--app-visual-diff',
  Shard: '--shard',
  ServerReuse: '--server-reuse',
  Demo: '--demo',
  Html: '--html',
  NoHtml: '--no-html'
} as const

export const Outputs = {
  ResultsJson: 'results_json',
  ReportMd: 'report_md',
  Passed: 'passed',
  PassRate: 'pass_rate',
  Total: 'total',
  Failed: 'failed',
  JunitXml: 'junit_xml',
  BadgeJson: 'badge_json',
  Journal: 'journal',
  Cancelled: 'cancelled',
  ToolTestsTotal: 'tool_tests_total',
  ToolTestsFailed: 'tool_tests_failed',
  CostUsd: 'cost_usd',
  Sarif: 'sarif',
  CommentUrl: 'comment_url',
  RunDirs: 'run_dirs',
  ReportHtml: 'report_html'
} as const

export const Defaults = {
  BaseUrl: 'https://openrouter.ai/api/v1',
  MaxSteps: 30,
  Concurrency: 4,
  TimeoutSeconds: 300,
  ResultsPath: 'eval-results.json',
  ReportPath: 'eval-report.md',
  /** The HTML report, beside the Markdown report. */
  HtmlPath: 'eval-report.html',
  JunitPath: 'eval-junit.xml',
  SarifPath: 'eval-results.sarif',
  BadgePath: 'eval-badge.json',
  TranscriptsDir: 'eval-transcripts',
  JournalFile: 'eval-runs.jsonl',
  /** An evals/v1 suite's output_dir when none is given (as @mcp-use/evals' action). */
  EvalsV1OutputDir: 'eval-results',
  /** The report's name inside output_dir (as @mcp-use/evals writes it). */
  OutputDirReport: 'report.md',
  ArtifactName: 'mcp-server-evals'
} as const

/** The reference pages (docs/ in the repository), as the CLI's --help links them. */
const DOCS_URL = 'https://github.com/mcp-server-evals/mcp-server-evals/blob/main/docs'
/** A docs page (and anchor) as a link; `__tests__/docs-links.test.ts` checks every one the source names. */
export const docsLink = (page: string) => `${DOCS_URL}/${page}`

/**
 * The two commands the docs and the CLI's own hints give for the CLI: one inside a clone of this
 * repository (dist/cli is committed, so it needs no install), one anywhere else (npm fetches the
 * tagged repository and runs its bin). No `mcp-server-evals` package is published on npm.
 */
export const CLI_IN_CLONE = 'node dist/cli/index.js'
export const CLI_ANYWHERE = 'npx github:mcp-server-evals/mcp-server-evals#v1'
