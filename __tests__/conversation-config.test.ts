import { describe, expect, test } from '@jest/globals'
import { errorOf } from '../__fixtures__/config-error.js'
import { ConfigErrors } from '../src/config/errors.js'
import { checkRootsAnswerable } from '../src/config/inputs.js'
import { parseServerConfig, serverSecrets } from '../src/config/server-config.js'
import { parseSuite } from '../src/config/suite.js'
import type { Suite } from '../src/config/types.js'

// Lines 1-3; the first case starts on line 4.
const head = 'system_prompts:\n  default: You help.\ncases:\n'

/** Every message the loader reports for `yaml`, one per problem. */
function problems(yaml: string): string[] {
  const error = errorOf(() => parseSuite(yaml, 'e.yaml'))
  return error instanceof ConfigErrors ? error.errors.map((e) => e.message) : [error.message]
}

describe('conversation cases', () => {
  test("the issue's scripted turns example", () => {
    const suite = parseSuite(
      head +
        `  - id: plan-then-book
    turns:
      - user: "Find me a flight to Tokyo next Friday."
        expect_tool: search_flights
        rubric: "Offers concrete flights."
      - user: "Book the cheapest one."
        required_tools: [{ name: book_flight, args: { flight_id: any } }]
        rubric: "Confirms the booking with a reference.  "
    rubric: "Over the whole conversation the user gets a confirmed booking."
`,
      'e.yaml'
    )
    const [c] = suite.cases
    expect(c).toMatchObject({
      id: 'plan-then-book',
      prompt: 'Find me a flight to Tokyo next Friday.',
      rubric: 'Over the whole conversation the user gets a confirmed booking.',
      threshold: 0.7,
      required_tools: [],
      golden: null,
      inputs: null
    })
    expect(c.conversation).toEqual({
      kind: 'turns',
      turns: [
        { user: 'Find me a flight to Tokyo next Friday.', rubric: 'Offers concrete flights.', threshold: 0.7, required_tools: [], golden: { expect_tool: 'search_flights' } },
        { user: 'Book the cheapest one.', rubric: 'Confirms the booking with a reference.', threshold: 0.7, required_tools: [{ name: 'book_flight', args: { flight_id: 'any' } }], golden: null }
      ]
    })
  })

  test('turns need no overall rubric; a turn without rubric is not judged; thresholds inherit from the case', () => {
    const suite = parseSuite(head + '  - id: t\n    threshold: 0.9\n    turns:\n      - user: hi\n      - user: again\n        threshold: 0.5\n', 'e.yaml')
    expect(suite.cases[0].rubric).toBe('')
    expect(suite.cases[0].conversation).toEqual({
      kind: 'turns',
      turns: [
        { user: 'hi', rubric: null, threshold: 0.9, required_tools: [], golden: null },
        { user: 'again', rubric: null, threshold: 0.5, required_tools: [], golden: null }
      ]
    })
  })

  test('case-level expectations stay on the case (all the calls), per-turn ones on the turn', () => {
    const suite = parseSuite(head + '  - id: t\n    forbidden_tools: [drop]\n    required_tools: [a]\n    turns:\n      - user: hi\n        forbidden_tools: [b]\n', 'e.yaml')
    expect(suite.cases[0]).toMatchObject({ required_tools: [{ name: 'a' }], golden: { forbidden_tools: ['drop'] } })
    expect(suite.cases[0].conversation).toMatchObject({ turns: [{ golden: { forbidden_tools: ['b'] }, required_tools: [] }] })
  })

  test('a simulated user: the goal is the prompt, the judge model plays the user unless user_model is set', () => {
    const yaml = head + '  - id: s\n    simulated_user: { goal: "  Book a table for two. ", persona: " Terse. ", max_turns: 4, stop_when: "booked" }\n    rubric: The table is booked.\n'
    const suite = parseSuite(`judge_model: y/judge\n${yaml}`, 'e.yaml')
    expect(suite.cases[0].prompt).toBe('Book a table for two.')
    expect(suite.cases[0].conversation).toEqual({ kind: 'simulated', user: { goal: 'Book a table for two.', persona: 'Terse.', max_turns: 4, stop_when: 'booked', model: 'y/judge' } })
    // The judge model after its overrides.
    expect(parseSuite(`judge_model: y/judge\n${yaml}`, 'e.yaml', { envJudgeModel: 'env/judge' }).cases[0].conversation).toMatchObject({ user: { model: 'env/judge' } })
    expect(parseSuite(`user_model: y/user\njudge_model: y/judge\n${yaml}`, 'e.yaml', { judgeModel: 'i/judge' }).cases[0].conversation).toMatchObject({ user: { model: 'y/user' } })
    expect(parseSuite(head + '  - id: s\n    simulated_user: { goal: g, max_turns: 1 }\n    rubric: r\n', 'e.yaml').cases[0].conversation).toEqual({
      kind: 'simulated',
      user: { goal: 'g', persona: null, max_turns: 1, stop_when: null, model: 'openai/gpt-4o-mini' }
    })
  })

  test('a plain case has no conversation and no inputs', () => {
    const suite = parseSuite(head + '  - id: p\n    prompt: Hello\n    rubric: Says hello\n', 'e.yaml')
    expect(suite.cases[0]).toMatchObject({ prompt: 'Hello', conversation: null, inputs: null })
  })

  test('a case needs one of prompt, turns, simulated_user, and only one', () => {
    expect(problems(head + '  - id: a\n    rubric: r\n')).toEqual(["e.yaml:4:5 at cases[0]: missing required key 'prompt' (or 'turns', or 'simulated_user')"])
    expect(problems(head + '  - id: a\n    prompt: p\n    rubric: r\n    turns: [{ user: u }]\n')).toEqual(["e.yaml:7:5 at cases[0].turns: give one of 'prompt', 'turns', 'simulated_user', not both 'prompt' and 'turns'"])
    expect(problems(head + '  - id: a\n    turns: [{ user: u }]\n    simulated_user: { goal: g, max_turns: 2 }\n    prompt: p\n    rubric: r\n')).toEqual([
      "e.yaml:6:5 at cases[0].simulated_user: give one of 'prompt', 'turns', 'simulated_user', not all three"
    ])
    // The suite-level "cases or tool_tests" message is unchanged.
    expect(problems('system_prompts: {d: x}\n')).toEqual(["e.yaml:1:1 at (top level): missing required key 'cases' (or 'tool_tests' for a suite of tool tests alone)"])
  })

  test('rubric is required without turns, and says why for a simulated user', () => {
    expect(problems(head + '  - id: a\n    prompt: p\n')).toEqual(["e.yaml:4:5 at cases[0]: missing required key 'rubric'"])
    expect(problems(head + '  - id: a\n    simulated_user: { goal: g, max_turns: 2 }\n')).toEqual([
      "e.yaml:4:5 at cases[0]: missing required key 'rubric' (a simulated_user conversation is judged by its rubric alone)"
    ])
  })

  test('unknown keys inside a turn, simulated_user, an elicitation rule and sampling get a "did you mean"', () => {
    expect(problems(head + '  - id: a\n    turns:\n      - user: u\n        rubrc: r\n')).toEqual(["e.yaml:7:9 at cases[0].turns[0].rubrc: unknown key 'rubrc' (did you mean 'rubric'?)"])
    expect(problems(head + '  - id: a\n    turns:\n      - user: u\n        required_tools: [{ nme: x }]\n')).toContain(
      "e.yaml:7:28 at cases[0].turns[0].required_tools[0].nme: unknown key 'nme' (did you mean 'name'?)"
    )
    expect(problems(head + '  - id: a\n    rubric: r\n    simulated_user:\n      goal: g\n      max_turn: 3\n')).toEqual([
      "e.yaml:7:7 at cases[0].simulated_user: missing required key 'max_turns'",
      "e.yaml:8:7 at cases[0].simulated_user.max_turn: unknown key 'max_turn' (did you mean 'max_turns'?)"
    ])
    expect(problems(head + '  - id: a\n    prompt: p\n    rubric: r\n    elicitation:\n      - match: x\n        actoin: decline\n')).toEqual([
      "e.yaml:8:9 at cases[0].elicitation[0]: missing required key 'action'",
      "e.yaml:9:9 at cases[0].elicitation[0].actoin: unknown key 'actoin' (did you mean 'action'?)"
    ])
    expect(problems(head + '  - id: a\n    prompt: p\n    rubric: r\n    sampling: { txt: hi }\n')).toEqual([
      "e.yaml:7:15 at cases[0].sampling: missing required key 'text'",
      "e.yaml:7:17 at cases[0].sampling.txt: unknown key 'txt' (did you mean 'text'?)"
    ])
  })

  test('shapes the schema checks, each at its line', () => {
    const at = (key: string) => problems(head + `  - id: a\n    prompt: p\n    rubric: r\n${key}`)
    expect(at('    sampling: human\n')).toEqual(['e.yaml:7:15 at cases[0].sampling: must be agent or { text: "…" }'])
    expect(at('    sampling: 3\n')).toEqual(['e.yaml:7:15 at cases[0].sampling: must be agent or { text: "…" }'])
    expect(at('    expect_input_requests: [elicitation, files]\n    elicitation: []\n')).toEqual([
      'e.yaml:7:42 at cases[0].expect_input_requests[1]: must be equal to one of the allowed values (elicitation, sampling, roots)'
    ])
    expect(at('    expect_input_requests: [sampling, sampling]\n    sampling: agent\n')[0]).toMatch(/^e\.yaml:7:28 at cases\[0\]\.expect_input_requests: must NOT have duplicate items/)
    expect(at('    max_input_rounds: 0\n')).toEqual(['e.yaml:7:23 at cases[0].max_input_rounds: must be >= 1'])
    expect(at('    max_input_rounds: 51\n')).toEqual(['e.yaml:7:23 at cases[0].max_input_rounds: must be <= 50'])
    expect(at('    max_input_rounds: 2.5\n')).toEqual(['e.yaml:7:23 at cases[0].max_input_rounds: must be integer'])
    expect(at('    roots: []\n')).toEqual(['e.yaml:7:12 at cases[0].roots: must NOT have fewer than 1 items'])
    expect(at('    elicitation: [{ match: x, action: agree }]\n')).toEqual([
      'e.yaml:7:39 at cases[0].elicitation[0].action: must be equal to one of the allowed values (accept, decline, cancel)'
    ])
    expect(problems(head + '  - id: a\n    turns: []\n')).toEqual(['e.yaml:5:12 at cases[0].turns: must NOT have fewer than 1 items'])
    expect(problems(head + '  - id: a\n    rubric: r\n    simulated_user: { goal: " ", max_turns: 51 }\n')).toEqual([
      'e.yaml:6:29 at cases[0].simulated_user.goal: must not be empty',
      'e.yaml:6:45 at cases[0].simulated_user.max_turns: must be <= 50'
    ])
    expect(problems(head + '  - id: a\n    turns:\n      - user: u\n        expect_args: { q: x }\n')).toEqual([
      "e.yaml:6:9 at cases[0].turns[0]: missing required key 'expect_tool' (needed by expect_args)"
    ])
  })

  test('regular expressions compile at load, each error at its line and path', () => {
    expect(problems(head + '  - id: a\n    rubric: r\n    simulated_user: { goal: g, max_turns: 2, stop_when: "([bad" }\n')).toEqual([
      expect.stringMatching(/^e\.yaml:6:57 at cases\[0\]\.simulated_user\.stop_when: invalid regular expression/)
    ])
    expect(problems(head + '  - id: a\n    turns:\n      - user: u\n        required_tools: [{ name: t, args: { q: { pattern: "(x" } } }]\n')).toEqual([
      expect.stringMatching(/^e\.yaml:7:59 at cases\[0\]\.turns\[0\]\.required_tools\[0\]\.args\.q\.pattern: invalid regular expression/)
    ])
    expect(problems(head + '  - id: a\n    turns:\n      - user: u\n        expect_tool: t\n        expect_args: { q: "[z-a]" }\n        arg_match: { q: pattern }\n')).toEqual([
      expect.stringMatching(/^e\.yaml:8:27 at cases\[0\]\.turns\[0\]\.expect_args\.q: invalid regular expression/)
    ])
    expect(problems(head + '  - id: a\n    turns:\n      - user: u\n        arg_match: { q: exact }\n        expect_args: { r: 1 }\n        expect_tool: t\n')).toEqual([
      "e.yaml:7:25 at cases[0].turns[0].arg_match.q: arg_match names 'q', which expect_args does not have"
    ])
    expect(problems(head + '  - id: a\n    prompt: p\n    rubric: r\n    elicitation:\n      - { match: "ok", action: decline }\n      - { match: "(?<a", action: decline }\n')).toEqual([
      expect.stringMatching(/^e\.yaml:9:18 at cases\[0\]\.elicitation\[1\]\.match: invalid regular expression/)
    ])
  })
})

describe('what the server may ask', () => {
  test("the issue's MRTR example", () => {
    const suite = parseSuite(
      head +
        `  - id: order-needs-address
    prompt: "Order two skillets for me."
    rubric: Orders them.
    elicitation:
      - match: "address"
        action: accept
        content: { street: "1 Main St", city: "Springfield" }
    sampling: agent
    roots: ["file:///workspace"]
    expect_input_requests: [elicitation]
    max_input_rounds: 3
`,
      'e.yaml'
    )
    expect(suite.cases[0].conversation).toBeNull()
    expect(suite.cases[0].inputs).toEqual({
      elicitation: [{ match: 'address', action: 'accept', content: { street: '1 Main St', city: 'Springfield' } }],
      sampling: 'agent',
      roots: ['file:///workspace'],
      expect_input_requests: ['elicitation'],
      max_input_rounds: 3
    })
  })

  test('elicitation: [] declares the capability with no rules; defaults fill the rest', () => {
    const suite = parseSuite(head + '  - id: a\n    prompt: p\n    rubric: r\n    elicitation: []\n', 'e.yaml')
    expect(suite.cases[0].inputs).toEqual({ elicitation: [], sampling: null, roots: null, expect_input_requests: [], max_input_rounds: 5 })
    // max_input_rounds alone sets inputs too, and the form of sampling is kept.
    expect(parseSuite(head + '  - id: a\n    prompt: p\n    rubric: r\n    max_input_rounds: 2\n    sampling: { text: "Paris." }\n', 'e.yaml').cases[0].inputs).toEqual({
      elicitation: null,
      sampling: { text: 'Paris.' },
      roots: null,
      expect_input_requests: [],
      max_input_rounds: 2
    })
  })

  test('decline and cancel rules carry no content; accept content may hold form values', () => {
    const suite = parseSuite(
      head + '  - id: a\n    prompt: p\n    rubric: r\n    elicitation:\n      - { match: "^no", action: decline }\n      - { match: x, action: cancel }\n      - { match: y, action: accept, content: { n: 2, ok: true, tags: [a, b], s: "" } }\n',
      'e.yaml'
    )
    expect(suite.cases[0].inputs?.elicitation).toEqual([
      { match: '^no', action: 'decline', content: null },
      { match: 'x', action: 'cancel', content: null },
      { match: 'y', action: 'accept', content: { n: 2, ok: true, tags: ['a', 'b'], s: '' } }
    ])
  })

  test('accept needs content, decline and cancel must not have it, and content holds form values only', () => {
    const rules = (text: string) => problems(head + `  - id: a\n    prompt: p\n    rubric: r\n    elicitation:\n${text}`)
    expect(rules('      - { match: x, action: accept }\n')).toEqual(["e.yaml:8:29 at cases[0].elicitation[0].action: action accept needs content: the form's fields to send"])
    expect(rules('      - { match: x, action: decline, content: { a: 1 } }\n')).toEqual(['e.yaml:8:47 at cases[0].elicitation[0].content: content is sent with action accept only, not decline'])
    expect(rules('      - { match: x, action: cancel, content: {} }\n')).toEqual(['e.yaml:8:46 at cases[0].elicitation[0].content: content is sent with action accept only, not cancel'])
    // A multi-select's items are checked once the schema holds (the schema's own errors come first).
    expect(rules('      - match: x\n        action: accept\n        content:\n          n: [1, 2]\n          tags: [a, b]\n')).toEqual([
      'e.yaml:11:14 at cases[0].elicitation[0].content.n: must be a string, number, boolean or array of strings (what a form field can hold)'
    ])
    expect(rules('      - match: x\n        action: accept\n        content:\n          address: { street: Main }\n          none: null\n          ok: yes\n')).toEqual([
      'e.yaml:11:20 at cases[0].elicitation[0].content.address: must be a string, number, boolean or array of strings (what a form field can hold)',
      'e.yaml:12:17 at cases[0].elicitation[0].content.none: must be a string, number, boolean or array of strings (what a form field can hold)'
    ])
  })

  test('roots are file:// URIs', () => {
    expect(problems(head + '  - id: a\n    prompt: p\n    rubric: r\n    roots: ["file:///ok", "/workspace", "https://x.example/", "file:relative"]\n')).toEqual([
      "e.yaml:7:27 at cases[0].roots[1]: '/workspace' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)",
      "e.yaml:7:41 at cases[0].roots[2]: 'https://x.example/' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)",
      "e.yaml:7:63 at cases[0].roots[3]: 'file:relative' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)"
    ])
    // A case's roots are never expanded; a host makes it a share no local server can open.
    expect(problems(head + '  - id: a\n    prompt: p\n    rubric: r\n    roots: ["file://${GITHUB_WORKSPACE}/docs", "file://nas/docs"]\n')).toEqual([
      "e.yaml:7:13 at cases[0].roots[0]: 'file://${GITHUB_WORKSPACE}/docs' holds a placeholder that nothing expands (roots in eval_cases are taken as written, apart from ${RUN_DIR}; in server_config only environment variables and ${RUN_DIR} are expanded)",
      "e.yaml:7:48 at cases[0].roots[1]: 'file://nas/docs' names the host 'nas': a root is a local directory, file:///path (three slashes)"
    ])
  })

  test('an expected request the case cannot answer is an error at its entry', () => {
    expect(problems(head + '  - id: a\n    prompt: p\n    rubric: r\n    expect_input_requests: [elicitation, sampling]\n    sampling: agent\n')).toEqual([
      'e.yaml:7:29 at cases[0].expect_input_requests[0]: expects elicitation, but the case declares no elicitation: set elicitation:'
    ])
    expect(problems(head + '  - id: a\n    prompt: p\n    rubric: r\n    elicitation: []\n    expect_input_requests:\n      - elicitation\n      - sampling\n')).toEqual([
      'e.yaml:10:9 at cases[0].expect_input_requests[1]: expects sampling, but the case declares no sampling: set sampling:'
    ])
  })

  test('expected roots may come from server_config: checked once both are known', () => {
    const suite = parseSuite(
      head + '  - id: own\n    prompt: p\n    rubric: r\n    roots: ["file:///w"]\n    expect_input_requests: [roots]\n  - id: needs\n    prompt: p\n    rubric: r\n    expect_input_requests: [roots]\n  - id: plain\n    prompt: p\n    rubric: r\n',
      'e.yaml'
    )
    expect(suite.cases[1].inputs).toEqual({ elicitation: null, sampling: null, roots: null, expect_input_requests: ['roots'], max_input_rounds: 5 })
    expect(checkRootsAnswerable(suite, ['file:///srv'])).toEqual([])
    const errors = checkRootsAnswerable(suite, undefined)
    expect(errors.map((e) => e.message)).toEqual([
      'e.yaml:12:29 at cases[1].expect_input_requests[0]: expects roots, but neither the case nor server_config declares roots: set roots: on the case or in server_config'
    ])
    // A case copied after loading (a filter, a repeat) keeps its location.
    expect(checkRootsAnswerable({ ...suite, cases: suite.cases.map((c) => ({ ...c })) }, []).map((e) => e.where.line)).toEqual([12])
    // A case the loader did not make is still named.
    const made: Suite = { ...suite, cases: [{ ...suite.cases[1], inputs: { elicitation: null, sampling: null, roots: null, expect_input_requests: ['roots'], max_input_rounds: 5 } }] }
    expect(checkRootsAnswerable(made, undefined).map((e) => e.message)).toEqual([
      "e.yaml at case 'needs': expects roots, but neither the case nor server_config declares roots: set roots: on the case or in server_config"
    ])
  })

  test('the keys are allowed on conversation cases', () => {
    const suite = parseSuite(head + '  - id: a\n    turns: [{ user: u }]\n    sampling: { text: "42" }\n    expect_input_requests: [sampling]\n', 'e.yaml')
    expect(suite.cases[0].inputs).toMatchObject({ sampling: { text: '42' }, expect_input_requests: ['sampling'] })
    expect(suite.cases[0].conversation).toMatchObject({ kind: 'turns' })
  })
})

describe('server_config roots', () => {
  const parse = (config: unknown, env: NodeJS.ProcessEnv = {}) => parseServerConfig(JSON.stringify(config), { env })

  test('stdio and HTTP take roots; they are set only when given', () => {
    expect(parse({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'], roots: ['file:///tmp/work'] })).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem'],
      env: {},
      roots: ['file:///tmp/work']
    })
    expect(parse({ url: 'https://mcp.example.com/mcp', roots: ['file:///a', 'file:///b'] })).toEqual({ kind: 'http', url: 'https://mcp.example.com/mcp', headers: {}, roots: ['file:///a', 'file:///b'] })
    expect(parse({ command: 'node' })).not.toHaveProperty('roots')
  })

  test('inside an mcpServers wrapper, with its path in errors', () => {
    expect(parse({ mcpServers: { fs: { command: 'node', roots: ['file:///data'] } } })).toMatchObject({ roots: ['file:///data'] })
    expect(errorOf(() => parse({ mcpServers: { fs: { command: 'node', roots: ['/data'] } } })).message).toBe(
      "input 'server_config' at mcpServers.fs.roots[0]: '/data' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)"
    )
  })

  test.each([
    [{ command: 'node', roots: 'file:///a' }, 'roots', 'must be a non-empty array of file:// URIs'],
    [{ command: 'node', roots: [] }, 'roots', 'must be a non-empty array of file:// URIs'],
    [{ command: 'node', roots: ['file:///a', 7] }, 'roots[1]', 'must be a string (a file:// URI)'],
    [{ url: 'https://x.example/mcp', roots: ['file:///a', 'http://x.example/'] }, 'roots[1]', "'http://x.example/' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)"],
    [{ command: 'node', roots: ['file://share/docs'] }, 'roots[0]', "'file://share/docs' names the host 'share': a root is a local directory, file:///path (three slashes)"],
    [{ command: 'node', roots: ['file://'] }, 'roots[0]', "'file://' names no directory (file:///path)"],
    [{ command: 'node', roots: ['file://host${RUN_DIR}/b'] }, 'roots[0]', "'file://host${RUN_DIR}/b' names the host 'host': a root is a local directory, file:///path (three slashes)"]
  ])('a bad roots value names the input and the path (%j)', (config, path, message) => {
    const error = errorOf(() => parse(config))
    expect(error.where).toMatchObject({ input: 'server_config', path })
    expect(error.message).toBe(`input 'server_config' at ${path}: ${message}`)
  })

  test('placeholders are expanded like args, and are not secrets', () => {
    const config = parse({ command: 'node', roots: ['file://${WORK}/a', 'file://localhost/srv'] }, { WORK: '/home/ci/work' })
    expect(config.roots).toEqual(['file:///home/ci/work/a', 'file://localhost/srv'])
    expect(serverSecrets(config)).toEqual([])
    expect(errorOf(() => parse({ command: 'node', roots: ['file://${NOPE}'] })).where).toMatchObject({ input: 'server_config', path: 'roots[0]' })
  })

  test('roots is a known key: a misspelling is still caught', () => {
    expect(errorOf(() => parse({ command: 'node', root: ['file:///a'] })).message).toContain("unknown key 'root' (known: command, args, env, cwd, url, headers, auth, type, transport, roots)")
  })
})
