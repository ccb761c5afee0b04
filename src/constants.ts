/** Names of the action's inputs and outputs, in one place (action.yml must agree). */
export const Inputs = {
  ServerConfig: 'server_config',
  EvalCases: 'eval_cases',
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
  ConformanceProbes: 'conformance_probes'
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
  CommentUrl: 'comment_url'
} as const

export const Defaults = {
  BaseUrl: 'https://openrouter.ai/api/v1',
  MaxSteps: 30,
  Concurrency: 4,
  TimeoutSeconds: 300,
  ResultsPath: 'eval-results.json',
  ReportPath: 'eval-report.md',
  JunitPath: 'eval-junit.xml',
  BadgePath: 'eval-badge.json',
  TranscriptsDir: 'eval-transcripts',
  JournalFile: 'eval-runs.jsonl',
  ArtifactName: 'mcp-server-evals'
} as const
