import { describe, expect, test } from '@jest/globals'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { ConfigError } from '../src/config/errors.js'
import { parseSuite } from '../src/config/suite.js'
import { expandMatrix, specKey, type RunSpec } from '../src/plan/expand.js'
import { parseShard, planGroups, shardFileName, shardOf, shareOfBudget, splitPlan } from '../src/plan/shard.js'
import { formatPlanLine } from '../src/report/plan-line.js'

/** A plan of `cases` cases (case i repeated runs[i] times) × `models` models × `prompts` prompts. */
function planOf(runs: number[], models = 1, prompts = 1): RunSpec[] {
  const modelList = Array.from({ length: models }, (_, i) => `m/${i + 1}`).join(', ')
  const promptMap = Array.from({ length: prompts }, (_, i) => `p${i + 1}: "be brief"`).join(', ')
  const cases = runs.map((n, i) => `  - {id: c${i + 1}, prompt: "q", rubric: "r", runs: ${n}}\n`).join('')
  return expandMatrix(parseSuite(`models: [${modelList}]\nsystem_prompts: {${promptMap}}\ncases:\n${cases}`, 'e.yaml'), { today: '2026-12-01' })
}

/** The options an action step would give, every input empty but the required ones, and `over`. */
function rawOptions(over: Partial<RawOptions>): RawOptions {
  const empty = (name: string) => ({ value: '', name })
  return {
    serverConfig: { value: '{"command":"x"}', name: 'server_config' },
    evalCases: { value: 'e.yaml', name: 'eval_cases' },
    apiKey: { value: 'k', name: 'api_key' },
    filter: empty('filter'),
    maxSteps: empty('max_steps'),
    parallel: empty('parallel'),
    concurrency: empty('concurrency'),
    baseUrl: empty('base_url'),
    judgeModel: empty('judge_model'),
    models: empty('models'),
    timeoutSeconds: empty('timeout_seconds'),
    ...over
  }
}

const groupKey = (spec: RunSpec) => JSON.stringify([spec.case.id, spec.model, spec.prompt_name])

describe('splitPlan', () => {
  test.each([
    ['one group per case, equal sizes', [1, 1, 1, 1, 1, 1, 1, 1], 1, 1, 4],
    ['repeats of different sizes', [5, 3, 3, 2, 1, 1], 1, 1, 3],
    ['models × prompts × repeats', [3, 2, 1], 2, 2, 4],
    ['more shards than groups', [2, 1], 1, 1, 4],
    ['one big group among small ones', [10, 1, 1, 1, 1], 1, 1, 2],
    ['a 1,200-run matrix (30 cases × 4 models × 2 prompts × 5 repeats)', Array.from({ length: 30 }, () => 5), 4, 2, 7],
    ['uneven repeats over many shards', Array.from({ length: 37 }, (_, i) => 1 + (i % 6)), 3, 1, 16]
  ])('%s: every group whole in exactly one shard, balanced, deterministic', (_name, runs, models, prompts, count) => {
    const plan = planOf(runs, models, prompts)
    const shards = splitPlan(plan, count)
    expect(shards).toHaveLength(count)
    // Every run exactly once, at its plan index.
    const all = shards.flat()
    expect(all).toHaveLength(plan.length)
    expect(new Set(all.map(specKey)).size).toBe(plan.length)
    expect(all.map((s) => s.index).sort((a, b) => a - b)).toEqual(plan.map((s) => s.index))
    // Every group in exactly one shard, with all its repeats.
    const home = new Map<string, number>()
    shards.forEach((shard, i) => {
      for (const spec of shard) {
        expect(home.get(groupKey(spec)) ?? i).toBe(i)
        home.set(groupKey(spec), i)
      }
    })
    expect(home.size).toBe(planGroups(plan).length)
    // Each shard in plan order.
    for (const shard of shards) expect(shard.map((s) => s.index)).toEqual([...shard.map((s) => s.index)].sort((a, b) => a - b))
    // Balanced: no two shards differ by more than the largest group.
    const sizes = shards.map((s) => s.length)
    const largest = Math.max(...planGroups(plan).map((g) => g.length))
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(largest)
    // Deterministic: the same plan (expanded again) splits the same way.
    expect(splitPlan(planOf(runs, models, prompts), count).map((s) => s.map(specKey))).toEqual(shards.map((s) => s.map(specKey)))
  })

  test('equal groups are dealt round the shards in plan order', () => {
    const shards = splitPlan(planOf([1, 1, 1, 1, 1, 1]), 3)
    expect(shards.map((s) => s.map((spec) => spec.case.id))).toEqual([
      ['c1', 'c4'],
      ['c2', 'c5'],
      ['c3', 'c6']
    ])
  })

  test('the largest groups are placed first, each in the lightest shard', () => {
    // c3 (4 runs) → shard 1; c2 (3) → shard 2; c4 (3) → shard 2 (3 < 4); c1 (2) → shard 1 (4 < 6).
    const shards = splitPlan(planOf([2, 3, 4, 3]), 2)
    expect(shards.map((s) => [...new Set(s.map((spec) => spec.case.id))])).toEqual([
      ['c1', 'c3'],
      ['c2', 'c4']
    ])
    expect(shards.map((s) => s.length)).toEqual([6, 6])
  })

  test('1/1 is the whole plan, as no shard is', () => {
    const plan = planOf([3, 1, 2], 2, 1)
    expect(shardOf(plan, { index: 1, count: 1 })).toEqual(plan)
    expect(shardOf(plan, null)).toEqual(plan)
    expect(splitPlan(plan, 1)).toEqual([plan])
  })

  test('shardOf picks the shard by its 1-based index', () => {
    const plan = planOf([1, 1, 1, 1])
    const shards = splitPlan(plan, 2)
    expect(shardOf(plan, { index: 1, count: 2 })).toEqual(shards[0])
    expect(shardOf(plan, { index: 2, count: 2 })).toEqual(shards[1])
  })

  test('an empty plan splits into empty shards', () => {
    expect(splitPlan([], 3)).toEqual([[], [], []])
  })
})

describe('parseShard', () => {
  test.each([
    ['2/4', { index: 2, count: 4 }],
    [' 1 / 1 ', { index: 1, count: 1 }],
    ['256/256', { index: 256, count: 256 }],
    ['', null],
    ['  ', null]
  ])('%j → %j', (text, shard) => {
    expect(parseShard(text)).toEqual(shard)
  })

  test.each([
    ['2', /must be INDEX\/COUNT, as 2\/4/],
    ['a/b', /must be INDEX\/COUNT/],
    ['-1/4', /must be INDEX\/COUNT/],
    ['1.5/4', /must be INDEX\/COUNT/],
    ['0/4', /index from 1 to its count \(4\), got '0\/4'/],
    ['5/4', /index from 1 to its count \(4\), got '5\/4'/],
    ['1/0', /count from 1 to 256, got '1\/0'/],
    ['1/257', /count from 1 to 256/]
  ])('%j is refused: %s', (text, message) => {
    expect(() => parseShard(text)).toThrow(message)
  })

  test('the option error names the input or the flag', () => {
    for (const name of ['shard', '--shard']) {
      let error: unknown
      try {
        resolveOptions(rawOptions({ shard: { value: '3/2', name } }))
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).where.input).toBe(name)
      expect((error as Error).message).toMatch(/index from 1 to its count \(2\), got '3\/2'/)
    }
  })
})

describe("a shard's files", () => {
  test.each([
    ['eval-results.json', 'eval-results.shard-2-of-4.json'],
    ['out/eval-runs.jsonl', 'out/eval-runs.shard-2-of-4.jsonl'],
    ['./dir.v2/report.md', './dir.v2/report.shard-2-of-4.md'],
    ['results', 'results.shard-2-of-4'],
    ['.hidden', '.hidden.shard-2-of-4'],
    ['archive.tar.gz', 'archive.shard-2-of-4.tar.gz']
  ])('%s → %s', (path, sharded) => {
    expect(shardFileName(path, { index: 2, count: 4 })).toBe(sharded)
    expect(shardFileName(path, null)).toBe(path)
  })

  test('the default result, report and journal names get the suffix; paths given are kept', () => {
    const base = rawOptions({ shard: { value: '3/4', name: 'shard' } })
    const defaults = resolveOptions(base)
    expect([defaults.resultsPath, defaults.reportPath, defaults.journalPath]).toEqual(['eval-results.shard-3-of-4.json', 'eval-report.shard-3-of-4.md', 'eval-runs.shard-3-of-4.jsonl'])
    expect(defaults.shard).toEqual({ index: 3, count: 4 })
    const given = resolveOptions({ ...base, resultsPath: { value: 'out/r.json', name: '--output' }, reportPath: { value: 'out/r.md', name: '--report' } })
    expect([given.resultsPath, given.reportPath, given.journalPath]).toEqual(['out/r.json', 'out/r.md', 'out/eval-runs.shard-3-of-4.jsonl'])
    const whole = resolveOptions({ ...base, shard: { value: '', name: 'shard' } })
    expect([whole.resultsPath, whole.journalPath, whole.shard]).toEqual(['eval-results.json', 'eval-runs.jsonl', null])
  })
})

describe('the plan line of a shard', () => {
  test("says the shard's share of the plan", () => {
    const suite = parseSuite('models: [m/1, m/2]\nsystem_prompts: {d: brief}\ncases:\n  - {id: a, prompt: q, rubric: r, runs: 3}\n  - {id: b, prompt: q, rubric: r}\n', 'e.yaml')
    expect(formatPlanLine(suite, { concurrency: 4, shard: { index: 1, count: 2 } })).toMatch(/= 8 runs \(with repeats\); shard 1 of 2: 4 runs \(2 groups\), judge /)
    expect(formatPlanLine(suite, { concurrency: 4, shard: { index: 2, count: 2 } })).toMatch(/; shard 2 of 2: 4 runs \(2 groups\), judge /)
    expect(formatPlanLine(suite, { concurrency: 4 })).not.toMatch(/shard/)
  })
})

describe("a shard's share of max_cost_usd", () => {
  test.each([
    [2.5, 10, 40, { index: 2, count: 4 }, 0.625],
    [1, 7, 21, { index: 1, count: 3 }, 1 / 3],
    [1, 0, 21, { index: 3, count: 3 }, 0],
    [2.5, 40, 40, null, 2.5],
    [null, 10, 40, { index: 2, count: 4 }, null],
    [2.5, 0, 0, { index: 1, count: 2 }, 2.5]
  ])('budget %p, %p of %p runs, shard %j → %p', (budget, mine, all, shard, share) => {
    const got = shareOfBudget(budget, mine, all, shard)
    if (share === null) expect(got).toBeNull()
    else expect(got).toBeCloseTo(share, 10)
  })
})
