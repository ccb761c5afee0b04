import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runCli } from '../__fixtures__/cli.js'
import { EXAMPLE_SERVER, fixturePath } from '../__fixtures__/harness.js'
import { golden } from '../__fixtures__/report-shapes.js'
import { startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { demoBrain } from '../examples/demo-model/brain.js'
import { runOptions } from '../__fixtures__/options.js'
import { ConfigError } from '../src/config/errors.js'
import { prepare } from '../src/config/prepare.js'
import { parseServerConfig } from '../src/config/server-config.js'
import { parseSuite } from '../src/config/suite.js'
import { runConformance } from '../src/conformance/run.js'
import { journalHash } from '../src/execute/suite-hash.js'
import { resultsConfig } from '../src/record/results-config.js'
import type { ConformanceReport } from '../src/conformance/types.js'
import { fatalDocument } from '../src/output/documents.js'
import { writeResults } from '../src/output/write-results.js'

const root = resolve(fixturePath('..'))
const work = mkdtempSync(join(tmpdir(), 'hostile-files-'))
const CASE = '  - id: a\n    prompt: what time is it in Tokyo?\n    rubric: says the time\n'
const SERVER = JSON.stringify({ command: process.execPath, args: [join(root, 'examples/server/server.mjs')] })

/** Every peak RSS the CLI's processes reached (tsx runs node under node), read from the files a preload writes at exit. */
const RSS_PRELOAD = join(work, 'rss.cjs')
writeFileSync(
  RSS_PRELOAD,
  `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(work)} + '/rss-' + process.pid, String(process.resourceUsage().maxRSS * 1024)))\n`
)

/** The CLI as a real child process in `cwd`, its peak memory measured; killed if it outlives the test. */
async function cli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string; peakRss: number }> {
  const before = new Set(readdirSync(work).filter((f) => f.startsWith('rss-')))
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'src/cli.ts'), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_OPTIONS: `--require ${RSS_PRELOAD}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 25_000
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  const peaks = readdirSync(work)
    .filter((f) => f.startsWith('rss-') && !before.has(f))
    .map((f) => Number(readFileSync(join(work, f), 'utf8')))
  return { code, stdout, stderr, peakRss: Math.max(0, ...peaks) }
}

const MB = 1024 * 1024

describe('the suite and server_config files: bounded, regular files only, a configuration error (exit 2) at the limit', () => {
  test('a 50 MB eval_cases.yaml is refused before it is parsed: exit 2 naming the file and the limit, in little memory', async () => {
    const big = join(work, 'big.yaml')
    // Streamed: the test never holds 50 MB either.
    const out = createWriteStream(big)
    out.write('cases:\n')
    const chunk = CASE.replace('id: a', 'id: c{n}')
    for (let n = 0, written = 0; written < 50 * MB; n++) {
      const text = chunk.replace('{n}', String(n))
      written += text.length
      if (!out.write(text)) await once(out, 'drain')
    }
    out.end()
    await once(out, 'finish')
    const run = await cli(['--server-config', SERVER, '--eval-cases', big, '--conformance', 'off'], work)
    expect(run.stderr).toContain(`${big} is 50.0 MiB, over the limit of 4 MiB`)
    expect(run.stderr).toContain('--eval-cases')
    expect(run.code).toBe(2)
    // Parsed, it took 2.5 GB; refused, the process stays near node's own baseline.
    expect(run.peakRss).toBeLessThan(300 * MB)
  }, 30_000)

  test('/dev/zero and a FIFO as eval_cases, and /dev/zero as server_config, are configuration errors naming the input', async () => {
    const fifo = join(work, 'cases.fifo')
    execFileSync('mkfifo', [fifo])
    const zero = await cli(['--server-config', SERVER, '--eval-cases', '/dev/zero', '--conformance', 'off'], work)
    expect(zero.stderr).toContain('--eval-cases /dev/zero: cannot read eval cases file: /dev/zero is not a regular file (a character device)')
    expect(zero.code).toBe(2)
    const pipe = await cli(['--server-config', SERVER, '--eval-cases', fifo, '--conformance', 'off'], work)
    expect(pipe.stderr).toContain(`--eval-cases ${fifo}: cannot read eval cases file: ${fifo} is not a regular file (a FIFO)`)
    expect(pipe.code).toBe(2)
    const config = await cli(['--server-config', '/dev/zero', '--eval-cases', join(root, 'examples/eval_cases.yaml'), '--conformance', 'off'], work)
    expect(config.stderr).toContain('--server-config /dev/zero: cannot read the file: /dev/zero is not a regular file (a character device)')
    expect(config.code).toBe(2)
  }, 60_000)

  test('a YAML alias bomb is a configuration error (exit 2) naming the file and the line of the alias that multiplies', async () => {
    const bomb = join(work, 'bomb.yaml')
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].entries()) levels.push(`${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)
    writeFileSync(bomb, `${levels.join('\n')}\ncases:\n${CASE}`)
    const run = await cli(['--server-config', SERVER, '--eval-cases', bomb, '--conformance', 'off'], work)
    expect(run.stderr).toContain(`${bomb}:3:8: too many aliases`)
    expect(run.stderr).toContain('too many aliases')
    expect(run.code).toBe(2)
  }, 30_000)

  test('server_config: a wrapper inside mcpServers and a structure where a name belongs are refused, not walked', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`
    expect(() => parseServerConfig(`{"command":"node","type":${deep(200_000)}}`)).toThrow("input 'server_config' at type: must be a string")
    const nested = `{"mcpServers":{"a":${'{"mcpServers":{"a":'.repeat(3)}{"command":"node"}${'}}'.repeat(3)}}}`
    expect(() => parseServerConfig(nested)).toThrow('mcpServers inside mcpServers')
  })

  test('maps and lists nested past 64 levels are refused with the line where it goes too deep, not a stack overflow', () => {
    const deep = `cases:\n  - id: a\n    prompt: p\n    rubric: r\n    tags: ${'['.repeat(70)}${']'.repeat(70)}\n`
    const error = (() => {
      try {
        parseSuite(deep, 'deep.yaml')
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(/^deep\.yaml:5:\d+: nested deeper than 64 levels/)
    // Deeper than the parser's stack: its error, in words.
    expect(() => parseSuite(`cases: ${'['.repeat(5000)}${']'.repeat(5000)}\n`, 'deeper.yaml')).toThrow(/deeper\.yaml:1:\d+: invalid YAML: nested too deeply to parse/)
  })
})

describe('output files are never written through a planted link', () => {
  test('an output planted as a symlink to a file outside the directory is replaced, its target unchanged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-out-'))
    const outside = mkdtempSync(join(tmpdir(), 'hostile-target-'))
    const target = join(outside, 'authorized_keys')
    writeFileSync(target, 'ssh-ed25519 AAAA the-owner\n')
    for (const name of ['r.json', 'r.md', 'junit.xml', 'sarif.json', 'badge.json']) symlinkSync(target, join(dir, name))
    const paths = { resultsPath: join(dir, 'r.json'), reportPath: join(dir, 'r.md'), junitPath: join(dir, 'junit.xml'), sarifPath: join(dir, 'sarif.json'), badgePath: join(dir, 'badge.json') }
    writeResults(fatalDocument('x'), paths, [])
    expect(readFileSync(target, 'utf8')).toBe('ssh-ed25519 AAAA the-owner\n')
    for (const path of Object.values(paths)) expect(lstatSync(path).isFile()).toBe(true)
    expect(JSON.parse(readFileSync(paths.resultsPath, 'utf8')).fatal_error).toBe('x')
    // No temporary file is left behind.
    expect(readdirSync(dir).sort()).toEqual(['badge.json', 'junit.xml', 'r.json', 'r.md', 'sarif.json'])
  })

  test('a transcripts directory planted as a link in the working directory is refused by name; the other files are written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-cwd-'))
    const outside = mkdtempSync(join(tmpdir(), 'hostile-elsewhere-'))
    symlinkSync(outside, join(dir, 'eval-transcripts'))
    const doc = golden()
    const cwd = process.cwd()
    process.chdir(dir)
    try {
      expect(() => writeResults(doc, { resultsPath: 'r.json', reportPath: 'r.md', transcriptsDir: 'eval-transcripts' }, [])).toThrow(
        `is a symbolic link (to ${outside}); outputs are never written through a link`
      )
    } finally {
      process.chdir(cwd)
    }
    expect(readdirSync(outside)).toEqual([])
    expect(existsSync(join(dir, 'r.json')) && existsSync(join(dir, 'r.md'))).toBe(true)
  })

  test('the CLI: a results file and a journal planted as symlinks are not written through; a symlinked directory for an output is a configuration error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-ws-'))
    const outside = mkdtempSync(join(tmpdir(), 'hostile-outside-'))
    const target = join(outside, 'target.txt')
    writeFileSync(target, 'unchanged\n')
    symlinkSync(target, join(dir, 'eval-results.json'))
    symlinkSync(target, join(dir, 'eval-runs.jsonl'))
    const run = await cli(['--server-config', SERVER, '--eval-cases', join(root, 'examples/eval_cases.yaml'), '--conformance', 'only'], dir)
    expect(run.code).toBe(0)
    expect(readFileSync(target, 'utf8')).toBe('unchanged\n')
    expect(lstatSync(join(dir, 'eval-results.json')).isFile()).toBe(true)
    expect(lstatSync(join(dir, 'eval-runs.jsonl')).isFile()).toBe(true)
    expect(readFileSync(join(dir, 'eval-runs.jsonl'), 'utf8')).toContain('"type":"header"')

    // A directory planted as a link: a configuration error naming it, before anything runs; nothing lands in its target.
    symlinkSync(outside, join(dir, 'out'))
    const linked = await cli(['--server-config', SERVER, '--eval-cases', join(root, 'examples/eval_cases.yaml'), '--conformance', 'only', '--output', 'out/results.json'], dir)
    expect(linked.stderr).toContain(`cannot write out/results.json: out is a symbolic link (to ${outside}); outputs are never written through a link`)
    expect(linked.code).toBe(2)
    expect(readdirSync(outside)).toEqual(['target.txt'])
  }, 60_000)
})

describe('credentials in base_url', () => {
  let llm: ScriptedLlm
  let echo: Server
  let echoUrl = ''
  beforeAll(async () => {
    llm = await startScriptedLlm(demoBrain)
    // A provider that quotes the request back in its error: the URL (with its key) reaches the run's error.
    echo = createServer((req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route for ${req.url}` } })))
    echo.listen(0, '127.0.0.1')
    await once(echo, 'listening')
    echoUrl = `http://127.0.0.1:${(echo.address() as { port: number }).port}/v1`
  })
  afterAll(async () => {
    await llm.close()
    echo.close()
  })

  const secretsIn = (dir: string, stdout: string, stderr: string) => {
    const texts = [stdout, stderr, ...['r.json', 'r.md', 'j.jsonl', 'junit.xml'].map((f) => readFileSync(join(dir, f), 'utf8'))]
    return texts.filter((t) => /pa55-W0rd|SEKRET-KEY/.test(t))
  }
  const run = async (base: string) => {
    const dir = mkdtempSync(join(work, 'base-url-'))
    const out = (f: string) => join(dir, f)
    const result = await runCli([
      '--server-config', SERVER, '--eval-cases', join(root, 'examples/eval_cases.yaml'), '--base-url', base, '--api-key', 'sk-test',
      '--filter', 'tokyo', '--models', 'm/one', '--conformance', 'off', '--tool-tests', 'off',
      '--output', out('r.json'), '--report', out('r.md'), '--journal', out('j.jsonl'), '--junit', out('junit.xml')
    ])
    return { ...result, dir, doc: JSON.parse(readFileSync(out('r.json'), 'utf8')) as { config: { base_url: string }; runs: { error: unknown }[] } }
  }

  test('user:pass@ and ?api-key= never reach the results, journal, report, JUnit or the output; the URL is recorded masked', async () => {
    const port = new URL(llm.url).port
    const { doc, dir, stdout, stderr } = await run(`http://user:pa55-W0rd@127.0.0.1:${port}/v1?api-key=SEKRET-KEY`)
    expect(doc.config.base_url).toBe(`http://user:***@127.0.0.1:${port}/v1?api-key=***`)
    expect(readFileSync(join(dir, 'j.jsonl'), 'utf8')).toContain(`"base_url":"http://user:***@127.0.0.1:${port}/v1?api-key=***"`)
    expect(secretsIn(dir, stdout, stderr)).toEqual([])
  }, 60_000)

  test('the hashes that match a journal for --resume take the real URL; what is recorded is masked; a key in a server url is a secret too', () => {
    const dir = mkdtempSync(join(work, 'hash-'))
    writeFileSync(join(dir, "evals.yaml"), `system_prompts: {d: x}\ncases:\n${CASE}`)
    const prepared = (baseUrl: string) => prepare(runOptions(dir, { baseUrl, serverConfig: SERVER }), {})
    const one = prepared('https://user:pa55-W0rd@llm.example/v1?api-key=SEKRET-KEY')
    expect(journalHash(one)).toBe(journalHash(prepared('https://user:pa55-W0rd@llm.example/v1?api-key=SEKRET-KEY')))
    expect(journalHash(one)).not.toBe(journalHash(prepared('https://user:pa55-W0rd@llm.example/v1?api-key=OTHER-KEY')))
    expect(one.secrets).toEqual(expect.arrayContaining(['pa55-W0rd', 'SEKRET-KEY']))
    const recorded = resultsConfig(one.suite, one.server, { maxSteps: 1, concurrency: 1, timeoutSeconds: 1, baseUrl: one.options.baseUrl })
    expect(recorded.base_url).toBe('https://user:***@llm.example/v1?api-key=***')
    const http = prepare(runOptions(dir, { baseUrl: 'https://llm.example/v1', serverConfig: '{"url":"https://mcp.example/mcp?access_token=TOKEN-123"}' }), {})
    expect(http.secrets).toContain('TOKEN-123')
    expect(resultsConfig(http.suite, http.server, { maxSteps: 1, concurrency: 1, timeoutSeconds: 1, baseUrl: '' }).server).toEqual({ kind: 'http', url: 'https://mcp.example/mcp?access_token=***' })
  })

  test('a provider that quotes the URL back: its key is redacted from the run error too', async () => {
    const { doc, dir, stdout, stderr } = await run(`${echoUrl}?api_key=SEKRET-KEY&region=eu`)
    expect(doc.config.base_url).toBe(`${echoUrl}?api_key=***&region=eu`)
    expect(JSON.stringify(doc.runs[0].error)).toContain('api_key=***')
    expect(secretsIn(dir, stdout, stderr)).toEqual([])
  }, 60_000)
})

describe('a server that answers every request twice', () => {
  const TWICE = (mode: string) => ({ ...EXAMPLE_SERVER, args: [fixturePath('servers/twice-server.mjs')], env: { TWICE: mode } })
  const check = (report: ConformanceReport, id: string) => report.checks.find((c) => c.id === id)

  test('late or at once, each repeated answer is a finding and is never read as the next request’s: the tool list is read and its poisoned description found', async () => {
    for (const mode of ['late', 'together']) {
      const report = await runConformance(TWICE(mode))
      expect(check(report, 'jsonrpc-one-response')).toMatchObject({ status: 'fail', severity: 'error', message: expect.stringContaining('server/discover (id 1) was answered again') })
      expect(check(report, 'jsonrpc-one-response')?.spec).toContain('JSON-RPC 2.0 §5')
      expect(check(report, 'tool-description-poisoning')).toMatchObject({ status: 'warn', message: expect.stringContaining('read_notes description: instruction-like text') })
      expect(check(report, 'tool-names-unique')?.status).toBe('pass')
      // The same defect is this check's finding, not error-response-id's as well.
      expect(check(report, 'error-response-id')?.status).toBe('pass')
    }
  }, 30_000)

  test('the control: answered once, one-response passes and the poisoned description is found', async () => {
    const report = await runConformance(TWICE('off'))
    expect(check(report, 'jsonrpc-one-response')?.status).toBe('pass')
    expect(check(report, 'tool-description-poisoning')).toMatchObject({ status: 'warn', message: expect.stringContaining('read_notes description: instruction-like text') })
  }, 30_000)

  test('a tool list a server advertises but makes unreadable fails the checks on its tools (never a silent skip)', async () => {
    const report = await runConformance(TWICE('nolist'))
    for (const id of ['tool-description-poisoning', 'tool-names-valid', 'tool-names-unique']) {
      expect(check(report, id)).toMatchObject({ status: 'fail', severity: 'error', message: expect.stringContaining('the tool list could not be read (tools/list got') })
    }
  }, 30_000)
})

