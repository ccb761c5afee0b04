import { describe, expect, test } from '@jest/globals'
import { EXAMPLE_SERVER, evaluateWith, suiteOf } from '../__fixtures__/harness.js'
import { answer, kindOf, steps, verdict } from '../__fixtures__/scripted-llm.js'
import { groupRuns } from '../src/aggregate/groups.js'
import { parseSuite } from '../src/config/suite.js'
import { expandMatrix } from '../src/plan/expand.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { failureReason } from '../src/report/progress.js'
import type { RunResult, RunStatus } from '../src/results/types.js'

const floors = { hard: 1, soft: 0.8 }
function runsOf(kind: 'hard' | 'soft', statuses: RunStatus[]): RunResult[] {
  return statuses.map((status, i) => ({ case_id: 'c', model: 'm', prompt_name: 'p', kind, tags: [], status, index: i + 1, attempt: i + 1, attempts: statuses.length }) as unknown as RunResult)
}

describe('repeat floors at the boundaries', () => {
  test.each([
    ['soft', ['passed', 'passed', 'passed', 'passed', 'failed'], true],
    ['soft', ['passed', 'passed', 'passed', 'failed', 'failed'], false],
    ['hard', ['passed', 'passed', 'passed', 'passed', 'failed'], false],
    ['hard', ['passed', 'passed', 'passed', 'passed', 'passed'], true],
    ['soft', ['passed', 'passed', 'passed', 'passed', 'error'], true],
    ['soft', ['passed'], true],
    ['soft', ['failed'], false]
  ] as ['hard' | 'soft', RunStatus[], boolean][])('%s %j → %s', (kind, statuses, success) => {
    const [group] = groupRuns(runsOf(kind, statuses), floors)
    expect(group.success).toBe(success)
    expect(group.runs).toBe(statuses.length)
    expect(group.passed).toBe(statuses.filter((s) => s === 'passed').length)
  })

  test('floors are configurable; groups keep their run indexes', () => {
    const [group] = groupRuns(runsOf('soft', ['passed', 'failed', 'failed']), { hard: 1, soft: 0.3 })
    expect(group).toMatchObject({ success: true, floor: 0.3, pass_rate: 0.3333, run_indexes: [1, 2, 3] })
  })
})

describe('runs, kind and tags in eval_cases.yaml', () => {
  const yaml = `runs: 3
pass_floor_soft: 0.6
system_prompts: {d: x}
models: [m1, m2]
cases:
  - {id: a, prompt: p, rubric: r}
  - {id: b, prompt: p, rubric: r, runs: 1, kind: hard, tags: [smoke, weather]}
`
  test('suite-level runs, per-case override; repeats are adjacent in run order', () => {
    const suite = parseSuite(yaml, 'e.yaml')
    expect(suite.pass_floors).toEqual({ hard: 1, soft: 0.6 })
    expect(suite.cases.map((c) => [c.id, c.runs, c.kind, c.tags])).toEqual([
      ['a', 3, 'soft', []],
      ['b', 1, 'hard', ['smoke', 'weather']]
    ])
    const plan = expandMatrix(suite, { today: 'x' })
    expect(plan.map((r) => `${r.index}:${r.case.id}/${r.model}#${r.attempt}`)).toEqual(['1:a/m1#1', '2:a/m1#2', '3:a/m1#3', '4:a/m2#1', '5:a/m2#2', '6:a/m2#3', '7:b/m1#1', '8:b/m2#1'])
  })
})

describe('repeats in a real run', () => {
  test('each attempt is recorded; the group passes on its floor; the report, JUnit and reason speak of groups', async () => {
    // Counted per case (the judge's prompt holds the case's input): judge calls of the two cases interleave.
    const scored = { flaky: 0, strict: 0 }
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - {id: flaky, prompt: say hi, rubric: greets, runs: 5}\n  - {id: strict, prompt: say bye, rubric: says bye, runs: 5, kind: hard}\n`),
      server: EXAMPLE_SERVER,
      settings: { concurrency: 4 },
      responder: (req) => {
        const kind = kindOf(req)
        if (kind === 'steps') return steps(req.model)
        // One verdict in five is low, for each case: 4/5 is enough for soft, not for hard.
        if (kind === 'score') {
          const which = JSON.stringify(req.messages).includes('say bye') ? 'strict' : 'flaky'
          return verdict(req.model, scored[which]++ % 5 === 0 ? 2 : 9, 'ok')
        }
        return answer(req.model, 'hello')
      }
    })
    expect(doc.runs).toHaveLength(10)
    expect(doc.runs.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 4, 5])
    expect(doc.summary.passed).toBe(8)
    expect(doc.groups.map((g) => [g.case_id, g.kind, `${g.passed}/${g.runs}`, g.success])).toEqual([
      ['flaky', 'soft', '4/5', true],
      ['strict', 'hard', '4/5', false]
    ])
    expect(doc.passed).toBe(false)
    expect(failureReason(doc)).toBe('1 of 2 groups did not reach their pass floor')
    const report = renderMarkdownReport(doc)
    expect(report).toContain('1/2 groups at their pass floor')
    // The matrix: the soft group reached its floor with a failure (◐), the hard one did not (✗).
    expect(report).toContain('<tr><td><code>flaky</code></td><td align="center">◐ 4/5</td></tr>')
    expect(report).toContain('<tr><td><code>strict</code></td><td align="center">✗ 4/5</td></tr>')
    expect(report).toMatch(/- ✗ `strict` · `openai\/gpt-4o-mini` · default — 4\/5 passed, floor 100% \(run \d\)/)
    expect(report).toContain('id="strict-openai-gpt-4o-mini-default-5"')
    const junit = renderJUnit(doc)
    expect(junit).toContain('<testsuite name="behaviour" tests="2" failures="1" errors="0"')
    expect(junit).toContain('failure message="4/5 runs passed, below the hard floor of 100%"')
  })
})
