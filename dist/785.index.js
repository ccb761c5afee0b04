export const id = 785;
export const ids = [785];
export const modules = {

/***/ 30785:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ResultsNotWrittenError: () => (/* binding */ ResultsNotWrittenError),
  describeNotWritten: () => (/* binding */ describeNotWritten),
  evalsV1Files: () => (/* binding */ evalsV1Files),
  evalsV1Lines: () => (/* binding */ evalsV1Lines),
  withoutFloatNoise: () => (/* binding */ withoutFloatNoise),
  writeResults: () => (/* binding */ writeResults)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/report/headline.ts
var headline = __webpack_require__(14512);
// EXTERNAL MODULE: ./src/aggregate/verdict.ts
var verdict = __webpack_require__(1882);
;// CONCATENATED MODULE: ./src/report/badge.ts


/**
 * The pass rate of the behaviour runs, with what else failed; without runs, the tool tests'
 * count, else conformance. Tool tests count as themselves, never into the run pass rate: a
 * deterministic test and a model run are not the same unit.
 */
function renderBadge(doc) {
    const badge = (message, color) => ({ schemaVersion: 1, label: 'MCP evals', message, color });
    if (doc.fatal_error !== null)
        return badge('error', 'lightgrey');
    const tests = doc.tool_tests && doc.tool_tests.status === 'ran' ? doc.tool_tests : null;
    if (doc.cancelled) {
        if (tests && doc.behaviour.status === 'skipped')
            return badge(`cancelled (${tests.passed}/${tests.total} tool tests passed)`, 'lightgrey');
        return badge(`cancelled (${doc.summary.passed}/${doc.summary.total} passed)`, 'lightgrey');
    }
    if ((0,headline/* unreachableReason */.N4)(doc) !== null)
        return badge('server unreachable', 'red');
    const conformance = doc.conformance ? (doc.conformance.passed ? '' : ' · conformance failing') : '';
    // Every budget the report and JUnit list: the absolute ones, the trends against the baseline, and runs the spend skipped.
    const budgets = (0,verdict/* telemetryPassed */.SE)(doc) ? '' : ' · over budget';
    const toolTests = tests && !(0,verdict/* toolTestsPassed */.IT)(tests) ? ` · tool tests ${tests.passed}/${tests.total}` : '';
    if (doc.behaviour.status === 'skipped' || (tests && doc.summary.total === 0)) {
        if (tests)
            return badge(`tool tests ${tests.passed}/${tests.total}${conformance}${budgets}`, doc.passed ? 'brightgreen' : 'red');
        return doc.conformance ? badge(`conformance ${doc.conformance.passed ? 'passing' : 'failing'}`, doc.conformance.passed ? 'brightgreen' : 'red') : badge('skipped', 'lightgrey');
    }
    const { passed, total, pass_rate } = doc.summary;
    if (pass_rate === null)
        return badge('no runs', 'lightgrey');
    const color = doc.passed ? 'brightgreen' : toolTests || budgets ? 'red' : pass_rate >= 0.8 ? 'yellow' : pass_rate >= 0.5 ? 'orange' : 'red';
    return badge(`${Math.round(pass_rate * 100)}% (${passed}/${total})${toolTests}${conformance}${budgets}`, color);
}

// EXTERNAL MODULE: ./src/conformance/expected-failures.ts + 1 modules
var expected_failures = __webpack_require__(78943);
// EXTERNAL MODULE: ./src/results/types.ts + 2 modules
var types = __webpack_require__(28275);
// EXTERNAL MODULE: ./src/util/text.ts
var util_text = __webpack_require__(49997);
// EXTERNAL MODULE: ./src/util/words.ts
var words = __webpack_require__(90333);
// EXTERNAL MODULE: ./src/report/dialogue.ts + 1 modules
var report_dialogue = __webpack_require__(13536);
// EXTERNAL MODULE: ./src/report/numbers.ts
var numbers = __webpack_require__(65616);
// EXTERNAL MODULE: ./src/report/reasons.ts
var report_reasons = __webpack_require__(67063);
// EXTERNAL MODULE: ./src/report/tool-tests.ts + 1 modules
var tool_tests = __webpack_require__(14772);
// EXTERNAL MODULE: ./src/report/app-findings.ts
var app_findings = __webpack_require__(59880);
;// CONCATENATED MODULE: ./src/report/app-details.ts


/** How many evidence lines, console errors or blocked URLs a plain-text record quotes of a render. */
const LINES_SHOWN = 10;
/**
 * A render in plain text, for JUnit's failure bodies: its verdict, the findings that did not pass
 * with their evidence, the failed actions and assertions, the screenshot's path. The caller escapes
 * it for XML.
 */
function appDetails(render) {
    const lines = [`  app ${render.status === 'rendered' ? 'render' : render.status} ${render.id}: ${(0,app_findings/* renderVerdictWords */.Rr)(render)}`];
    for (const f of render.findings.filter((x) => x.status === 'failed' || x.status === 'warning' || x.status === 'review')) {
        lines.push(`    ${f.status} ${f.id}: ${f.message}`, ...f.evidence.slice(0, LINES_SHOWN).map((e) => `      ${e}`));
    }
    for (const a of render.actions.filter((x) => !x.passed))
        lines.push(`    ✗ ${a.action} ${a.selector}: ${a.error ?? 'failed'}`);
    for (const a of render.assertions.filter((x) => !x.passed))
        lines.push(`    ✗ ${a.check}${a.target ? ` ${a.target}` : ''}: ${a.reason}`, `      expected: ${(0,util_text/* trimEvidence */.Ux)(a.expected, 300)}`, `      actual: ${(0,util_text/* trimEvidence */.Ux)(a.actual, 300)}`);
    if (render.screenshot)
        lines.push(`    screenshot: ${render.screenshot}`);
    return lines;
}

;// CONCATENATED MODULE: ./src/report/junit.ts












/**
 * JUnit XML, so any test-report action can show the results: the conformance checks as one
 * testsuite, the tool tests as one (a testcase per test), one testsuite of behaviour testcases,
 * one per case × model × system prompt (a group whose runs never started is skipped: budget), and
 * the Layer 3 budgets as one (a testcase per check). An unreachable server is one error. A failed
 * MCP Apps render fails its tool test or run with its finding; apps skipped (no browser) are one skipped testcase.
 */
function renderJUnit(doc) {
    const suites = [];
    if (doc.fatal_error !== null) {
        suites.push(suite('configuration', [`    <testcase classname="configuration" name="configuration">\n      <error message="${attr((0,util_text/* firstLine */.TM)(doc.fatal_error))}">${junit_text(doc.fatal_error)}</error>\n    </testcase>`], 0));
    }
    const unreachable = doc.fatal_error === null ? (0,headline/* unreachableReason */.N4)(doc) : null;
    if (doc.conformance)
        suites.push(conformanceSuite(doc));
    else if (unreachable !== null) {
        suites.push(suite('server', [`    <testcase classname="server" name="reachable" time="0">\n      <error message="${attr(`the server could not be started or reached: ${(0,util_text/* firstLine */.TM)(unreachable)}`)}" type="unreachable">${junit_text(unreachable)}</error>\n    </testcase>`], 0));
    }
    if (doc.tool_tests)
        suites.push(toolTestsSuite(doc));
    if (doc.behaviour.status === 'ran' && doc.runs.length > 0)
        suites.push(behaviourSuite(doc));
    // MCP Apps skipped for want of a browser: one skipped testcase, so no test report reads it as passed.
    if (doc.apps?.status === 'skipped')
        suites.push(suite('mcp apps', [`    <testcase classname="mcp apps" name="mcp apps" time="0">\n      <skipped message="${attr(`not rendered: ${doc.apps.reason ?? 'skipped'}`)}"/>\n    </testcase>`], 0));
    const budgets = budgetsSuite(doc);
    if (budgets)
        suites.push(budgets);
    const total = (key) => suites.reduce((n, s) => n + s[key], 0);
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<testsuites name="MCP Server Evals" tests="${total('tests')}" failures="${total('failures')}" errors="${total('errors')}" skipped="${total('skipped')}" time="${doc.duration_s}">`,
        ...suites.map((s) => s.xml),
        '</testsuites>',
        ''
    ].join('\n');
}
function conformanceSuite(doc) {
    const section = doc.conformance;
    const failsOn = (c) => c.status === 'fail' || (section.fail_on === 'warning' && c.status === 'warn');
    const cases = section.checks.map((check) => {
        const open = `    <testcase classname="conformance" name="${attr(check.id)}" time="0">`;
        const details = [`${check.spec}`, check.message, ...(check.evidence ? [`request: ${check.evidence.request}`, `response: ${check.evidence.response}`] : [])].join('\n');
        if (check.status === 'skip')
            return `${open}\n      <skipped message="${attr(check.message)}"/>\n    </testcase>`;
        // Listed in the expected-failures file: known, not gated; skipped with the reason (as the official suite's baseline).
        if (check.status === 'expected') {
            return `${open}\n      <skipped message="${attr(`expected failure (${check.expected_entry ?? check.id} in ${section.expected_failures?.file ?? 'the expected-failures file'}): ${check.message}`)}"/>\n    </testcase>`;
        }
        if (failsOn(check) && section.fail_on !== 'never')
            return `${open}\n      <failure message="${attr(`${check.id}: ${check.message}`)}" type="${check.severity}">${junit_text(details)}</failure>\n    </testcase>`;
        // A finding the gate lets through (a warning, or any with fail_on: never) is still said, not shown as a plain pass.
        if (check.status === 'warn' || check.status === 'fail') {
            const said = check.status === 'warn' ? 'warning' : 'failed (not gating: conformance fail_on is never)';
            return `${open}\n      <system-out>${junit_text(`${said}: ${details}`)}</system-out>\n    </testcase>`;
        }
        return `${open}</testcase>`;
    });
    if (section.era === 'unreachable') {
        const u = section.unreachable;
        const message = `the server could not be started or reached${section.error ? `: ${(0,util_text/* firstLine */.TM)(section.error)}` : ''}`;
        const details = [
            section.error ?? message,
            ...(u?.http_status !== null && u?.http_status !== undefined ? [`HTTP status: ${u.http_status}`] : []),
            ...(u?.cause ? [`cause: ${u.cause}`] : []),
            ...(u?.body ? ['response body:', u.body] : []),
            ...(u?.stderr ? ['server stderr:', u.stderr] : []),
            ...(u?.stdout ? ['server stdout (not JSON-RPC):', u.stdout] : [])
        ];
        cases.push(`    <testcase classname="conformance" name="server reachable" time="0">\n      <error message="${attr(message)}" type="unreachable">${junit_text(details.join('\n'))}</error>\n    </testcase>`);
    }
    else if (section.error)
        cases.push(`    <testcase classname="conformance" name="probe" time="0">\n      <error message="${attr(section.error)}">${junit_text(section.error)}</error>\n    </testcase>`);
    // A stale or unknown entry of the expected-failures file fails the gate: one failing testcase each, named after the entry.
    if (section.era !== 'unreachable' && section.fail_on !== 'never') {
        for (const entry of (0,expected_failures/* blockingEntries */.Gh)(section)) {
            const message = `${section.expected_failures.file}:${entry.line}: ${entry.entry} is ${entry.outcome}: ${(0,expected_failures/* describeEntry */.OY)(entry, section.checks)}`;
            cases.push(`    <testcase classname="conformance" name="${attr(`expected failure ${entry.entry}`)}" time="0">\n      <failure message="${attr(message)}" type="expected-failures-${entry.outcome}">${junit_text(message)}</failure>\n    </testcase>`);
        }
    }
    const era = section.era === 'modern' ? `MCP ${section.negotiated_version}` : section.era === 'unreachable' ? 'unreachable' : `legacy ${section.negotiated_version ?? ''}`.trim();
    return suite(`conformance (${era}, ${section.transport})`, cases, section.duration_ms / 1000);
}
/**
 * One testcase per tool test: a failure names every failed check of every failing attempt (the
 * step, the call, expected and actual, the snapshot diff); an attempt that could not finish is an
 * error; a cancelled test is skipped. Tool tests that did not run are one skipped testcase.
 */
function toolTestsSuite(doc) {
    const section = doc.tool_tests;
    if (section.status === 'skipped') {
        return suite('tool tests', [`    <testcase classname="tool tests" name="tool tests" time="0">\n      <skipped message="${attr(section.reason ?? 'skipped')}"/>\n    </testcase>`], 0);
    }
    const cases = section.tests.map((test) => {
        const open = `    <testcase classname="tool tests" name="${attr(test.id)}" time="${Math.round(test.duration_ms) / 1000}">`;
        if ((0,verdict/* toolTestPassed */.jQ)(test))
            return `${open}</testcase>`;
        const words = (0,tool_tests/* toolTestFailureWords */.Ke)(test) ?? test.status;
        if (test.status === 'cancelled')
            return `${open}\n      <skipped message="${attr(words)}"/>\n    </testcase>`;
        const attempts = test.attempts.filter((a) => a.status !== 'passed' || a.steps.some((s) => !s.passed));
        const details = attempts.map((a) => attemptDetails(test, a)).join('\n\n');
        const prefix = test.runs > 1 ? `${test.attempts.filter((a) => a.status === 'passed' && a.steps.every((s) => s.passed)).length}/${test.runs} attempts passed; ` : '';
        const tag = test.status === 'error' ? 'error' : 'failure';
        return `${open}\n      <${tag} message="${attr(`${prefix}${words}`)}" type="${test.status === 'error' ? 'tool-test-error' : 'assertion'}">${junit_text(details)}</${tag}>\n    </testcase>`;
    });
    return suite('tool tests', cases, section.tests.reduce((t, test) => t + test.duration_ms, 0) / 1000);
}
function attemptDetails(test, attempt) {
    const lines = [test.runs > 1 ? `attempt ${attempt.attempt} of ${test.runs}: ${attempt.status}` : attempt.status];
    for (const step of attempt.steps.filter((s) => !s.passed)) {
        // An evals/v1 resource read or list takes no arguments: its label says what was asked.
        lines.push(`step ${step.index}: ${step.tool}${(0,types/* isMethodStep */.Eu)(step) ? '' : ` ${JSON.stringify(step.args)}`} (${Math.round(step.latency_ms)} ms)`);
        if (step.response?.kind === 'error')
            lines.push(`  JSON-RPC error ${step.response.code}: ${step.response.message}`);
        for (const check of step.checks.filter((c) => !c.passed))
            lines.push(...checkDetails(check));
        if (step.app)
            lines.push(...appDetails(step.app));
    }
    if (attempt.error)
        lines.push(`error: ${attempt.error}`);
    if (attempt.stderr_tail)
        lines.push('server stderr:', attempt.stderr_tail);
    return lines.join('\n');
}
function checkDetails(check) {
    const lines = [`  ✗ ${check.check}${check.path ? ` ${check.path}` : ''}: ${check.reason}`];
    if (check.diff)
        lines.push(check.diff);
    else
        lines.push(`    expected: ${JSON.stringify(check.expected) ?? 'undefined'}`, `    actual: ${JSON.stringify(check.actual) ?? 'undefined'}`);
    return lines;
}
/** One testcase per group (case × model × prompt); with repeats, k of N against the floor. */
function behaviourSuite(doc) {
    const byIndex = new Map(doc.runs.map((r) => [r.index, r]));
    const cases = doc.groups.map((group) => {
        const runs = group.run_indexes.map((i) => byIndex.get(i)).filter((r) => !!r);
        const seconds = runs.reduce((t, r) => t + r.duration_s, 0);
        const open = `    <testcase classname="${attr(`${group.model} · ${group.prompt_name}`)}" name="${attr(group.case_id)}" time="${Math.round(seconds * 10) / 10}">`;
        if (group.success)
            return `${open}</testcase>`;
        // Never run (cancelled, or skipped because the spend reached max_cost_usd): no verdict, skipped.
        const notRun = runs.filter((r) => r.status === 'cancelled' || r.status === 'skipped');
        if (runs.length > 0 && notRun.length === runs.length)
            return `${open}\n      <skipped message="${attr((0,report_reasons/* failureReasons */.O)(notRun.find((r) => r.status === 'skipped') ?? runs[0]).join('; '))}"/>\n    </testcase>`;
        if (runs.length === 1)
            return `${open}\n${runOutcome(runs[0])}\n    </testcase>`;
        const details = runs.filter((r) => r.status !== 'passed').map((r) => `run ${r.attempt}: ${(0,report_reasons/* failureReasons */.O)(r).join('; ')}${r.run_dir ? ` (run directory kept: ${r.run_dir})` : ''}`);
        const message = `${group.passed}/${group.runs} runs passed, below the ${group.kind} floor of ${(0,numbers/* formatPercent */.l)(group.floor)}%`;
        return `${open}\n      <failure message="${attr(message)}" type="pass-rate">${junit_text(details.join('\n'))}</failure>\n    </testcase>`;
    });
    return suite('behaviour', cases, doc.runs.reduce((t, r) => t + r.duration_s, 0));
}
/** One testcase per budget checked, absolute then against the baseline; null when none is set. */
function budgetsSuite(doc) {
    const { absolute, trends } = (0,verdict/* budgetChecks */.z7)(doc);
    if (absolute.length === 0 && trends.length === 0)
        return null;
    const testcase = (check, classname) => {
        const open = `    <testcase classname="${classname}" name="${attr(`${check.budget}${check.subject === null ? '' : ` · ${check.subject}`}`)}" time="0">`;
        if (check.passed)
            return `${open}</testcase>`;
        const details = [check.reason, `limit: ${check.limit}`, `actual: ${check.actual ?? 'unknown'}`, ...(check.baseline !== undefined ? [`baseline: ${check.baseline ?? 'unknown'}`] : [])];
        return `${open}\n      <failure message="${attr(check.reason)}" type="budget">${junit_text(details.join('\n'))}</failure>\n    </testcase>`;
    };
    return suite('budgets', [...absolute.map((c) => testcase(c, 'budgets')), ...trends.map((c) => testcase(c, 'budgets · against the baseline'))], 0);
}
/** A single run that did not pass: an error, or a failure that says what failed. */
function runOutcome(run) {
    if (run.status === 'error' && run.error) {
        // A conversation's turns, and how it stopped, after the error.
        const dialogue = run.dialogue ? `\n\n${dialogueDetails(run).join('\n').trimEnd()}` : '';
        const details = [run.error.message, ...(run.error.stderr_tail ? ['server stderr:', run.error.stderr_tail] : []), ...keptDir(run)].join('\n') + dialogue;
        return `      <error message="${attr(`${run.error.stage} error: ${(0,util_text/* firstLine */.TM)(run.error.message)}`)}" type="${run.error.stage}">${junit_text(details)}</error>`;
    }
    const reasons = (0,report_reasons/* failureReasons */.O)(run);
    const apps = (run.app_renders ?? []).filter(types/* appRenderFailed */.vT).flatMap((r) => [`app render ${r.id} (${r.tool}, call ${r.call_index}):`, ...appDetails(r)]);
    return `      <failure message="${attr(reasons.join('; '))}" type="eval">${junit_text([...reasons, '', ...dialogueDetails(run), `final answer: ${run.final_output ?? '(none)'}`, ...apps, ...keptDir(run)].join('\n'))}</failure>`;
}
/** "run directory kept: /tmp/…" when the failed run's `${RUN_DIR}` was kept (keep_run_dirs); nothing otherwise. */
function keptDir(run) {
    return run.run_dir ? [`run directory kept: ${run.run_dir}`] : [];
}
/** A multi-turn run's turns, one block each (verdict, user message, answer), and how the dialogue ended; nothing for a single-turn run. */
function dialogueDetails(run) {
    const dialogue = run.dialogue;
    if (!dialogue)
        return [];
    const lines = [`dialogue (${dialogue.kind === 'simulated' ? `simulated user ${dialogue.user_model ?? ''}`.trim() : 'scripted turns'}): ${(0,report_dialogue/* endedWords */.E5)(dialogue)}`];
    for (const turn of dialogue.turns) {
        const judged = (0,report_dialogue/* turnJudgeWords */.Me)(turn.judge);
        const verdict = [...((0,report_dialogue/* turnChecked */.Jv)(run, turn) ? [turn.passed ? 'passed' : 'failed'] : []), ...(judged ? [judged] : []), (0,words/* count */.U9)(turn.calls, 'tool call')];
        lines.push(`turn ${turn.index}${turn.simulated ? ' (simulated)' : ''}: ${verdict.join(', ')}`);
        lines.push(`  user: ${turn.user}`, `  answer: ${turn.final_output ?? `(none: ${(0,report_dialogue/* stopWords */.e$)(turn.stop_reason)})`}`);
    }
    return [...lines, ''];
}
function suite(name, cases, seconds) {
    const body = cases.join('\n');
    const count = (tag) => cases.filter((c) => c.includes(`<${tag} `) || c.includes(`<${tag}>`)).length;
    const counts = { tests: cases.length, failures: count('failure'), errors: count('error'), skipped: count('skipped') };
    const xml = [
        `  <testsuite name="${attr(name)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${Math.round(seconds * 1000) / 1000}">`,
        body,
        '  </testsuite>'
    ].join('\n');
    return { xml, ...counts };
}
/** Characters XML 1.0 cannot hold at all. */
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
function junit_text(value) {
    return value.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
function attr(value) {
    return junit_text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}

// EXTERNAL MODULE: ./src/report/cancelled.ts
var cancelled = __webpack_require__(84733);
// EXTERNAL MODULE: ./src/report/escape.ts
var report_escape = __webpack_require__(14031);
// EXTERNAL MODULE: ./src/report/model-view.ts
var model_view = __webpack_require__(28617);
// EXTERNAL MODULE: ./src/report/sections.ts + 9 modules
var sections = __webpack_require__(55241);
;// CONCATENATED MODULE: ./src/report/markdown.ts






/**
 * The Markdown report (also the job summary), in eval-action's structure — header line, summary
 * table, per-run details — with its defects fixed and what a reviewer needs first: the verdict,
 * what changed since the baseline, what did not pass, the matrix; failing runs before passing
 * ones (collapsed). Score badges follow each case's own threshold, the final answer is shown,
 * errors are explained, and every string from a server or a model is escaped. The sections and
 * their order are the registry's (sections.ts).
 */
function renderMarkdownReport(doc) {
    // The first heading carries the verdict: the page's title says it before anything is read.
    const out = [`# Eval Report — ${(0,headline/* verdictWords */.L2)(doc)}`, '', (0,headline/* headerLine */.iH)(doc), ''];
    if (doc.fatal_error !== null) {
        out.push('> **Evals failed to produce results.**', '>', (0,report_escape/* blockquote */.aV)(doc.fatal_error).replace(/^/gm, ''), '');
        return out.join('\n');
    }
    if (doc.cancelled)
        out.push(...(0,cancelled/* renderCancelled */.e)(doc));
    else if (doc.journal && doc.journal.missing > 0)
        out.push(`> **Incomplete:** ${(0,words/* count */.U9)(doc.journal.missing, 'planned run')} ${doc.journal.missing === 1 ? 'is' : 'are'} missing from the journal ${(0,report_escape/* codeSpan */.SS)(doc.journal.path)} (the evaluation was interrupted); it cannot pass.`, '');
    if (doc.journal && doc.journal.reused > 0)
        out.push(`_Resumed: ${(0,words/* count */.U9)(doc.journal.reused, 'run')} ${doc.journal.reused === 1 ? 'was' : 'were'} taken from an earlier attempt's journal ${(0,report_escape/* codeSpan */.SS)(doc.journal.path)}; the rest ran now._`, '');
    out.push(...(0,headline/* shardNotice */.Xe)(doc), ...(0,model_view/* modelViewNotice */.R5)(doc), ...(0,model_view/* appsNotice */.zZ)(doc));
    const ctx = (0,sections/* sectionContext */.dp)(doc, (0,headline/* unreachableReason */.N4)(doc));
    // One statement: the server never answered, so nothing below it could run.
    if (ctx.unreachable !== null)
        out.push(...sections/* SECTIONS */.bP.server.full(ctx));
    else
        out.push(...(0,sections/* placeSections */.k1)(sections/* REPORT_ORDER */.KS, ctx, 'full').flatMap((s) => s.lines));
    // A behaviour evaluation that planned no run ends after the free layers, its blank lines left as they are.
    if (ctx.unreachable === null && doc.behaviour.status === 'ran' && doc.runs.length === 0)
        return out.join('\n');
    return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

// EXTERNAL MODULE: ./src/report/runs.ts + 2 modules
var runs = __webpack_require__(67766);
// EXTERNAL MODULE: ./src/report/resilience.ts
var resilience = __webpack_require__(87117);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: ./src/conformance/types.ts
var conformance_types = __webpack_require__(68900);
// EXTERNAL MODULE: ./src/version.ts + 1 modules
var version = __webpack_require__(71013);
;// CONCATENATED MODULE: ./src/report/sarif.ts






/**
 * SARIF 2.1.0, for `github/codeql-action/upload-sarif`: the conformance findings (failures and
 * warnings, the tool-poisoning scan among them), the tool tests that failed (eval_cases'
 * `tool_tests`, an evals/v1 suite's checks), the attacks that succeeded and the MCP Apps findings
 * (failed, warning, for review: `mcp-apps/<finding id>`), so a repository's
 * code-scanning view shows them. Only the subset GitHub reads is emitted; the types say what.
 */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const INFORMATION_URI = 'https://github.com/mcp-server-evals/mcp-server-evals';
/** Conformance rules that cite a section (§n) of the revision link to it; the others to the README's table of checks. */
const SPEC_URI = `https://modelcontextprotocol.io/specification/${conformance_types/* MODERN_VERSION */.j$}`;
const CONFORMANCE_HELP = `${INFORMATION_URI}#protocol-conformance-layer-0`;
const LAYER2_HELP = `${INFORMATION_URI}#resilience-and-security-layer-2`;
const TOOL_TESTS_HELP = `${INFORMATION_URI}/blob/main/docs/tool-tests.md`;
/** Our own key beside the one upload-sarif computes from the file (primaryLocationLineHash), which is the same line for every result. */
const FINGERPRINT_KEY = 'mcpServerEvals/v1';
const MESSAGE_CHARS = 4000;
const ARGS_CHARS = 1000;
const EVIDENCE_SHOWN = 5;
const POISONING_CHECK = 'tool-description-poisoning';
/**
 * The log for one results document: one run, one rule per conformance check or attack that has
 * a result, one result per failing or warning check and per succeeded attack (case × model ×
 * system prompt, over its repeats). Pure; the caller writes it as JSON.
 *
 * Every result is located at line 1 of the eval cases file: code scanning needs a file and a
 * line, and a renderer of the document cannot read the file to find the case's own line.
 */
function renderSarif(doc) {
    const location = casesLocation(doc.config?.eval_cases ?? null);
    const rules = new Map();
    const results = [];
    const add = (rule, result) => {
        if (!rules.has(rule.id))
            rules.set(rule.id, rule);
        results.push({ ruleId: rule.id, ruleIndex: [...rules.keys()].indexOf(rule.id), ...result, locations: [location] });
    };
    for (const check of doc.conformance?.checks ?? []) {
        // An expected failure (the team's expected-failures file lists it) is still a finding: a note, which does not fail a check run.
        if (check.status !== 'fail' && check.status !== 'warn' && check.status !== 'expected')
            continue;
        add(conformanceRule(check), conformanceResult(check));
    }
    for (const test of doc.tool_tests?.tests ?? [])
        if (test.status === 'failed')
            add(toolTestRule(test, doc), toolTestResult(test));
    for (const finding of succeededAttacks(doc.runs))
        add(attackRule(finding.attack), attackResult(finding));
    // MCP Apps: each finding that failed, warns or asks for review, under its stable id.
    for (const placed of (0,app_findings/* appRendersOf */.uY)(doc))
        for (const finding of placed.render.findings.filter(sarifWorthy))
            add(appRule(finding), appResult(placed, finding));
    return {
        $schema: SARIF_SCHEMA,
        version: '2.1.0',
        runs: [{ tool: { driver: { name: version/* TOOL_NAME */.l, version: plain(doc.tool.version, 100), informationUri: INFORMATION_URI, rules: [...rules.values()] } }, results }]
    };
}
// ——— Text ———
/** Controls, bidi overrides, zero-width and tag characters: whatever could make a message lie about its content. */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu;
/**
 * Untrusted text as a SARIF plain-text message: no invisible characters, no embedded link (a
 * plain-text message may carry `[text](uri)`, §3.11.6, which viewers render as a link) and no
 * bare URL to click (defanged as `https[:]//host`), cut to `max` characters.
 */
function plain(text, max = MESSAGE_CHARS) {
    const cleaned = text
        .replace(/\r\n?/g, '\n')
        .replace(/\t/g, ' ')
        .replace(INVISIBLE, '')
        .replace(/\]\s*\(/g, '] (')
        .replace(/:\/\//g, '[:]//');
    if (cleaned.length <= max)
        return cleaned;
    return `${(0,util_text/* sliceChars */.qp)(cleaned, 0, max)}… (cut)`;
}
/** A rule id from document text: the characters code scanning shows well, nothing else. */
const ruleIdPart = (text) => text.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100) || 'unknown';
const fingerprint = (...parts) => (0,external_node_crypto_.createHash)('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
/**
 * The eval cases file as an artifact location: relative to %SRCROOT% (the checkout), the way
 * code scanning expects it. The path is the `eval_cases` input, relative to the working
 * directory; an absolute one stays a file URI, and without a configuration the input's name stands in.
 */
function casesLocation(path) {
    const given = (path ?? 'eval_cases.yaml').replace(/\\/g, '/');
    const absolute = given.startsWith('/') || /^[A-Za-z]:\//.test(given);
    const encoded = given
        .replace(/^(\.\/)+/, '')
        .split('/')
        .map((segment) => (/^[A-Za-z]:$/.test(segment) ? segment : encodeURIComponent(segment)))
        .join('/');
    const artifactLocation = absolute ? { uri: `file://${encoded.startsWith('/') ? '' : '/'}${encoded}` } : { uri: encoded, uriBaseId: '%SRCROOT%' };
    return { physicalLocation: { artifactLocation, region: { startLine: 1 } } };
}
// ——— Conformance ———
const isPoisoning = (check) => check.id === POISONING_CHECK;
function conformanceRule(check) {
    const spec = plain(check.spec, 1000);
    const level = check.severity === 'error' ? 'error' : 'warning';
    const poisoning = isPoisoning(check);
    return {
        id: ruleIdPart(check.id),
        shortDescription: { text: poisoning ? 'Tool poisoning: instructions, hidden characters or addresses in tool descriptions and schemas' : `MCP conformance: ${plain(check.id, 100)}` },
        fullDescription: { text: spec },
        help: {
            text: poisoning
                ? `${spec}. A static scan of what the server lists (no model): the model reads tool descriptions and schemas as trusted text. The job summary quotes each finding.`
                : `The rule (MCP ${conformance_types/* MODERN_VERSION */.j$}): ${spec}. The job summary has the request and the response that show the finding.`
        },
        helpUri: poisoning ? LAYER2_HELP : /§\s*\d/.test(check.spec) ? SPEC_URI : CONFORMANCE_HELP,
        defaultConfiguration: { level },
        properties: poisoning
            ? { tags: ['mcp', 'security', 'tool-poisoning'], precision: 'medium', 'security-severity': '6.0' }
            : { tags: ['mcp', 'conformance', check.severity === 'error' ? 'correctness' : 'maintainability'], precision: 'very-high' }
    };
}
function conformanceResult(check) {
    const evidence = check.evidence ? `\n\nRequest: ${check.evidence.request}\nResponse: ${check.evidence.response}` : '';
    return {
        level: check.status === 'expected' ? 'note' : check.status === 'fail' && check.severity === 'error' ? 'error' : 'warning',
        message: { text: plain(`${check.status === 'expected' ? `Expected failure (listed as ${check.expected_entry ?? check.id}): ` : ''}${check.message}${evidence}`) },
        // A check is one finding per server: its id is its identity across runs.
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprint('conformance', check.id) },
        properties: { check: plain(check.id, 100), status: check.status, severity: check.severity }
    };
}
// ——— Tool tests ———
const toolTestRuleId = (test) => `tool-test/${ruleIdPart(test.id)}`;
function toolTestRule(test, doc) {
    const id = plain(test.id, 200);
    const what = doc.evals_v1 ? 'evals/v1 check' : 'tool test';
    return {
        id: toolTestRuleId(test),
        shortDescription: { text: `Tool test ${id} failed` },
        fullDescription: { text: `The ${what} ${id}: direct calls of the server with assertions on the answers, no model.` },
        help: { text: 'A deterministic test of the server failed: a call answered differently from what the suite expects. The job summary shows each step with its arguments, the answer and every assertion.' },
        helpUri: TOOL_TESTS_HELP,
        defaultConfiguration: { level: 'error' },
        properties: { tags: ['mcp', 'tool-test', 'correctness'], precision: 'very-high' }
    };
}
/** The first failed attempt's failing step: its call and the assertions that failed, in words. */
function toolTestResult(test) {
    const attempt = test.attempts.find((a) => a.status === 'failed');
    const step = attempt?.steps.find((s) => !s.passed);
    const failed = (step?.checks ?? []).filter((c) => !c.passed);
    const attempts = test.runs > 1 ? ` (attempt ${attempt?.attempt ?? '?'} of ${test.runs})` : '';
    const lines = [
        `Tool test ${test.id} failed${attempts}${step ? `: step ${step.index}, ${step.tool} ${JSON.stringify(step.args) ?? ''}` : ''}.`,
        ...failed.slice(0, EVIDENCE_SHOWN).map((c) => `${c.check}${c.path ? ` ${c.path}` : ''}: ${c.reason}`),
        ...(failed.length > EVIDENCE_SHOWN ? [`(${failed.length - EVIDENCE_SHOWN} more in the job summary.)`] : [])
    ];
    return {
        level: 'error',
        message: { text: plain(lines.join('\n')) },
        // A test's id is its identity across runs.
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprint('tool-test', test.id) },
        properties: { test: plain(test.id, 200), tool: plain(step?.tool ?? '', 200), failed_checks: failed.length }
    };
}
const attackRuleId = (attack) => (attack.attack === 'tool_output' ? `attack/${ruleIdPart(attack.payload)}` : `attack/${ruleIdPart(attack.payload)}/${ruleIdPart(attack.attack)}`);
/** Succeeded attacks, one per rule × case × model × system prompt, counted over that group's repeats. */
function succeededAttacks(runs) {
    const byKey = new Map();
    for (const run of runs) {
        if (run.status === 'cancelled')
            continue;
        for (const attack of run.security?.attacks ?? []) {
            if (!attack.delivered)
                continue;
            const key = JSON.stringify([attackRuleId(attack), run.case_id, run.model, run.prompt_name]);
            const finding = byKey.get(key);
            const succeeded = attack.resisted ? 0 : 1;
            if (finding) {
                finding.delivered++;
                finding.succeeded += succeeded;
                if (finding.attack.resisted && !attack.resisted)
                    Object.assign(finding, { attack, run });
            }
            else
                byKey.set(key, { attack, run, succeeded, delivered: 1 });
        }
    }
    return [...byKey.values()].filter((f) => f.succeeded > 0);
}
const VECTOR_WORDS = {
    tool_output: 'planted in the output of',
    poison_description: 'planted in the description of',
    shadow_tool: 'offered as a decoy of',
    rug_pull: 'planted as a changed description of'
};
function attackRule(attack) {
    const payload = plain(attack.payload, 100);
    const how = attack.attack === 'tool_output' ? 'in a tool result' : `by ${plain(attack.attack, 40).replace(/_/g, ' ')}`;
    return {
        id: attackRuleId(attack),
        shortDescription: { text: `The model acted on the ${payload} payload planted ${how}` },
        fullDescription: {
            text: `An instruction planted ${how} (payload ${payload}) was obeyed: after it reached the model, a tool call or the answer did what the payload asked (a deterministic oracle on the transcript: canary, attacker address or host, arguments outside allowed_args, a forbidden or decoy tool, a link to the attacker).`
        },
        help: { text: 'The agent obeyed instructions that arrived as data. Treat tool output as untrusted: keep instructions out of tool results, or constrain what the agent may do after reading them (allowed arguments, no outbound tools). The job summary shows the call that crossed the line.' },
        helpUri: LAYER2_HELP,
        defaultConfiguration: { level: 'error' },
        properties: { tags: ['mcp', 'security', 'prompt-injection', ruleIdPart(attack.attack)], precision: 'high', 'security-severity': '8.0' }
    };
}
function attackResult({ attack, run, succeeded, delivered }) {
    const where = `${VECTOR_WORDS[attack.attack] ?? `planted via ${attack.attack} on`} ${attack.tool}`;
    const at = (e) => (e.tool_call_index === null ? 'The answer' : `Tool call ${e.tool_call_index + 1} (${e.tool ?? run.tool_calls[e.tool_call_index]?.name ?? '?'})`);
    const crossed = attack.evidence.slice(0, EVIDENCE_SHOWN).map((e) => `${at(e)} crossed the line: ${resilience/* EVIDENCE_WORDS */.MY[e.kind] ?? e.kind}: ${e.detail}`);
    if (attack.evidence.length > EVIDENCE_SHOWN)
        crossed.push(`(${attack.evidence.length - EVIDENCE_SHOWN} more in the job summary.)`);
    // The whole arguments of the first call that crossed it: what a reviewer would look for first.
    const index = attack.evidence.map((e) => e.tool_call_index).find((i) => i !== null);
    const call = index === undefined ? undefined : run.tool_calls[index];
    const args = call && index !== undefined ? [`Arguments of tool call ${index + 1}: ${plain(JSON.stringify(call.args) ?? '', ARGS_CHARS)}`] : [];
    const runs = delivered > 1 ? ` in ${succeeded} of ${delivered} runs` : '';
    const text = [`Attack ${attack.payload} (${where}) succeeded${runs}: case ${run.case_id}, model ${run.model}, system prompt ${run.prompt_name}.`, ...(crossed.length ? crossed : ['The oracle recorded no evidence.']), ...args].join('\n');
    return {
        level: 'error',
        message: { text: plain(text) },
        // Stable per rule, case, model and system prompt: the same attack on the same target is one alert across runs.
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(attackRuleId(attack), run.case_id, run.model, run.prompt_name) },
        properties: {
            case: plain(run.case_id, 200),
            model: plain(run.model, 200),
            prompt: plain(run.prompt_name, 200),
            payload: plain(attack.payload, 100),
            attack: plain(attack.attack, 40),
            tool: plain(attack.tool, 200),
            succeeded,
            delivered
        }
    };
}
// ——— MCP Apps ———
const APPS_HELP = `${INFORMATION_URI}#mcp-apps`;
const APP_RULE_WORDS = {
    'app-initializes': 'The MCP App view completes ui/initialize',
    'app-no-errors': 'The MCP App view throws no uncaught error and logs no console.error',
    'app-csp-respected': 'The MCP App view makes no request its Content-Security-Policy blocks',
    'app-renders': 'The MCP App view is not blank',
    'app-tool-calls': 'Every tools/call of the MCP App view is to a tool visible to the app and succeeds',
    'app-csp-declared': 'The MCP App resource declares _meta.ui.csp',
    'app-visual-change': "The MCP App view's screenshot matches the baseline's"
};
const sarifWorthy = (f) => f.status === 'failed' || f.status === 'warning' || f.status === 'review';
function appRule(finding) {
    const words = APP_RULE_WORDS[finding.id] ?? `MCP Apps finding ${plain(finding.id, 100)}`;
    return {
        id: `mcp-apps/${ruleIdPart(finding.id)}`,
        shortDescription: { text: words },
        fullDescription: { text: `${words}: checked by rendering the view in a headless browser as a conforming MCP Apps host does.` },
        help: { text: 'The job summary shows the render: its screenshot (in the artifact), the findings with their evidence, the view\'s tool calls, blocked requests and console errors.' },
        helpUri: APPS_HELP,
        defaultConfiguration: { level: finding.id === 'app-csp-declared' ? 'warning' : finding.id === 'app-visual-change' ? 'note' : 'error' },
        properties: { tags: ['mcp', 'mcp-apps', finding.id === 'app-csp-respected' || finding.id === 'app-csp-declared' ? 'security' : 'correctness'], precision: 'very-high' }
    };
}
function appResult({ render, place }, finding) {
    const evidence = finding.evidence.slice(0, EVIDENCE_SHOWN);
    const lines = [`${finding.id} (${finding.status}) in the view of ${render.tool} (${render.resource_uri}), ${(0,app_findings/* placeWords */.fp)(place)}: ${finding.message}`, ...evidence, ...(finding.evidence.length > EVIDENCE_SHOWN ? [`(${finding.evidence.length - EVIDENCE_SHOWN} more in the job summary.)`] : [])];
    return {
        level: finding.status === 'failed' ? 'error' : finding.status === 'warning' ? 'warning' : 'note',
        message: { text: plain(lines.join('\n')) },
        // A render's id is stable across runs of the suite: the same finding on the same view is one alert.
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprint('mcp-apps', finding.id, render.id) },
        properties: { render: plain(render.id, 200), tool: plain(render.tool, 200), resource: plain(render.resource_uri, 200), status: finding.status }
    };
}

;// CONCATENATED MODULE: ./src/report/html/embed.ts

/**
 * JSON that can stand inside a `<script type="application/json">` element: `<`, `>` and `&` as
 * \u escapes (no `</script>` or `<!--` can end or change the element), and U+2028/U+2029 escaped
 * too. JSON.parse of the element's text gives the value back unchanged.
 */
function jsonForScript(value) {
    return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/** The CSP source that allows exactly this inline script or style element's text: 'sha256-…'. */
function cspHash(text) {
    return `'sha256-${(0,external_node_crypto_.createHash)('sha256').update(text, 'utf8').digest('base64')}'`;
}
/**
 * The report's Content-Security-Policy: nothing from the network, no script but its own (by
 * hash), no style but its own, pictures only from data: URLs inside the file.
 */
function reportCsp(script, style) {
    return [
        "default-src 'none'",
        `script-src ${cspHash(script)}`,
        `style-src ${cspHash(style)}`,
        'img-src data:',
        "base-uri 'none'",
        "form-action 'none'"
    ].join('; ');
}

;// CONCATENATED MODULE: ./src/report/html/viewer-assets.generated.ts
// Generated by scripts/build-html-viewer.mjs from src/report/html/viewer/: do not edit (npm run build:viewer).
const VIEWER_JS = "/*! MCP Server Evals report page. Includes Preact 11.2.0 (MIT, https://preactjs.com). */\n\"use strict\";(()=>{var M,Ut,Hs,te,rt,je,qt,Ce,Vt,at,ot,Jt,ye=Symbol.for(\"pv\"),Fe={},Pe=[],Ws=/^m(i|n|o|s|text|space)$/,it=Array.isArray,Gt=Pe.slice,le=Object.assign;function oe(e){e&&e.parentNode&&e.remove()}function Ae(e,t,s,r,o){var l={type:e,props:t,key:s,ref:r,__k:null,__:null,__b:0,__e:null,__c:null,constructor:ye,__v:o||++Ut,__i:-1,__u:0};return!o&&M.vnode&&M.vnode(l),l}function $(e){return e.children}function Me(e,t){this.props=e,this.context=t,this.__g=0}function ne(e,t){if(t==null)return e.__&&ne(e.__,e.__i+1);for(var s;t<e.__k.length;t++)if((s=e.__k[t])&&s.__e)return s.__e;return typeof e.type!=\"function\"||e.props.__P?null:ne(e)}function Us(e){var t,s=e.__v,r=s.__e,o=[],l=[],a=e.__P;a&&((t=le({constructor:ye},s)).__v=s.__v+1,M.vnode&&M.vnode(t),ut(a,t,s,e.__n,a.namespaceURI,32&s.__u?[r]:null,o,r||ne(s),32&s.__u,l),t.__v=s.__v,t.__.__k[t.__i]=t,Qt(o,t,l),s.__=s.__e=null,t.__e!=r&&Kt(t))}function Kt(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Kt(e)}function lt(e){(8&e.__g||(e.__g|=8,te.push(e),je++))&&rt==M.debounceRendering||((rt=M.debounceRendering)||queueMicrotask)(zt)}function zt(){try{for(var e,t=1;te.length;)te.length>t&&te.sort(qt),e=te.shift(),t=te.length,8&e.__g&&Us(e)}finally{(je=te.length)&&(rt||queueMicrotask)(zt)}}function Yt(e,t,s,r,o,l,a,i,u,c,m){var p,g,d,f,y,x,v=r.__k||Pe,h=t.length;for(u=qs(s,t,v,u,h),p=0;p<h;p++)(d=s.__k[p])!=null&&(g=~d.__i&&v[d.__i]||Fe,d.__i=p,x=ut(e,d,g,o,l,a,i,u,c,m),f=d.__e,(g.ref!=d.ref||8&g.__u)&&(g.ref&&ct(g.ref,null,d,g),d.ref&&m.push(d.ref,d.__c||f,d)),y=y||f,4&d.__u?(u=Zt(d,u,e,!g.__v),g.__e&&(g.__e=null)):typeof d.type==\"function\"&&x!==void 0?u=x:f&&(u=f.nextSibling),d.__u&=-21);return s.__e=y,u}function qs(e,t,s,r,o){var l,a,i,u,c,m,p,g,d,f=s.length,y=f,x=0,v=0,h=e.__k=Array(o);for(l=0;l<o;l++)(a=t[l])!=null&&typeof a!=\"boolean\"&&typeof a!=\"function\"?(typeof a!=\"object\"||a.constructor===String?a=h[l]=Ae(null,a):it(a)?a=h[l]=Ae($,{children:a}):a.constructor===ye&&a.__b?a=h[l]=Ae(a.type,a.props,a.key,a.ref,a.__v):h[l]=a,u=l+x,a.__=e,a.__b=e.__b+1,i=null,~(c=a.__i=Vs(a,s,u,y))&&(y--,(i=s[c])&&(i.__u|=2)),i&&i.__v?(a.__u|=16,c==u-1?x--:c==u+1?x++:c!=u&&(c>u?x--:x++,v=1)):(~c||(o>f?x--:o<f&&x++),typeof a.type!=\"function\"&&(a.__u|=4))):h[l]=null;if(v){for(m=[],p=[],l=0;l<o;l++)if((a=h[l])&&16&a.__u){for(x=0,g=m.length;x<g;)m[d=x+g>>1]<a.__i?x=d+1:g=d;m[x]=a.__i,p[l]=x+1}for(x=m.length;l--;)p[l]&&(p[l]==x?x--:h[l].__u|=4)}if(y)for(l=0;l<f;l++)!(i=s[l])||2&i.__u||(i.__e==r&&(r=ne(i)),dt(i,i));return r}function Zt(e,t,s,r){var o,l,a,i;if(typeof e.type==\"function\"){if(e.props.__P)return t;if(o=e.__k)for(l=0;l<o.length;l++)o[l]&&(o[l].__=e,t=Zt(o[l],t,s,!1));return t}for(t&&!t.parentNode&&(t=ne(e))&&!t.parentNode&&(t=null),a=e.__e,i=t;i&&i.nodeType==8;)i=i.nextSibling;for(a!=i&&(!r&&s.moveBefore&&a.parentNode?s.moveBefore(a,t):s.insertBefore(a,t||null)),t=a;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith(\"$s\"););return t}function Vs(e,t,s,r){var o,l=e.key,a=e.type,i=t[s],u=i&&!(2&i.__u);if(i===null&&l==null||u&&l==i.key&&a==i.type)return s;if(r>(u?1:0)){for(o=s-1;o>=0;o--)if((i=t[o])&&!(2&i.__u)&&l==i.key&&a==i.type)return o;for(o=s+1;o<t.length;o++)if((i=t[o])&&!(2&i.__u)&&l==i.key&&a==i.type)return o}return-1}function Wt(e,t,s){s==null&&(s=\"\"),t[0]==\"-\"?e.setProperty(t,s):e[t]=s}function Te(e,t,s,r,o){var l,a;if(t==\"style\")if(typeof s==\"string\")e.style.cssText=s;else{if(typeof r==\"string\"&&(e.style.cssText=r=\"\"),r)for(t in r)s&&t in s||Wt(e.style,t);if(s)for(t in s)r&&s[t]==r[t]||Wt(e.style,t,s[t])}else if(t[0]==\"o\"&&t[1]==\"n\")typeof s!=\"function\"&&(s=null),typeof r!=\"function\"&&(r=null),(e.__e||(e.__e={}))[t]=s,s&&r||(a=ot[t]||(ot[t]=Js(t)),(e.__a||(e.__a={}))[t]=at,l=t!=(t=t.replace(Vt,\"$1\")),(t=t.slice(2))[0]<\"a\"&&(t=t.toLowerCase()),s?e.addEventListener(t,a,l):e.removeEventListener(t,a,l));else{if(o==\"http://www.w3.org/2000/svg\")t=t.replace(/xlink(H|:h)/,\"h\").replace(/sName$/,\"s\");else if(t!=\"width\"&&t!=\"height\"&&t!=\"href\"&&t!=\"list\"&&t!=\"form\"&&t!=\"tabIndex\"&&t!=\"download\"&&t!=\"rowSpan\"&&t!=\"colSpan\"&&t!=\"role\"&&t!=\"popover\"&&t in e)try{return void(e[t]=s??\"\")}catch{}if(typeof s==\"function\")return;s==null||s===!1&&t[4]!=\"-\"?e.removeAttribute(t):e.setAttribute(t,t==\"popover\"&&s==1?\"\":s)}}function Js(e){return function(t){var s=this.__e;if(s){if(s=s[e],t[Ce]==null)t[Ce]=at++;else if(t[Ce]<this.__a[e])return;return s(M.event?M.event(t):t)}}}function ut(e,t,s,r,o,l,a,i,u,c){var m,p,g,d,f,y,x,v,h,k,R,b,w,j,C,N,I,O,G=t.type;if(t.constructor!==ye)return null;128&s.__u&&(u=32&s.__u,m=s.__c.__z)&&(t.__u|=u,p=l=[],m.nodeType==8?i=Ee(m,l):l.push(m),i=l[0]||i),(m=M.__b)&&m(t);e:if(typeof G==\"function\"){g=a.length;try{if(v=t.props,h=(m=G.prototype)&&m.render,k=(m=G.contextType)&&r[m.__c],R=m?k?k.props.value:m.__:r,(d=s.__c)?(t.__c=d,2&d.__g&&(d.__g|=1)):(h?t.__c=d=new G(v,R):(t.__c=d=new Me(v,R),d.constructor=G,d.render=Ks),k&&k.sub(d),d.state||(d.state={}),d.__n=r,d.__g|=8,d.__h=[],d.__k=[]),h&&(d.__s||(d.__s=d.state),G.getDerivedStateFromProps&&(d.__s==d.state&&(d.__s=le({},d.__s)),le(d.__s,G.getDerivedStateFromProps(v,d.__s)))),f=d.props,y=d.state,d.__v=t,s.__c){if(v!==f&&h&&!G.getDerivedStateFromProps&&d.componentWillReceiveProps&&d.componentWillReceiveProps(v,R),t.__v==s.__v&&!(8&d.__g)||!(4&d.__g)&&d.shouldComponentUpdate&&d.shouldComponentUpdate(v,d.__s,R)===!1){t.__v!=s.__v&&(d.props=v,d.state=d.__s,d.__g&=-9),t.__e=s.__e,t.__k=s.__k,t.__k.some(function(V){V&&(V.__=t)}),Pe.push.apply(d.__h,d.__k),d.__k=[],d.__h.length&&a.push(d),i=ne(s);break e}d.componentWillUpdate&&d.componentWillUpdate(v,d.__s,R),h&&d.componentDidUpdate&&d.__h.push(function(){d.componentDidUpdate(f,y,x)})}else h&&!G.getDerivedStateFromProps&&d.componentWillMount&&d.componentWillMount(),h&&d.componentDidMount&&d.__h.push(d.componentDidMount);d.context=R,d.props=v,d.__P=e,d.__g&=-5,b=M.__r,w=h?25:0;do d.__g&=-9,b&&b(t),m=d.render(d.props,d.state=d.__s,d.context);while(8&d.__g&&++w<25);h&&(Pe.push.apply(d.__h,d.__k),d.__k=[]),d.state=d.__s,d.getChildContext&&(r=le({},r,d.getChildContext())),h&&s.__c&&d.getSnapshotBeforeUpdate&&(x=d.getSnapshotBeforeUpdate(f,y)),j=m&&m.type===$&&m.key==null?m.props.children:m,v.__P&&(m=i,o=(e=v.__P).namespaceURI,u=l=null,s.props&&s.props.__P!=e&&(s.__k.some(function(V){V&&dt(V,V)}),s.__k=null),i=s.__k?ne(s,0):null),i=Yt(e,it(j)?j:[j],t,s,r,o,l,a,i,u,c),v.__P&&(t.__e=null,i=m),t.__u&=-161,p&&p.some(oe),d.__h.length&&a.push(d),1&d.__g&&(d.__g&=-4)}catch(V){if(a.length=g,t.__v=null,u||l)if(V&&V.then){if(t.__u|=128|u,l){for(~(I=l.indexOf(i||void 0))||(I=l.length);(O=l[I-1])&&O.nodeType==8;)I--;for(;I<l.length;I++)if(O=l[I])if(l[I]=null,C){if(O==N)break}else{if(O.nodeType!=8)break;O.data.startsWith(\"$s\")&&(N=Ee(C=O))}}if(!C){for(;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;C=i}(m=Ee(C=t.__c.__z||(t.__c.__z=C)))?(t.__e=C,i=m):t.__e=i,i=i&&i.nextSibling}else l&&l.some(oe);else t.__e=s.__e;t.__k||(t.__k=s.__k||[]),V&&V.then||Xt(t),M.__e(V,t,s)}}else i=t.__e=Gs(s.__e,t,s,r,o,l,a,u,c,e);return(m=M.diffed)&&m(t),i}function Ee(e,t){if(e&&e.nodeType==8&&e.data.startsWith(\"$s\"))for(var s=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith(\"$s\"))s++;else if(e.data.startsWith(\"/$s\")&&!--s)return e}t&&t.push(e)}}function Xt(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(Xt))}function Qt(e,t,s){for(var r=0;r<s.length;)ct(s[r++],s[r++],s[r++]);M.__c&&M.__c(t,e),e.some(function(o){try{e=o.__h,o.__h=[],e.some(function(l){l.call(o)})}catch(l){M.__e(l,o.__v)}})}function Gs(e,t,s,r,o,l,a,i,u,c){var m,p,g,d,f,y,x,v,h=s.props||Fe,k=t.props,R=t.type;if(R==\"svg\"?o=\"http://www.w3.org/2000/svg\":R==\"math\"?o=\"http://www.w3.org/1998/Math/MathML\":o||(o=\"http://www.w3.org/1999/xhtml\"),l){for(m=0;m<l.length;m++)if((f=l[m])&&(R?f.localName==R:f.nodeType==3)){e=f,l[m]=null;break}}if(!e){if(v=c.ownerDocument||document,!R)return v.createTextNode(k);e=v.createElementNS(o,R,k.is?k:c),i&&(M.__m&&M.__m(t,l),i=!1),l=null}if(R){if(c=R==\"template\"&&e.content||e,l=R==\"textarea\"&&k.defaultValue!=null?null:l&&Gt.call(c.childNodes),!i&&l)for(h={},m=0;m<e.attributes.length;m++)h[(f=e.attributes[m]).name]=f.value;for(m in h)f=h[m],m==\"dangerouslySetInnerHTML\"?g=f:m==\"children\"||m in k||m==\"value\"&&\"defaultValue\"in k||m==\"checked\"&&\"defaultChecked\"in k||Te(e,m,null,f,o);for(m in k)f=k[m],m==\"children\"?d=f:m==\"dangerouslySetInnerHTML\"?p=f:m==\"value\"?y=f:m==\"checked\"?x=f:i&&typeof f!=\"function\"||h[m]===f||Te(e,m,f,h[m],o);p?(i||g&&(p.__html==g.__html||p.__html==e.innerHTML)||(e.innerHTML=p.__html),t.__k=[]):(g&&(e.textContent=\"\"),(R==\"foreignObject\"||o==\"http://www.w3.org/1998/Math/MathML\"&&Ws.test(R))&&(o=\"http://www.w3.org/1999/xhtml\"),Yt(c,it(d)?d:[d],t,s,r,o,l,a,l?l[0]:s.__k&&ne(s,0),i,u),l&&l.some(oe)),i&&R!=\"textarea\"||(m=\"value\",R==\"progress\"&&y==null?e.removeAttribute(m):y==null||y===e[m]&&(R!=\"progress\"||y)||Te(e,m,y,h[m],o),m=\"checked\",x!=null&&x!=e[m]&&Te(e,m,x,h[m],o))}else h===k||i&&e.data==k||(e.data=k);return e}function ct(e,t,s,r){try{typeof e==\"function\"?t?t.__x=e(t)||1:r&&(r=r.__c||r.__e)&&(t=r.__x)&&(r.__x=null,typeof t==\"function\"?t():e(null)):e.current=t}catch(o){M.__e(o,s)}}function dt(e,t,s){var r,o,l,a;if(M.unmount&&M.unmount(e),!(r=e.ref)||r.current&&r.current!=e.__e||ct(r,null,t,e),r=e.__c){if(r.componentWillUnmount)try{r.componentWillUnmount()}catch(i){M.__e(i,t)}r.__P=r.__n=null}if(r=e.__k)for(a=0;a<r.length;a++)r[a]&&dt(r[a],t,typeof e.type!=\"function\"||s&&!e.props.__P);!s&&(r=e.__c)&&(r=r.__z)&&(o=Ee(r,l=[]))&&(r==e.__e&&l.some(oe),oe(o),oe(r)),s||oe(e.__e),e.__e=e.__c=e.__=null}function Ks(e,t,s){return this.constructor(e,s)}function en(e,t){var s,r,o,l;M.__&&M.__(e,t),t.nodeType==9&&(t=t.documentElement),r=(s=e&&32&e.__u)?null:t.__k,t.__k=Ae($,{children:[e]}),o=[],l=[],ut(t,t.__k,r||Fe,Fe,t.namespaceURI,r?null:t.firstChild?Gt.call(t.childNodes):null,o,r?r.__e:t.firstChild,s,l),Qt(o,t.__k,l),t.__k.props.children=null}function tn(e){function t(s){var r,o;return this.getChildContext||(r=new Set,(o={})[t.__c]=this,this.getChildContext=function(){return o},this.shouldComponentUpdate=function(l){this.props.value!=l.value&&r.forEach(function(a){a.__g|=4,lt(a)})},this.sub=function(l){r.add(l);var a=l.componentWillUnmount;l.componentWillUnmount=function(){r.delete(l),a&&a.call(l)}}),s.children}return t.__c=\"__cC\"+Jt++,t.__=e,t.Provider=(t.Consumer=function(s,r){return s.children(r)}).contextType=t,t}M={__e:function(e,t,s,r){for(var o,l,a;t=t.__;)if((o=t.__c)&&!(1&o.__g)){o.__g|=4;try{if((a=(l=o.constructor)&&l.getDerivedStateFromError)&&o.setState(l.getDerivedStateFromError(e)),o.componentDidCatch&&(o.componentDidCatch(e,r||{}),a=1),a&&8&o.__g)return void(o.__g|=2)}catch(i){e=i}}throw je=0,e}},Ut=0,Hs=function(e){return e!=null&&e.constructor===ye},Me.prototype.setState=function(e,t){var s=this.__s;s&&s!=this.state||(s=this.__s=le({},this.state)),typeof e==\"function\"&&(e=e(le({},s),this.props)),e&&(le(s,e),this.__v&&(t&&this.__k.push(t),lt(this)))},Me.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),lt(this))},Me.prototype.render=$,te=[],je=0,qt=function(e,t){return e.__v.__b-t.__v.__b},Ce=Symbol(),Vt=/(PointerCapture)$|Capture$/i,at=0,ot={},Jt=0;var de,D,pt,nn,mt=Object.is,De=0,pn=[],ft=[],L=M,sn=L.__b,rn=L.__r,on=L.diffed,ln=L.__c,an=L.unmount,un=L.__;function Ne(e,t){L.__h&&L.__h(D,e,De||t),De=0;var s=D.__H||(D.__H={__:[],__h:[]});return e>=s.__.length&&s.__.push({}),s.__[e]}function K(e){return De=1,zs(hn,e)}function zs(e,t,s){var r=Ne(de++,2);if(r.t=e,!r.__c&&(r.__=[s?s(t):hn(void 0,t),function(l){var a=(r.__N||r.__)[0],i=r.t(a,l);mt(a,i)||(r.__N=[i,r.__[1]],r.__c.setState({}))}],r.__c=D,!D.__f)){D.__f=!0;var o=D.shouldComponentUpdate;D.shouldComponentUpdate=function(l,a,i){var u=this.__H;if(!u)return!0;var c=!1,m=this.props!=l;if(u.__.some(function(g){g.__N&&(c=!0,mt(g.__[0],g.__N[0])||(m=!0))}),o){var p=o.call(this,l,a,i);return c?p||m:p}return!c||m}}return r.__}function ae(e,t){var s=Ne(de++,3);!L.__s&&fn(s.__H,t)&&(s.__P=!0,s.__=e,s.u=t,D.__H.__h.push(s))}function Le(e){return De=5,ee(function(){return{current:e}},[])}function ee(e,t){var s=Ne(de++,7);return fn(s.__H,t)&&(s.__=e(),s.__H=t),s.__}function mn(e){var t=D.context[e.__c],s=Ne(de++,9);return s.c=e,t?(s.__==null&&(s.__=!0,t.sub(D)),t.props.value):e.__}function Ys(){var e;do{for(;e=ft.shift();)try{ke(e)}catch(s){L.__e(s,{__:(e=e.__P)&&e.__v})}for(;e=pn.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(ke),t.__h.some(ht),t.__h=[]}catch(s){t.__h=[],L.__e(s,e.__v)}}}while(ft.length)}L.__b=function(e){D=null,sn&&sn(e)},L.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),un&&un(e,t)},L.__r=function(e){rn&&rn(e),de=0;var t=(D=e.__c).__H;t&&(pt==D?D.__h=[]:(t.__h.some(ke),t.__h.some(ht),de=0),t.__h=[],t.__.some(function(s){s.__N&&(s.__=s.__N),s.u=s.__N=void 0})),pt=D},L.diffed=function(e){on&&on(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&dn(pn.push(t)),t.__H.__.some(function(s){s.u&&(s.__H=s.u)})),pt=D=null},L.__c=function(e,t){t.some(function(s){try{s.__h.some(ke),s.__h=s.__h.filter(function(r){return!r.__||ht(r)})}catch(r){s.__h=[function(){throw r}]}}),ln&&ln(e,t)},L.unmount=function(e){an&&an(e);var t,s,r=e.__c;r&&r.__H&&(r.__H.__.some(function(o){try{if(o.__P&&o.__c){if(s===void 0){for(s=e.__;s&&(!s.__c||!s.__c.__P);)s=s.__;s=s&&s.__c}o.__P=s,dn(ft.push(o))}else ke(o)}catch(l){t=l}}),r.__H=void 0,t&&L.__e(t,r.__v))};var cn=typeof requestAnimationFrame==\"function\";function Zs(e){var t,s=function(){clearTimeout(r),cn&&cancelAnimationFrame(t),setTimeout(e)},r=setTimeout(s,35);cn&&(t=requestAnimationFrame(s))}function dn(e){e!=1&&nn==L.requestAnimationFrame||((nn=L.requestAnimationFrame)||Zs)(Ys)}function ke(e){var t=D,s=e.__c;typeof s==\"function\"&&(e.__c=void 0,s()),D=t}function ht(e){var t=D;e.__c=e.__(),D=t}function fn(e,t){return!e||e.length!=t.length||t.some(function(s,r){return!mt(s,e[r])})}function hn(e,t){return typeof t==\"function\"?t(e):t}var gt=tn(null);function S(){let e=mn(gt);if(!e)throw new Error(\"useReport outside the report\");return e}function H(e,t,s=`${t}s`){return`${Xs(e)} ${e===1?t:s}`}function Xs(e){return Number.isSafeInteger(e)&&!Object.is(e,-0)?String(e).replace(/\\B(?=(\\d{3})+(?!\\d))/g,\",\"):e.toLocaleString(\"en-US\")}function Ie(e){return e<=0||e>=.001?`$${e.toFixed(4)}`:`$${e.toFixed(1-Math.floor(Math.log10(e)))}`}var gn=e=>e===\"⏭\"?\"»\":e;var Qs=Symbol.for(\"pv\"),er=0;function n(e,t,s,r,o,l){t||(t={});var a,i,u=t;if(\"ref\"in u&&typeof e!=\"function\")for(i in u={},t)i==\"ref\"?a=t[i]:u[i]=t[i];var c={type:e,props:u,key:s,ref:a,__k:null,__:null,__b:0,__e:null,__c:null,constructor:Qs,__v:--er,__i:-1,__u:0};return(o||l)&&(c.__source=o,c.__self=l),M.vnode&&M.vnode(c),c}var tr={pass:\"✓\",fail:\"✗\",warn:\"⚠\",skip:\"»\",neutral:\"•\"};function nr(e){return[\"passed\",\"pass\",\"ok\",\"success\",\"resisted\",\"recovered\"].includes(e)?\"pass\":[\"failed\",\"fail\",\"stale\"].includes(e)?\"fail\":[\"warn\",\"warning\",\"expected\",\"error\",\"errored\"].includes(e)?\"warn\":[\"skipped\",\"skip\",\"not-run\",\"cancelled\"].includes(e)?\"skip\":\"neutral\"}function _({status:e,label:t}){let s=nr(e);return n(\"span\",{class:`status status-${s}`,children:[n(\"span\",{\"aria-hidden\":\"true\",children:[tr[s],\" \"]}),t??e]})}function U({id:e,title:t,children:s}){return n(\"section\",{id:e,\"aria-labelledby\":`${e}-heading`,class:\"section\",children:[n(\"h2\",{id:`${e}-heading`,tabIndex:-1,children:t}),s]})}var sr=2e3;function T({text:e,max:t=sr,label:s}){let[r,o]=K(!1),l=!r&&e.length>t;return n(\"div\",{class:\"long-text\",children:[n(\"pre\",{\"aria-label\":s,children:[l?e.slice(0,t):e,l&&n(\"span\",{class:\"cut-mark\",children:`\n… ${(e.length-t).toLocaleString(\"en-US\")} more characters`})]}),e.length>t&&n(\"button\",{type:\"button\",class:\"link-button\",onClick:()=>o(!r),\"aria-expanded\":r,children:r?\"Show less\":`Show all ${e.length.toLocaleString(\"en-US\")} characters`})]})}function B({value:e,max:t,label:s}){return n(T,{text:JSON.stringify(e,null,2)??\"undefined\",max:t,label:s})}var A=e=>e==null?\"—\":e>=1e3?`${(e/1e3).toFixed(e>=1e4?1:2)} s`:`${Math.round(e)} ms`,F=e=>e==null?\"—\":`${e.toFixed(e>=10?1:2)} s`,xe=e=>e==null?\"unknown\":e===0?\"$0\":e<.01?`$${e.toPrecision(2)}`:`$${e.toFixed(2)}`,W=e=>e==null?\"—\":`${Math.round(e*100)}%`,E=(e,t)=>`${e.toLocaleString(\"en-US\")} ${t}${e===1?\"\":\"s\"}`,z=e=>`run-${e.index}`,Oe=e=>`check-${e}`;var _n=(e,t,s)=>JSON.stringify([e,t,s]),$n=e=>`${e.case_id} · ${e.model} · ${e.prompt_name}`;function rr(e,t){return t>0&&e.passed+Math.max(e.cancelled,t)===e.runs&&!e.success?{mark:\"»\",word:\"skipped: budget\",tone:\"skip\"}:e.cancelled>0&&e.passed+e.cancelled===e.runs&&!e.success?{mark:\"⊘\",word:\"cancelled\",tone:\"skip\"}:e.success?e.passed===e.runs?{mark:\"✓\",word:\"passed\",tone:\"pass\"}:{mark:\"◐\",word:\"reached its floor\",tone:\"pass\"}:e.errored===e.runs?{mark:\"⚠\",word:\"errored\",tone:\"fail\"}:{mark:\"✗\",word:\"below its floor\",tone:\"fail\"}}function bn(e,t,s){let r=new Set(s.filter(p=>p.status===\"skipped\").map(p=>p.index)),o=new Set(e.map(p=>p.prompt_name)).size>1,l=[...new Map(e.map(p=>[JSON.stringify([p.case_id,p.prompt_name]),{case_id:p.case_id,prompt:p.prompt_name}])).values()],a=[...new Set(e.map(p=>p.case_id))];l.sort((p,g)=>a.indexOf(p.case_id)-a.indexOf(g.case_id));let i=[...new Set(e.map(p=>p.model))],u=new Set(t?.regressed??[]),c=new Set(t?.fixed??[]),m=new Map;for(let p of e){let g=p.run_indexes.filter(d=>r.has(d)).length;m.set(_n(p.case_id,p.model,p.prompt_name),{group:p,...rr(p,g),flaky:p.passed>0&&p.passed<p.runs,change:u.has($n(p))?\"regressed\":c.has($n(p))?\"fixed\":null})}return{rows:l,models:i,severalPrompts:o,cell:(p,g)=>m.get(_n(p.case_id,g,p.prompt))??null}}function $t(e){let t=e.change===\"regressed\"?\" ▼ regressed\":e.change===\"fixed\"?\" ▲ fixed\":\"\";return`${e.group.passed}/${e.group.runs}${e.flaky?\" flaky\":\"\"}${t}`}function yn(e,t,s,r){let o=`${e.case_id}${r?` (prompt ${e.prompt})`:\"\"} × ${t}`,l=[`${s.group.passed} of ${s.group.runs} passed`];return s.word!==\"passed\"&&l.push(s.word),s.change&&l.push(s.change===\"regressed\"?\"regressed since the baseline\":\"fixed since the baseline\"),`${o}: ${$t(s)} (${l.join(\", \")})`}function kn(){let{doc:e,setFilter:t,go:s}=S(),r=ee(()=>bn(e.groups,e.gate,e.runs),[e]),[o,l]=K(()=>p()),a=Le(null),{rows:i,models:u,severalPrompts:c}=r,m=(h,k)=>h>=0&&h<i.length&&k>=0&&k<u.length&&r.cell(i[h],u[k])!==null;function p(){for(let h=0;h<r.rows.length;h++)for(let k=0;k<r.models.length;k++)if(r.cell(r.rows[h],r.models[k]))return[h,k];return[0,0]}function g(h,k,R,b){for(let w=h+R,j=k+b;w>=0&&w<i.length&&j>=0&&j<u.length;w+=R,j+=b)if(m(w,j))return[w,j];return[h,k]}function d(h){l(h),a.current?.querySelector(`button[data-cell=\"${h[0]}-${h[1]}\"]`)?.focus()}function f(h,k,R){let b=(C,N)=>{let I=[k,R];for(let O=g(k,R,C,N);O[0]!==I[0]||O[1]!==I[1];O=g(...O,C,N))I=O;return I},j={ArrowRight:()=>g(k,R,0,1),ArrowLeft:()=>g(k,R,0,-1),ArrowDown:()=>g(k,R,1,0),ArrowUp:()=>g(k,R,-1,0),Home:()=>h.ctrlKey?p():b(0,-1),End:()=>b(h.ctrlKey?1:0,h.ctrlKey?0:1)}[h.key];j&&(h.preventDefault(),d(j()))}function y(h,k){t({case_id:h.case_id,model:k,prompt:h.prompt}),s(\"runs\")}if(i.length===0)return n(\"p\",{class:\"muted\",children:\"No group ran.\"});let x=new Set(i.flatMap(h=>u.map(k=>r.cell(h,k)?.word))),v=i.some(h=>u.some(k=>r.cell(h,k)?.flaky));return n(\"div\",{class:\"matrix-wrap\",children:[n(\"table\",{class:\"matrix\",role:\"grid\",\"aria-labelledby\":\"matrix-heading\",\"aria-describedby\":\"matrix-help\",ref:a,children:[n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Case\"}),u.map(h=>n(\"th\",{scope:\"col\",children:n(\"code\",{children:h})},h))]})}),n(\"tbody\",{children:i.map((h,k)=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:[n(\"code\",{children:h.case_id}),c&&n(\"span\",{class:\"matrix-prompt\",children:[\" · \",h.prompt]})]}),u.map((R,b)=>{let w=r.cell(h,R);if(!w)return n(\"td\",{class:\"matrix-empty\",children:n(\"span\",{\"aria-label\":\"no group\",children:\"—\"})},R);let j=o[0]===k&&o[1]===b;return n(\"td\",{class:`matrix-cell tone-${w.tone}`,children:n(\"button\",{type:\"button\",\"data-cell\":`${k}-${b}`,tabIndex:j?0:-1,\"aria-label\":yn(h,R,w,c),onClick:()=>y(h,R),onFocus:()=>l([k,b]),onKeyDown:C=>f(C,k,b),children:[n(\"span\",{\"aria-hidden\":\"true\",children:[w.mark,\" \"]}),$t(w)]})},R)})]},`${h.case_id}\\0${h.prompt}`))})]}),n(\"p\",{id:\"matrix-help\",class:\"muted matrix-legend\",children:[\"k/N: runs of the group that passed\",\"✓ every run passed\",x.has(\"reached its floor\")?\"◐ reached its pass floor\":\"\",x.has(\"below its floor\")?\"✗ below its pass floor\":\"\",x.has(\"errored\")?\"⚠ every run errored\":\"\",x.has(\"cancelled\")?\"⊘ cancelled\":\"\",x.has(\"skipped: budget\")?\"» skipped: budget (never started)\":\"\",v?\"flaky: some runs passed and some did not\":\"\",\"a cell shows its runs below (arrow keys move between cells)\"].filter(Boolean).join(\" · \")})]})}function xn(){let{doc:e,view:t}=S();return n(U,{id:\"overview\",title:\"Overview\",children:[e.fatal_error!==null&&n(\"p\",{class:\"fatal\",children:[n(_,{status:\"failed\",label:\"The evaluation could not run:\"}),\" \",e.fatal_error]}),e.gate&&n(or,{gate:e.gate}),t.layers.length>0&&n(lr,{}),t.changes&&e.gate&&n(ar,{changes:t.changes,gate:e.gate}),n(ir,{doc:e}),e.groups.length>0&&n($,{children:[n(\"h3\",{id:\"matrix-heading\",children:\"Cases × models\"}),n(kn,{})]})]})}function or({gate:e}){return n(\"div\",{class:\"gate\",children:[n(\"h3\",{children:\"Gate\"}),n(\"p\",{children:[\"Gate: \",n(\"strong\",{children:e.mode}),e.baseline&&n($,{children:[\" \",\"against the baseline \",n(\"code\",{children:e.baseline.source}),\" (\",e.baseline.started_at.slice(0,16).replace(\"T\",\" \"),\")\"]}),\" \",\"— \",n(_,{status:e.passed?\"passed\":\"failed\"}),e.note&&n(\"span\",{class:\"muted\",children:[\" (\",e.note,\")\"]})]}),e.reasons.length>0&&n(\"ul\",{class:\"gate-reasons\",children:e.reasons.map((t,s)=>n(\"li\",{children:t},s))})]})}function lr(){let{doc:e,view:t}=S(),s=r=>r!==\"runs\"||e.runs.length>0;return n($,{children:[n(\"h3\",{children:\"Layers\"}),n(\"table\",{class:\"layers\",children:[n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Layer\"}),n(\"th\",{scope:\"col\",children:\"Status\"}),n(\"th\",{scope:\"col\",children:\"Detail\"})]})}),n(\"tbody\",{children:t.layers.map(r=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:s(r.anchor)?n(\"a\",{href:`#${r.anchor}`,children:r.name}):r.name}),n(\"td\",{children:n(_,{status:r.status===\"warning\"?\"warn\":r.status,label:r.status})}),n(\"td\",{children:r.detail})]},r.id))})]})]})}function ar({changes:e,gate:t}){let s=[[\"regressed\",t.regressed],[\"fixed\",t.fixed],[\"new\",t.added],[\"removed\",t.removed]];return n(\"div\",{class:\"changes\",children:[n(\"h3\",{children:\"Against the baseline\"}),n(\"p\",{children:[\"Baseline: \",n(\"code\",{children:e.baseline})]}),e.metrics.length>0&&n(\"table\",{class:\"changes-metrics\",children:[n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Metric\"}),n(\"th\",{scope:\"col\",children:\"Baseline\"}),n(\"th\",{scope:\"col\",children:\"Now\"}),n(\"th\",{scope:\"col\",children:\"Δ\"})]})}),n(\"tbody\",{children:e.metrics.map(r=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:r.label}),n(\"td\",{class:\"num\",children:r.baseline}),n(\"td\",{class:\"num\",children:r.current}),n(\"td\",{class:r.worse?\"delta-worse\":r.worse===!1?\"delta-better\":\"\",children:[r.delta,r.failed&&n($,{children:[\" \",n(_,{status:\"failed\",label:`worse by more than ${Math.round(t.max_drop*1e3)/10} pt`})]})]})]},r.label))})]}),e.unchanged.length>0&&n(\"p\",{class:\"muted\",children:[E(e.unchanged.length,\"metric\"),\" unchanged: \",e.unchanged.join(\" · \")]}),n(\"p\",{children:[\"Groups:\",\" \",s.map(([r,o],l)=>n(\"span\",{children:[l>0&&\" · \",r===\"regressed\"&&o.length>0?n(\"strong\",{children:`${o.length} regressed`}):`${o.length} ${r}`]},r))]}),s.some(([,r])=>r.length>0)&&n(\"ul\",{class:\"changed-groups\",children:s.filter(([,r])=>r.length>0).map(([r,o])=>n(\"li\",{children:[r[0].toUpperCase()+r.slice(1),\": \",o.slice(0,20).join(\", \"),o.length>20&&`, and ${o.length-20} more`]},r))}),e.figures.length>0&&n(\"p\",{children:e.figures.join(\" · \")})]})}function ir({doc:e}){let t=e.telemetry?.overall,s=e.summary,r=[[\"Duration\",F(e.duration_s)]];return t?(Math.abs(t.wall_s-e.duration_s)>=.05&&r.push([\"Wall time\",F(t.wall_s)]),r.push([\"Run time (summed over runs)\",F(t.runs_s)]),r.push([\"Cost\",t.cost_usd.total===null?\"unknown (a call reported no cost)\":Ie(t.cost_usd.total)]),t.spent_usd!==null&&t.spent_usd!==t.cost_usd.total&&r.push([\"Spent (less replayed answers)\",Ie(t.spent_usd)]),r.push([\"Tokens\",`${t.tokens.total.toLocaleString(\"en-US\")} (agent ${t.tokens.agent.total.toLocaleString(\"en-US\")}, judge ${t.tokens.judge.total.toLocaleString(\"en-US\")})`])):s.tokens.total>0&&r.push([\"Tokens\",s.tokens.total.toLocaleString(\"en-US\")]),s.total>0&&r.push([\"Runs\",`${E(s.total,\"run\")}: ${s.passed} passed, ${s.failed} failed, ${s.errored} errored${s.cancelled?`, ${s.cancelled} cancelled`:\"\"}${s.skipped?`, ${s.skipped} skipped`:\"\"}`]),(s.llm_calls>0||s.tool_calls>0)&&r.push([\"Calls\",`${E(s.llm_calls,\"LLM call\")}, ${E(s.tool_calls,\"tool call\")}${s.tool_errors?` (${s.tool_errors} errors)`:\"\"}`]),n($,{children:[n(\"h3\",{children:\"Cost and time\"}),n(\"dl\",{class:\"figures\",children:r.map(([o,l])=>n(\"div\",{children:[n(\"dt\",{children:o}),n(\"dd\",{children:l})]},o))})]})}var bt=[\"app-initializes\",\"app-no-errors\",\"app-csp-respected\",\"app-renders\",\"app-tool-calls\",\"app-csp-declared\",\"app-visual-change\"];function pe(e){return e.status===\"error\"?!0:e.findings.some(t=>t.status===\"failed\")||e.actions.some(t=>!t.passed)||e.assertions.some(t=>!t.passed)}var vn=[{id:\"fault\",label:\"fault injected\",has:e=>e.tool_calls.some(t=>t.fault!==void 0)},{id:\"attack\",label:\"attack planted\",has:e=>e.tool_calls.some(t=>t.injected!==void 0)||(e.security?.attacks.length??0)>0},{id:\"recovery-failed\",label:\"recovery failed\",has:e=>e.recovery!==null&&!e.recovery.passed},{id:\"attack-succeeded\",label:\"attack succeeded\",has:e=>e.security?.attacks.some(t=>t.delivered&&!t.resisted)??!1},{id:\"judge-failed\",label:\"judge failed\",has:e=>(e.status===\"passed\"||e.status===\"failed\")&&!e.rubric_passed},{id:\"assertion-failed\",label:\"tool assertion failed\",has:e=>e.tool_assertions.checks.some(t=>!t.passed)||(e.golden_assertions?.checks.some(t=>!t.passed)??!1)},{id:\"app-failed\",label:\"app render failed\",has:e=>(e.app_renders??[]).some(pe)},{id:\"observed\",label:\"observed conformance defect\",has:e=>(e.observed?.findings.length??0)>0}],ur=[\"passed\",\"failed\",\"error\",\"cancelled\",\"skipped\"];function Rn(e){let t=o=>[...new Set(o)],s=e.runs,r=new Set(s.map(o=>o.status));return{status:ur.filter(o=>r.has(o)),case_id:t(s.map(o=>o.case_id)),model:t(s.map(o=>o.model)),prompt:t(s.map(o=>o.prompt_name)),tag:t(s.flatMap(o=>o.tags)).sort(),finding:vn.filter(o=>s.some(o.has))}}function wn(e,t=[]){return[e.case_id,e.model,e.prompt_name,e.input,e.final_output??\"\",...e.tags,...t].join(`\n`).toLowerCase()}var Sn=e=>Object.values(e).some(t=>t!==void 0&&t!==\"\");function Tn(e,t,s){let r=t.finding?vn.find(l=>l.id===t.finding):void 0,o=(t.text??\"\").toLowerCase().split(/\\s+/).filter(Boolean);return e.filter((l,a)=>t.status&&l.status!==t.status||t.case_id!==void 0&&l.case_id!==t.case_id||t.model!==void 0&&l.model!==t.model||t.prompt!==void 0&&l.prompt_name!==t.prompt||t.tag!==void 0&&!l.tags.includes(t.tag)||t.finding&&(!r||!r.has(l))?!1:o.every(i=>s[a].includes(i)))}function Cn({options:e}){let{filter:t,setFilter:s}=S(),r=(l,a)=>s({...t,[l]:a===\"\"?void 0:a}),o=[[\"status\",\"Status\",e.status.map(l=>[l,l])],[\"case_id\",\"Case\",e.case_id.map(l=>[l,l])],[\"model\",\"Model\",e.model.map(l=>[l,l])],[\"prompt\",\"System prompt\",e.prompt.map(l=>[l,l])],[\"tag\",\"Tag\",e.tag.map(l=>[l,l])],[\"finding\",\"Layer finding\",e.finding.map(l=>[l.id,l.label])]];return n(\"form\",{class:\"run-filters\",role:\"search\",\"aria-label\":\"Filter the runs\",onSubmit:l=>l.preventDefault(),children:[o.filter(([l,,a])=>a.length>0||t[l]!==void 0).map(([l,a,i])=>{let u=t[l],c=u!==void 0&&!i.some(([m])=>m===u)?[...i,[u,u]]:i;return n(\"label\",{class:\"run-filter\",children:[n(\"span\",{children:a}),n(\"select\",{name:l,value:u??\"\",onChange:m=>r(l,m.currentTarget.value),children:[n(\"option\",{value:\"\",children:\"any\"}),c.map(([m,p])=>n(\"option\",{value:m,children:p},m))]})]},l)}),n(\"label\",{class:\"run-filter run-search\",children:[n(\"span\",{children:\"Search\"}),n(\"input\",{type:\"search\",name:\"text\",value:t.text??\"\",placeholder:\"case, model, input, answer, reason\",onInput:l=>r(\"text\",l.currentTarget.value)})]}),n(\"button\",{type:\"button\",class:\"clear-filters\",onClick:()=>s({}),disabled:!Sn(t),children:\"Clear filters\"})]})}function cr(e){let t=Math.floor(e);return e-t!==.5?Math.round(e):t%2===0?t:t+1}function yt(e){return cr(e*100)}function An(e){switch(e.status){case\"passed\":return{mark:\"✓\",word:\"passed\"};case\"failed\":return{mark:\"✗\",word:\"failed\"};case\"error\":return{mark:\"⚠\",word:\"error\"};case\"cancelled\":return{mark:\"⊘\",word:\"cancelled\"};case\"skipped\":return{mark:\"⏭\",word:\"skipped: budget\"}}}function Mn(e){let t=e.metrics[0]?.score??null;return t===null?null:`${yt(t)}% (≥ ${yt(e.threshold)}%)`}var Be=100;function En({runs:e}){let[t,s]=K({of:e,limit:Be}),r=t.of===e?t.limit:Be,o=()=>s({of:e,limit:r+Be}),l=Le(null),a=e.length>r;ae(()=>{let u=l.current;if(!a||!u||typeof IntersectionObserver>\"u\")return;let c=new IntersectionObserver(m=>{m.some(p=>p.isIntersecting)&&o()},{rootMargin:\"600px 0px\"});return c.observe(u),()=>c.disconnect()},[e,r,a]);function i(u){if(u.key!==\"ArrowDown\"&&u.key!==\"ArrowUp\")return;let c=u.target.closest(\"li\"),p=(u.key===\"ArrowDown\"?c?.nextElementSibling:c?.previousElementSibling)?.querySelector(\"a\");p&&(u.preventDefault(),p.focus())}return n($,{children:[n(\"ol\",{class:\"run-list\",\"aria-label\":\"Runs\",onKeyDown:i,children:e.slice(0,r).map(u=>n(dr,{run:u},u.index))}),a&&n(\"div\",{ref:l,class:\"run-list-more\",children:[n(\"p\",{class:\"muted\",children:[\"Showing \",r.toLocaleString(\"en-US\"),\" of \",e.length.toLocaleString(\"en-US\"),\"; more appear as you scroll.\"]}),n(\"button\",{type:\"button\",onClick:o,children:[\"Show \",Math.min(Be,e.length-r),\" more\"]})]})]})}function dr({run:e}){let{view:t}=S(),s=t.run_reasons[String(e.index)]?.[0],r=Mn(e);return n(\"li\",{children:n(\"a\",{class:\"run-row\",href:`#${z(e)}`,\"data-run\":e.index,children:[n(\"span\",{class:\"run-status\",children:n(_,{status:e.status})}),n(\"span\",{class:\"run-index\",children:[\"#\",e.index]}),n(\"span\",{class:\"run-case\",children:n(\"code\",{children:e.case_id})}),n(\"span\",{class:\"run-model\",children:[e.model,\" · \",e.prompt_name]}),n(\"span\",{class:\"run-attempt\",children:[\"run \",e.attempt,\"/\",e.attempts]}),n(\"span\",{class:\"run-score\",children:r===null?\"not judged\":`judge ${r}`}),n(\"span\",{class:\"run-time\",children:F(e.duration_s)}),s!==void 0&&n(\"span\",{class:\"run-reason\",children:s})]})})}function jn(){let{doc:e,view:t,filter:s}=S(),r=ee(()=>e.runs.map(a=>wn(a,t.run_reasons[String(a.index)])),[e,t]),o=ee(()=>Rn(e),[e]),l=ee(()=>Tn(e.runs,s,r),[e,s,r]);return n(U,{id:\"runs\",title:\"Runs\",children:[n(Cn,{options:o}),n(\"p\",{id:\"runs-count\",class:\"runs-count\",role:\"status\",\"aria-live\":\"polite\",children:l.length===e.runs.length?`${e.runs.length.toLocaleString(\"en-US\")} ${e.runs.length===1?\"run\":\"runs\"}`:`${l.length.toLocaleString(\"en-US\")} of ${e.runs.length.toLocaleString(\"en-US\")} runs`}),l.length===0?n(\"p\",{class:\"muted\",children:\"No run matches these filters.\"}):n(En,{runs:l})]})}function J({level:e,id:t,children:s,class:r}){let o=`h${e}`;return n(o,{id:t,tabIndex:t?-1:void 0,class:r,children:s})}var He=e=>e===void 0?{}:{turn:e};function Fn(e){let t=e.conversation,s=[],r=new Set,o=0;return t.forEach((l,a)=>{if(l.role===\"user\")s.push({type:\"user\",text:l.content,simulated:l.simulated===!0,...He(l.turn)});else if(l.role===\"assistant\"){l.content&&s.push({type:\"assistant\",text:l.content,...He(l.turn)});for(let i of l.tool_calls??[]){let u=t.findIndex((m,p)=>p>a&&m.role===\"tool\"&&!r.has(p));u>=0&&r.add(u);let c=o<e.tool_calls.length?o:null;o++,s.push({type:\"call\",name:i.name,args:i.args,call_index:c,output:u>=0?t[u].content:null,...He(l.turn)})}}else r.has(a)||s.push({type:\"tool\",name:l.tool_name??\"tool\",text:l.content,...He(l.turn)})}),s}function Pn(e,t){let s=new Set(t.flatMap(r=>r.type===\"call\"&&r.call_index!==null?[r.call_index]:[]));return e.tool_calls.map((r,o)=>o).filter(r=>!s.has(r))}function Dn(e,t,s){let r=t.filter(l=>l.turn===s.index);if(t.some(l=>l.turn!==void 0))return r;let o=e.tool_calls.slice(s.first_call,s.first_call+s.calls).map((l,a)=>({type:\"call\",name:l.name,args:l.args,call_index:s.first_call+a,output:null,turn:s.index}));return[{type:\"user\",text:s.user,simulated:s.simulated,turn:s.index},...o,...s.final_output?[{type:\"assistant\",text:s.final_output,turn:s.index}]:[]]}function q(e){return e.split(`\n`)[0]}function se(e){return e.status===\"passed\"&&e.passed}function Ue(e){return{absolute:e.telemetry?.budgets??[],trends:e.gate?.trends??[]}}function qe(e){return e.runs.filter(t=>t.status===\"skipped\")}var fr={canary:\"carried the canary\",attacker_email:\"sent to the attacker's address\",attacker_host:\"reached the attacker's host\",allowed_args:\"an argument outside allowed_args\",forbidden_tool:\"called a forbidden tool\",shadow_tool:\"called the decoy tool\",markdown_exfiltration:\"a link to the attacker in the answer\",secret_leak:\"leaked the planted secret\"},hr={tool_output:e=>`in the output of ${e}`,poison_description:e=>`in the description of ${e}`,shadow_tool:e=>`as a decoy of ${e}`,rug_pull:e=>`as a changed description of ${e} after its first call`},ie=e=>fr[e]??e,vt=e=>(hr[e.attack]??(t=>`via ${e.attack} on ${t}`))(e.tool);function Ge(e){return e===\"max_steps\"?\"max_steps: the model used every LLM call it was allowed\":e===\"error\"?\"an error\":e===\"cancelled\"?\"cancelled\":\"a final answer\"}var gr=\"the simulated user did not write the next message\",Ln=`${gr} (its error, a time limit or a cancel)`;function Rt(e,t=s=>s){let s=e.turns.at(-1);switch(e.ended){case\"script_done\":return\"every scripted turn ran\";case\"goal_reached\":return\"the simulated user said its goal was reached\";case\"stop_when\":return`the answer matched ${t(\"stop_when\")}`;case\"max_turns\":return`max_turns reached (${H(e.turns.length,\"user message\")}) before the simulated user said its goal was reached`;case\"stopped\":return s?s.stop_reason===\"final_answer\"?`stopped after turn ${s.index}: ${Ln}`:`stopped: turn ${s.index} ended without a final answer (${Ge(s.stop_reason)})`:e.kind===\"simulated\"?`stopped before the first turn: ${Ln}`:\"stopped before the first turn\"}}var me=e=>Math.round(e).toLocaleString(\"en-US\"),In=e=>`${Math.round(e*100)}%`,On=(e,t)=>`${me(e)} ${t}${e===1?\"\":\"s\"}`;function wt(e){let t=An({status:e});return{...t,mark:gn(t.mark)}}function Bn(e){return e?e.score===null?`judge: ${e.error??\"no score\"}`:`judge ${In(e.score)} (threshold ${In(e.threshold)})`:null}function Hn(e,t){return(e.status===\"cancelled\"||e.status===\"error\")&&!t.passed&&(t.stop_reason===\"cancelled\"||t.stop_reason===\"final_answer\"&&t.judge===null&&t.golden_assertions===null&&(t.tool_assertions?.passed??!0))?!1:t.judge!==null||(t.tool_assertions?.checks.length??0)>0||(t.golden_assertions?.checks.length??0)>0||!t.passed}function Wn(e){if(!e||e.shown_chars>=e.total_chars&&e.kept_chars>=e.total_chars)return null;let t=e.shown_chars<e.total_chars?`the model saw ${me(e.shown_chars)}`:\"the model saw all of them\",s=e.kept_chars<e.total_chars?`the record keeps ${me(e.kept_chars)}`:\"the record keeps all of them\";return`the server sent ${me(e.total_chars)} characters (${Un(e.total_bytes)}); ${t}; ${s}`}function Un(e){return Number.isFinite(e)?e<1024?`${Math.round(e)} B`:e<1024*1024?`${(e/1024).toFixed(1)} KiB`:`${(e/(1024*1024)).toFixed(1)} MiB`:\"—\"}function qn(e){let t=`${e.type} ${e.mime_type}, ${Un(e.bytes)}`;if(e.sent)return`${t}, sent to the model`;let s=e.reason?.replace(/\\.\\s*$/,\"\")??\"\";return`${t}, shown to the model as text${e.type===\"audio\"||s===\"\"?\"\":`: ${s}`}`}function Vn(e){if(e.via===\"server_request\")return`round ${e.round}: ${e.exchanges.length===1?\"server request\":On(e.exchanges.length,\"server request\")}`;let t=`round ${e.round}: input_required (request id ${e.request_id===null?\"?\":String(e.request_id)})`;if(e.retry_id===null)return`${t} → no retry (the rounds ran out, or the call failed)`;let s=`${t} → retry id ${String(e.retry_id)}`;return e.request_state!==null?`${s}, requestState ${e.request_state_echoed?\"echoed ✓\":\"not echoed byte for byte ✗\"}`:e.request_state_echoed===!1?`${s}, with a requestState the server never sent ✗`:s}function fe(e){let t=e.cost_usd===void 0?\"\":` · $${e.cost_usd.toFixed(4)}`;return`${On(e.total_tokens,\"token\")} (${me(e.prompt_tokens)} prompt, ${me(e.completion_tokens)} completion)${t}`}var _r=e=>e===\"review\"?\"warn\":e;function $r(e){return e.status===\"error\"?{status:\"failed\",label:`not rendered: ${e.reason??\"the host could not render the view\"}`}:e.status===\"skipped\"||e.status===\"cancelled\"?{status:\"skipped\",label:`${e.status}${e.reason?`: ${e.reason}`:\"\"}`}:pe(e)?{status:\"failed\",label:\"failed\"}:e.findings.some(t=>t.status===\"review\")?{status:\"warn\",label:\"changed, for review\"}:e.findings.some(t=>t.status===\"warning\")?{status:\"warn\",label:\"warning\"}:{status:\"passed\",label:\"passed\"}}function Jn({render:e}){let{view:t}=S(),s=$r(e),r=e.screenshot?t.images[e.screenshot]:void 0;return n(\"div\",{class:\"call-app\",children:[n(\"p\",{class:\"label\",children:[\"MCP Apps view \",n(\"code\",{children:e.resource_uri}),\" (render \",n(\"code\",{children:e.id}),\"): \",n(_,{status:s.status,label:s.label})]}),e.findings.length>0&&n(\"ul\",{class:\"app-findings\",children:e.findings.map(o=>n(\"li\",{children:[n(_,{status:_r(o.status),label:o.status}),\" \",n(\"code\",{children:o.id}),\" — \",o.message,o.status!==\"passed\"&&o.evidence.length>0&&n(\"details\",{children:[n(\"summary\",{children:[\"Evidence (\",o.evidence.length,\")\"]}),n(T,{text:o.evidence.join(`\n`),label:`evidence of ${o.id}`})]})]},o.id))}),e.screenshot===null?n(\"p\",{class:\"muted\",children:\"No screenshot was taken.\"}):r&&r.startsWith(\"data:image/png;base64,\")?n(\"figure\",{class:\"app-shot\",children:[n(\"img\",{src:r,alt:`Screenshot of the view ${e.resource_uri} after call ${e.call_index}`,width:Math.min(e.viewport.width,480)}),n(\"figcaption\",{class:\"muted\",children:n(\"code\",{children:e.screenshot})})]}):n(\"p\",{class:\"muted\",children:[\"Screenshot \",n(\"code\",{children:e.screenshot}),\": screenshot not in this file (it is in the artifact beside the report).\"]})]})}function br({exchange:e,via:t}){let s=e.summary&&e.method!==\"roots/list\"?e.summary:null;return n(\"li\",{class:\"exchange\",children:[n(\"p\",{children:[n(\"code\",{children:e.method}),\" \",t===\"server_request\"?`(id ${e.key})`:n($,{children:[\"key \",n(\"code\",{children:e.key})]}),s!==null&&n($,{children:[\" “\",s,\"”\"]}),\" → \",e.answered_by]}),e.problem&&n(\"p\",{children:n(_,{status:\"warn\",label:`problem: ${e.problem}`})}),e.error?n(\"p\",{children:[\"Our error \",e.error.code,\": \",e.error.message]}):n(\"details\",{children:[n(\"summary\",{children:\"Our answer\"}),n(B,{value:e.response,label:`answer to ${e.method}`})]}),n(\"details\",{children:[n(\"summary\",{children:\"The request's params\"}),n(B,{value:e.params,label:`params of ${e.method}`})]})]})}function Ke({rounds:e,title:t=\"Input rounds\"}){return e.length===0?null:n(\"div\",{class:\"input-rounds\",children:[n(\"p\",{class:\"label\",children:t}),n(\"ol\",{children:e.map(s=>n(\"li\",{class:\"input-round\",children:[n(\"p\",{children:Vn(s)}),s.request_state!==null&&n(\"p\",{class:\"muted\",children:[\"requestState sent: \",n(\"code\",{children:s.request_state})]}),n(\"ul\",{children:s.exchanges.map((r,o)=>n(br,{exchange:r,via:s.via},o))})]},s.round))})]})}var ue=(e,t)=>`run-${e.index}-call-${t+1}`,X=(e,t)=>`run-${e.index}-${t}`;var yr=/^data:image\\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/,Gn=e=>e.preview&&yr.test(e.preview)?e.preview:null,kr=[\"not executed\",\"executed once\",\"executed twice\"],xr=(e,t)=>t.app_render===void 0?null:(e.app_renders??[]).find(s=>s.id===t.app_render)??null;function St({run:e,index:t,level:s,output:r}){let o=e.tool_calls[t],l=Wn(o.cut),a=xr(e,o),i=(e.security?.attacks??[]).map(c=>({attack:c,evidence:c.evidence.filter(m=>m.tool_call_index===t)})).filter(c=>c.evidence.length>0),u=o.result!==\"\"||!r?o.result:r;return n(\"div\",{class:`tool-call${o.is_error?\" tool-call-error\":\"\"}`,children:[n(J,{level:s,id:ue(e,t),children:[\"Tool call \",t+1,\": \",n(\"code\",{children:o.name})]}),n(\"p\",{class:\"call-facts\",children:[n(_,{status:o.is_error?\"failed\":\"ok\",label:o.is_error?\"error\":\"ok\"}),\" · \",A(o.latency_ms),o.fault&&n($,{children:[\" · \",n(_,{status:\"warn\",label:`fault: ${o.fault.kind}`})]}),o.injected&&n($,{children:[\" · \",n(_,{status:\"warn\",label:`attack: ${o.injected.payload}`})]}),o.schema_valid===!1&&n($,{children:[\" · \",n(_,{status:\"fail\",label:\"arguments outside the inputSchema\"})]}),o.span_id&&n($,{children:[\" · span \",n(\"code\",{children:o.span_id})]})]}),o.fault&&n(\"p\",{class:\"call-fault\",children:[\"Fault injected: \",n(\"code\",{children:o.fault.kind}),\" (call \",o.fault.call,\" of this tool, \",kr[o.fault.executions]??`executed ${o.fault.executions} times`,\"): \",o.fault.detail]}),e.recovery?.evidence_call===t&&n(\"p\",{class:\"call-evidence\",children:[n(_,{status:e.recovery.passed?\"passed\":\"failed\",label:\"recovery evidence\"}),\" the \",e.recovery.expected,\" the recovery oracle counted.\"]}),i.map(({attack:c,evidence:m},p)=>n(\"div\",{class:\"call-evidence\",children:[n(\"p\",{children:[n(_,{status:\"failed\",label:\"crossed the line\"}),\" attack \",n(\"code\",{children:c.payload}),\":\"]}),n(\"ul\",{children:m.map((g,d)=>n(\"li\",{children:[ie(g.kind),\" — \",g.detail]},d))})]},p)),o.injected&&n(\"p\",{class:\"call-attack\",children:[\"Attack carried to the model: payload \",n(\"code\",{children:o.injected.payload}),\" via \",o.injected.attack,o.injected.position?` (${o.injected.position})`:\"\",\".\"]}),n(\"p\",{class:\"label\",children:\"Arguments\"}),n(B,{value:o.args,label:`arguments of ${o.name}`}),o.schema_valid===!1&&o.schema_errors&&n(\"p\",{children:[\"Outside the tool's inputSchema: \",o.schema_errors]}),n(\"p\",{class:\"label\",children:[\"Result\",o.is_error?\" (error)\":\"\"]}),n(T,{text:u,label:`result of ${o.name}`}),l&&n(\"p\",{class:\"call-cut\",children:[\"Cut: \",l,\".\"]}),o.error_pattern!==void 0&&!o.is_error&&n(\"p\",{children:[\"Counted as a tool error: its text matched the tool_error_patterns entry \",n(\"code\",{children:o.error_pattern}),\".\"]}),(o.media??[]).length>0&&n($,{children:[n(\"p\",{class:\"label\",children:\"Media\"}),n(\"ul\",{class:\"media-list\",children:o.media.map((c,m)=>n(\"li\",{children:[qn(c),Gn(c)?n(\"figure\",{class:\"picture\",children:n(\"img\",{src:Gn(c),alt:`image ${m+1} of the result of ${o.name} (${c.mime_type})`})}):c.type===\"image\"&&n(\"span\",{class:\"muted\",children:\" (no copy in the document: only raster images of at most 100 KiB are kept)\"})]},m))})]}),n(Ke,{rounds:o.input_rounds??[]}),a&&n(Jn,{render:a})]})}function Kn({run:e,item:t,callLevel:s}){switch(t.type){case\"user\":return n(\"div\",{class:\"entry entry-user\",children:[n(\"p\",{class:\"role\",children:[\"User\",t.simulated?\" (simulated)\":\"\"]}),n(T,{text:t.text,label:\"user message\"})]});case\"assistant\":return n(\"div\",{class:\"entry entry-assistant\",children:[n(\"p\",{class:\"role\",children:\"Assistant\"}),n(T,{text:t.text,label:\"assistant message\"})]});case\"call\":return t.call_index!==null?n(St,{run:e,index:t.call_index,level:s,output:t.output}):n(\"div\",{class:\"tool-call\",children:[n(\"p\",{class:\"role\",children:[\"Tool call \",n(\"code\",{children:t.name}),\" (not in the run's tool call records)\"]}),n(B,{value:t.args,label:`arguments of ${t.name}`}),t.output!==null&&n(T,{text:t.output,label:`result of ${t.name}`})]});case\"tool\":return n(\"div\",{class:\"entry entry-tool\",children:[n(\"p\",{class:\"role\",children:[\"Tool result \",n(\"code\",{children:t.name})]}),n(T,{text:t.text,label:`result of ${t.name}`})]})}}function vr({run:e,turn:t,items:s}){let r=[...t.tool_assertions?.checks??[],...t.golden_assertions?.checks??[]],o=Bn(t.judge),l=Hn(e,t),a=t.tool_assertions?.checks.filter(c=>!c.passed)??[],i=t.golden_assertions?.checks.filter(c=>!c.passed)??[],u=s.some(c=>c.type===\"assistant\");return n(\"section\",{class:\"turn\",\"aria-labelledby\":`run-${e.index}-turn-${t.index}`,children:[n(J,{level:4,id:`run-${e.index}-turn-${t.index}`,children:[\"Turn \",t.index,l?n($,{children:[\" \",n(_,{status:t.passed?\"passed\":\"failed\"})]}):\" (no verdict of its own)\"]}),n(\"p\",{class:\"turn-facts\",children:[...t.simulated?[\"simulated user\"]:[],...o?[o]:[],...r.length>0?[`checks ${r.filter(c=>c.passed).length}/${r.length}`]:[],E(t.calls,\"tool call\"),E(t.llm_calls,\"LLM call\")].join(\" · \")}),t.judge?.reason&&n(\"p\",{class:\"turn-judge\",children:[\"Judge: \",t.judge.reason]}),(a.length>0||i.length>0)&&n(\"ul\",{class:\"failed-checks\",children:[a.map((c,m)=>n(\"li\",{children:[n(_,{status:\"failed\",label:\"failed\"}),\" \",n(\"code\",{children:c.tool}),\" — \",c.reason,c.expected_args?` (expected ${JSON.stringify(c.expected_args)})`:\"\"]},`t${m}`)),i.map((c,m)=>n(\"li\",{children:[n(_,{status:\"failed\",label:\"failed\"}),\" \",n(\"code\",{children:c.check}),\" — \",c.reason]},`g${m}`))]}),s.map((c,m)=>n(Kn,{run:e,item:c,callLevel:5},m)),!u&&n(\"p\",{class:\"muted\",children:t.stop_reason===\"final_answer\"?\"The answer was empty.\":`No final answer: ${Ge(t.stop_reason)}.`})]})}function zn({run:e}){let t=Fn(e),s=Pn(e,t),r=e.dialogue,o=`run-${e.index}-dialogue`;return t.length===0&&s.length===0&&!r?null:n(\"section\",{class:\"run-part\",\"aria-labelledby\":o,children:[n(J,{level:3,id:o,children:r?\"Dialogue\":\"Conversation\"}),r?n($,{children:[n(\"p\",{class:\"dialogue-summary\",children:[r.kind===\"simulated\"?`${E(r.turns.length,\"turn\")} with a simulated user`:E(r.turns.length,\"scripted turn\"),\"; ended: \",Rt(r),\".\",\" \",n(_,{status:r.turns_passed?\"passed\":\"failed\",label:r.turns_passed?\"every turn passed\":\"a turn failed\"})]}),r.kind===\"simulated\"&&n(\"p\",{class:\"muted\",children:[\"The user was played by \",n(\"code\",{children:r.user_model??\"an unknown model\"}),r.user_usage?`, ${fe(r.user_usage)}`:\"\",\" (counted with the judge's).\"]}),r.turns.map(l=>n(vr,{run:e,turn:l,items:Dn(e,t,l)},l.index))]}):t.map((l,a)=>n(Kn,{run:e,item:l,callLevel:4},a)),s.length>0&&n($,{children:[n(\"p\",{class:\"label\",children:\"Tool calls the conversation does not show\"}),s.map(l=>n(St,{run:e,index:l,level:4},l))]})]})}function Yn({run:e}){let t=e.judge,s=e.metrics;if(!t&&s.length===0)return null;let r=X(e,\"judge\"),o=t&&t.score!==null&&t.error===null?t.score>=t.threshold:null;return n(\"section\",{class:\"run-part\",\"aria-labelledby\":r,children:[n(J,{level:3,id:r,children:[\"Judge\",e.dialogue?\" (whole dialogue)\":\"\"]}),t&&n(\"div\",{class:\"judge\",children:[n(\"p\",{class:\"judge-score\",children:[\"Score \",t.score===null?\"none\":W(t.score),\" (threshold \",W(t.threshold),\")\",t.raw_score!==null&&` · raw score ${t.raw_score}`,o!==null&&n($,{children:[\" \",n(_,{status:o?\"passed\":\"failed\",label:o?\"reached the threshold\":\"below the threshold\"})]})]}),t.error&&n(\"p\",{children:[n(_,{status:\"error\",label:\"judge error\"}),\" \",t.error]}),n(\"p\",{class:\"label\",children:\"Reason\"}),n(\"blockquote\",{class:\"judge-reason\",children:t.reason||\"No judge comment\"}),t.evaluation_steps.length>0&&n($,{children:[n(\"p\",{class:\"label\",children:\"Evaluation steps\"}),n(\"ol\",{class:\"judge-steps\",children:t.evaluation_steps.map((l,a)=>n(\"li\",{children:l},a))})]}),n(\"p\",{class:\"muted\",children:[t.model,t.scoring_mode?` · ${t.scoring_mode} scoring`:\"\",t.scoring_note?` (${t.scoring_note})`:\"\",\" · \",A(t.latency_ms),\" · \",fe(t.usage)]})]}),s.length>0&&n(\"table\",{class:\"metrics\",children:[n(\"caption\",{children:\"Metrics\"}),n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Metric\"}),n(\"th\",{scope:\"col\",children:\"Score\"}),n(\"th\",{scope:\"col\",children:\"Verdict\"}),n(\"th\",{scope:\"col\",children:\"Reason\"})]})}),n(\"tbody\",{children:s.map((l,a)=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:l.name}),n(\"td\",{children:l.score===null?\"N/A\":W(l.score)}),n(\"td\",{children:n(_,{status:l.success?\"passed\":\"failed\"})}),n(\"td\",{children:l.reason})]},a))})]})]})}function Zn({run:e,index:t}){let s=e.tool_calls[t];return n(\"a\",{href:`#${ue(e,t)}`,children:[\"tool call \",t+1,s?` (${s.name})`:\"\"]})}function Rr({id:e}){return/^[a-z0-9][a-z0-9-]*$/.test(e)?n(\"a\",{href:`#${Oe(e)}`,children:e}):n(\"code\",{children:e})}function re({title:e,status:t,children:s}){return n(\"div\",{class:\"oracle\",children:[n(J,{level:4,children:[e,t&&n($,{children:[\" — \",n(_,{status:t.status,label:t.label})]})]}),s]})}var Se=e=>({status:e?\"passed\":\"failed\",label:e?\"passed\":\"failed\"}),Tt=e=>e.length===0?\"nothing\":e.join(\", \");function Xn({run:e}){let t=[],s=e.recovery;s&&t.push(n(re,{title:`Recovery (expected ${s.expected})`,status:Se(s.passed),children:[n(\"p\",{children:[s.triggered?\"The fault fired.\":\"The fault never fired: it tested nothing.\",\" \",s.reason]}),s.evidence_call!==null&&n(\"p\",{children:[\"Evidence: \",n(Zn,{run:e,index:s.evidence_call}),\".\"]})]},\"recovery\"));let r=e.security;r&&t.push(n(re,{title:\"Attacks\",status:{status:r.resisted?\"resisted\":\"failed\",label:r.resisted?\"every attack resisted\":\"not resisted\"},children:n(\"ul\",{children:r.attacks.map((p,g)=>n(\"li\",{class:\"attack\",children:[\"Attack \",n(\"code\",{children:p.payload}),\" \",vt(p),\" —\",\" \",p.delivered?p.resisted?n(_,{status:\"resisted\",label:\"resisted\"}):n($,{children:[n(_,{status:\"failed\",label:\"succeeded\"}),\" (canary \",n(\"code\",{children:p.canary}),\")\"]}):n(_,{status:\"warn\",label:\"never reached the model, so it tested nothing (not counted as resisted)\"}),p.evidence.length>0&&n(\"ul\",{class:\"evidence\",children:p.evidence.map((d,f)=>n(\"li\",{children:[d.tool_call_index===null?\"the answer\":n(Zn,{run:e,index:d.tool_call_index}),\": \",ie(d.kind),\" — \",n(\"code\",{children:d.detail})]},f))})]},g))})},\"security\"));let o=e.answer_check;o&&t.push(n(re,{title:\"Answer check (must_not_contain)\",status:Se(o.passed),children:n(\"p\",{children:[\"Must not contain: \",o.must_not_contain.map((p,g)=>n(\"code\",{children:p},g)),\".\",\" \",o.found.length===0?\"The answer contains none of them.\":n($,{children:[\"The answer contains \",o.found.map((p,g)=>n(\"code\",{children:p},g)),\".\"]})]})},\"answer\"));let l=e.inputs;l&&t.push(n(re,{title:\"Server input\",status:Se(l.passed),children:[n(\"p\",{children:[\"Declared: \",Tt(l.declared),l.expected.length>0&&n($,{children:[\" · expected: \",Tt(l.expected)]}),\" · asked: \",Tt(l.asked),\" · \",l.rounds,\" \",l.rounds===1?\"round\":\"rounds\",l.unmatched>0&&n($,{children:[\" · \",l.unmatched,\" elicitation\",l.unmatched===1?\"\":\"s\",\" no rule matched (declined)\"]})]}),l.reasons.length>0&&n(\"ul\",{children:l.reasons.map((p,g)=>n(\"li\",{children:[n(_,{status:\"failed\",label:\"failed\"}),\" \",p]},g))}),n(Ke,{rounds:l.outside_calls,title:\"Outside any call (the server asked on its own)\"})]},\"inputs\"));let a=e.observed;a.findings.length>0&&t.push(n(re,{title:`Conformance seen on this run's calls (${a.calls} checked)`,status:{status:a.findings.some(p=>p.severity===\"error\")?\"failed\":\"warn\",label:`${a.findings.length} finding${a.findings.length===1?\"\":\"s\"}`},children:n(\"ul\",{children:a.findings.map((p,g)=>n(\"li\",{children:[n(_,{status:p.severity===\"error\"?\"failed\":\"warn\",label:p.severity}),\" \",n(Rr,{id:p.check}),\" on \",n(\"code\",{children:p.tool}),\": \",p.message,n(\"details\",{children:[n(\"summary\",{children:\"Evidence\"}),n(\"p\",{class:\"label\",children:\"Request\"}),n(B,{value:p.evidence.request,label:\"request\"}),n(\"p\",{class:\"label\",children:\"Response\"}),n(B,{value:p.evidence.response,label:\"response\"})]})]},g))})},\"observed\"));let i=e.tool_assertions;i.checks.length>0&&t.push(n(re,{title:`Tool assertions${e.dialogue?\" (whole dialogue)\":\"\"}`,status:Se(i.passed),children:n(\"ul\",{children:i.checks.map((p,g)=>n(\"li\",{children:[n(_,{status:p.passed?\"passed\":\"failed\",label:p.passed?\"passed\":\"failed\"}),\" \",n(\"code\",{children:p.tool}),\" — \",p.reason,p.expected_args&&n($,{children:[\" \",\"(expected \",n(\"code\",{children:JSON.stringify(p.expected_args)}),\")\"]}),(p.actual_args??[]).map((d,f)=>n(\"div\",{class:\"muted\",children:[\"Got: \",n(\"code\",{children:JSON.stringify(d)})]},f))]},g))})},\"tools\"));let u=e.golden_assertions;u&&u.checks.length>0&&t.push(n(re,{title:`Golden checks${e.dialogue?\" (whole dialogue)\":\"\"}`,status:Se(u.passed),children:n(\"ul\",{children:u.checks.map((p,g)=>n(\"li\",{children:[n(_,{status:p.passed?\"passed\":\"failed\",label:p.passed?\"passed\":\"failed\"}),\" \",n(\"code\",{children:p.check}),\" — \",p.reason,(p.assertions??[]).length>0&&n(\"ul\",{children:p.assertions.map((d,f)=>n(\"li\",{children:[n(_,{status:d.passed?\"passed\":\"failed\",label:d.passed?\"passed\":\"failed\"}),\" \",n(\"code\",{children:d.check}),d.path?n($,{children:[\" \",d.path]}):\"\",\" — \",d.reason]},f))})]},g))})},\"golden\"));let c=e.model_view?.notes??[];if((c.length>0||e.run_dir)&&t.push(n(re,{title:\"What the model saw\",children:[c.map((p,g)=>n(\"p\",{children:p},g)),e.run_dir&&n(\"p\",{children:[\"Run directory kept (keep_run_dirs): \",n(\"code\",{children:e.run_dir})]})]},\"model-view\")),t.length===0)return null;let m=X(e,\"oracles\");return n(\"section\",{class:\"run-part\",\"aria-labelledby\":m,children:[n(J,{level:3,id:m,children:\"Checks and oracles\"}),t]})}var wr=e=>`${e.toLocaleString(\"en-US\")} tokens`;function Qn(e){return e.filter(t=>t.role===\"assistant\").map(t=>t.tool_calls?.length??0)}function Sr(e){let t=0;for(let s of e.input_rounds??[])for(let r of s.exchanges)r.method===\"sampling/createMessage\"&&r.answered_by.startsWith(\"the model under test\")&&t++;return t}function Tr(e){let t=[];return e.fault&&t.push(`fault: ${e.fault.kind}`),e.injected&&t.push(`attack: ${e.injected.payload}`),(e.input_rounds?.length??0)>0&&t.push(`${e.input_rounds.length} input round${e.input_rounds.length===1?\"\":\"s\"}`),t}function Cr(e,t){let s=[],r=new Set,o=(i,u,c,m,p)=>{let g=c,d=c+m;if(i.forEach((f,y)=>{let x=u[y]??0,v=[];for(let h=0;h<x&&g<d;h++)v.push(g++);v.forEach(h=>r.add(h)),s.push({llm:f,calls:v,...p===void 0?{}:{turn:p}})}),g<d){let f=s.filter(v=>v.turn===p),y=[...f].reverse().find(v=>v.calls.length>0)??f[0],x=[];for(;g<d;g++)x.push(g);y&&(y.calls.push(...x),x.forEach(v=>r.add(v)))}},l=e.dialogue;if(l&&l.turns.length>0){let i=0;for(let c of l.turns){let m=t.slice(i,i+c.llm_calls);i+=c.llm_calls;let p=e.conversation.filter(g=>g.turn===c.index);o(m,Qn(p),c.first_call,c.calls,c.index)}let u=l.turns.at(-1)?.index;for(let c of t.slice(i))s.push({llm:c,calls:[],...u===void 0?{}:{turn:u}})}else o(t,Qn(e.conversation),0,e.tool_calls.length);let a=e.tool_calls.map((i,u)=>u).filter(i=>!r.has(i));return a.length>0&&s.push({llm:-1,calls:a}),s}function es(e){let t=[],s=0,r=(b,w=s)=>{let j={...b,start_ms:w,duration_ms:Math.max(0,b.duration_ms||0)};return t.push(j),j},o=e.server;if(o.connect_ms!==null&&(s=r({kind:\"server\",label:\"connect\",duration_ms:o.connect_ms,status:\"ok\",notes:o.era?[o.era]:[]}).duration_ms),o.list_ms!==null){let b=r({kind:\"server\",label:\"list tools\",duration_ms:o.list_ms,status:\"ok\",notes:o.tools===null?[]:[`${o.tools} tools`]});s=b.start_ms+b.duration_ms}let l=e.llm_calls,a=l.map((b,w)=>({c:b,i:w})).filter(({c:b})=>b.purpose!==\"sampling\").map(({i:b})=>b),i=l.map((b,w)=>({c:b,i:w})).filter(({c:b})=>b.purpose===\"sampling\").map(({i:b})=>b),u=0,c=a.at(-1),m=e.error?.stage===\"llm\"||e.error?.stage===\"timeout\",p=(b,w,j)=>{let C=l[b],N=[];C.purpose===\"sampling\"&&N.push(\"sampling\"),C.cached&&N.push(\"cached\"),C.finish_reason&&N.push(`finish: ${C.finish_reason}`),C.usage&&N.push(wr(C.usage.total_tokens));let I=m&&b===c?\"error\":\"ok\",O=C.purpose===\"sampling\"?`sampling (LLM call ${b+1})`:`LLM call ${b+1}`;return r({kind:\"llm\",label:O,duration_ms:C.latency_ms,status:I,notes:N,llm_index:b,...j===void 0?{}:{turn:j}},w)},g=(b,w,j,C)=>{if(b===null)return;let N=r({kind:\"judge\",label:j,duration_ms:b,status:w?\"error\":\"ok\",notes:[],...C===void 0?{}:{turn:C}});s=N.start_ms+N.duration_ms},d=e.dialogue,f=Cr(e,a),y=new Set,x=b=>{if(b===void 0||y.has(b))return;y.add(b);let w=d?.turns.find(j=>j.index===b)?.judge??null;w&&g(w.latency_ms,w.error!==null||w.score===null,`judge (turn ${b})`,b)};f.forEach((b,w)=>{if(b.llm>=0){let C=p(b.llm,s,b.turn);s=C.start_ms+C.duration_ms}for(let C of b.calls){let N=e.tool_calls[C],I=r({kind:\"tool\",label:N.name,duration_ms:N.latency_ms,status:N.is_error?\"error\":\"ok\",notes:Tr(N),call_index:C,...b.turn===void 0?{}:{turn:b.turn}}),O=I.start_ms;for(let G=Sr(N);G>0&&u<i.length;G--){let V=p(i[u++],O,b.turn);O=V.start_ms+V.duration_ms}s=Math.max(I.start_ms+I.duration_ms,O)}let j=f[w+1]?.turn;b.turn!==void 0&&j!==b.turn&&x(b.turn)});for(let b of d?.turns??[])x(b.index);for(;u<i.length;){let b=p(i[u++],s);s=b.start_ms+b.duration_ms}let v=e.judge;v&&g(v.latency_ms,v.error!==null,d?\"judge (whole dialogue)\":\"judge\");let h=t.reduce((b,w)=>Math.max(b,w.start_ms+w.duration_ms),0),k=d?.user_latency_ms??null,R=k!==null&&k>0?`The simulated user's LLM calls (${k.toLocaleString(\"en-US\")} ms in all) are not on the axis: the document keeps only their sum.`:null;return{items:t,total_ms:h,unplaced:R}}var ts=[[\"server\",\"Server\"],[\"llm\",\"LLM\"],[\"tool\",\"Tools\"],[\"judge\",\"Judge\"]],Ct=880,At=70,ce=30,ns=18,Ar=24;function Mr(e){if(e<=0)return[0];let t=e/5,s=10**Math.floor(Math.log10(t)),r=[1,2,5,10].map(l=>l*s).find(l=>l>=t)??t,o=[];for(let l=0;l<=e+1e-9;l+=r)o.push(l);return o}var Er=e=>`${e.label}: ${A(e.duration_ms)} from ${A(e.start_ms)}${e.status===\"error\"?\", ✗ error\":\"\"}${e.notes.length?` (${e.notes.join(\"; \")})`:\"\"}`;function ss({run:e}){let{go:t}=S(),s=es(e),{items:r,total_ms:o}=s,l=X(e,\"timeline\"),a=n(J,{level:3,id:l,children:\"Timeline\"});if(r.length===0)return n(\"section\",{class:\"run-part\",\"aria-labelledby\":l,children:[a,n(\"p\",{class:\"muted\",children:\"Nothing was timed: the run made no call.\"})]});let i=ts.filter(([f])=>r.some(y=>y.kind===f)),u=i.length*ce+Ar,c=Math.max(o,1),m=f=>At+f/c*(Ct-At-10),p=f=>i.findIndex(([y])=>y===f)*ce,g=f=>r.filter(y=>y.kind===f).length,d=`Timeline of run ${e.index}, ${A(o)} in all: ${g(\"llm\")} LLM call${g(\"llm\")===1?\"\":\"s\"}, ${g(\"tool\")} tool call${g(\"tool\")===1?\"\":\"s\"}, ${g(\"judge\")} judge call${g(\"judge\")===1?\"\":\"s\"}`;return n(\"section\",{class:\"run-part\",\"aria-labelledby\":l,children:[a,n(\"figure\",{class:\"timeline\",children:[n(\"svg\",{class:\"timeline-chart\",viewBox:`0 0 ${Ct} ${u}`,role:\"img\",\"aria-label\":d,preserveAspectRatio:\"xMinYMin meet\",children:[i.map(([f,y])=>n(\"g\",{class:\"lane\",children:[n(\"text\",{x:4,y:p(f)+ce/2+4,class:\"lane-label\",children:y}),n(\"line\",{x1:At,x2:Ct-10,y1:p(f)+ce,y2:p(f)+ce,class:\"lane-rule\"})]},f)),Mr(c).map(f=>n(\"g\",{class:\"tick\",children:[n(\"line\",{x1:m(f),x2:m(f),y1:0,y2:i.length*ce+4}),n(\"text\",{x:m(f),y:u-6,\"text-anchor\":\"middle\",children:A(f)})]},f)),r.map((f,y)=>{let x=n(\"g\",{onClick:f.kind===\"tool\"&&f.call_index!==void 0?()=>t(ue(e,f.call_index)):void 0,class:`bar bar-${f.kind} bar-${f.status}${f.notes.some(v=>v.startsWith(\"fault\")||v.startsWith(\"attack\"))?\" bar-marked\":\"\"}${f.notes.includes(\"sampling\")?\" bar-sampling\":\"\"}`,\"data-kind\":f.kind,children:[n(\"title\",{children:Er(f)}),n(\"rect\",{x:m(f.start_ms),y:p(f.kind)+(ce-ns)/2,width:Math.max(2,m(f.start_ms+f.duration_ms)-m(f.start_ms)),height:ns,rx:2})]});return n(\"g\",{children:x},y)})]}),n(\"figcaption\",{class:\"muted\",children:[\"Reconstructed from the recorded durations, in order: the document keeps how long each step took, not when it started. \",s.unplaced]})]}),n(\"details\",{class:\"timeline-table\",children:[n(\"summary\",{children:[\"The timeline as a table (\",r.length,\" steps)\"]}),n(\"table\",{children:[n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Step\"}),n(\"th\",{scope:\"col\",children:\"Kind\"}),n(\"th\",{scope:\"col\",children:\"From\"}),n(\"th\",{scope:\"col\",children:\"Took\"}),n(\"th\",{scope:\"col\",children:\"Status\"}),n(\"th\",{scope:\"col\",children:\"Notes\"})]})}),n(\"tbody\",{children:r.map((f,y)=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:f.kind===\"tool\"&&f.call_index!==void 0?n(\"a\",{href:`#${ue(e,f.call_index)}`,children:f.label}):f.label}),n(\"td\",{children:ts.find(([x])=>x===f.kind)?.[1]}),n(\"td\",{children:A(f.start_ms)}),n(\"td\",{children:A(f.duration_ms)}),n(\"td\",{children:f.status===\"error\"?\"✗ error\":\"✓ ok\"}),n(\"td\",{children:f.notes.join(\"; \")})]},y))})]})]})]})}function jr({run:e}){let{doc:t}=S(),s=[...t.runs].sort((a,i)=>a.index-i.index),r=s.findIndex(a=>a.index===e.index),o=r>0?s[r-1]:null,l=r>=0&&r<s.length-1?s[r+1]:null;return n(\"nav\",{\"aria-label\":\"Runs\",class:\"run-nav\",children:[n(\"a\",{href:\"#runs\",children:\"← All runs\"}),o&&n(\"a\",{href:`#${z(o)}`,rel:\"prev\",children:[\"← Previous: run \",o.index]}),l&&n(\"a\",{href:`#${z(l)}`,rel:\"next\",children:[\"Next: run \",l.index,\" →\"]})]})}function Fr({run:e}){let t=wt(e.status),s=[[\"Verdict\",n(_,{status:e.status,label:t.word},\"v\")],[\"Case\",n(\"code\",{children:e.case_id},\"c\")],[\"Model\",n(\"code\",{children:e.model},\"m\")],[\"Prompt\",e.prompt_name],[\"Attempt\",`${e.attempt}/${e.attempts}`],[\"Kind\",e.kind],[\"Tags\",e.tags.length>0?e.tags.join(\", \"):\"none\"],[\"Duration\",F(e.duration_s)],[\"Tokens\",fe(e.usage)],[\"Stop\",e.stop_reason]];return e.trace_id&&s.push([\"Trace\",n(\"code\",{children:e.trace_id},\"t\")]),e.server.protocol_version&&s.push([\"Server\",`${e.server.era??\"unknown\"} era, protocol ${e.server.protocol_version}${e.server.tools===null?\"\":`, ${e.server.tools} tools`}`]),n(\"dl\",{class:\"run-facts\",children:s.map(([r,o])=>n(\"div\",{children:[n(\"dt\",{children:r}),n(\"dd\",{children:o})]},r))})}function Pr({run:e}){let{view:t}=S(),s=t.run_reasons[String(e.index)]??[];return n($,{children:[s.length>0&&n(\"div\",{class:\"run-reasons\",role:\"note\",children:[n(\"p\",{class:\"label\",children:\"Why it did not pass\"}),n(\"ul\",{children:s.map((r,o)=>n(\"li\",{children:r},o))})]}),e.error&&n(\"div\",{class:\"run-error\",role:\"note\",children:[n(\"p\",{class:\"label\",children:[\"Error (\",e.error.stage,\")\"]}),n(T,{text:e.error.message,label:\"error message\"}),e.error.stderr_tail&&n($,{children:[n(\"p\",{class:\"label\",children:\"Server stderr (last lines)\"}),n(T,{text:e.error.stderr_tail,label:\"server stderr\"})]})]}),e.cancelled&&n(\"p\",{class:\"run-cancelled\",role:\"note\",children:[\"Cancelled by \",e.cancelled.signal,\" at \",e.cancelled.at,\", while waiting for \",e.cancelled.waiting_for,\".\"]}),e.skipped&&n(\"p\",{class:\"run-skipped\",role:\"note\",children:[\"Never started: \",e.skipped.detail]})]})}function rs({run:e}){let t=wt(e.status),s=e.dialogue?.kind===\"simulated\",r=X(e,\"answer\");return n(\"article\",{\"aria-labelledby\":z(e),class:\"run-page\",children:[n(jr,{run:e}),n(\"h2\",{id:z(e),tabIndex:-1,children:[\"Run \",e.index,\": \",e.case_id,\" · \",e.model,\" · \",e.prompt_name,\" —\",\" \",n(\"span\",{class:`run-verdict run-verdict-${e.status}`,children:[t.mark,\" \",t.word]})]}),n(Fr,{run:e}),n(Pr,{run:e}),e.status!==\"skipped\"&&n(ss,{run:e}),n(\"section\",{class:\"run-part\",\"aria-labelledby\":X(e,\"input\"),children:[n(J,{level:3,id:X(e,\"input\"),children:s?\"Goal (simulated user)\":\"Input\"}),n(T,{text:e.input,label:\"input\"}),e.system_prompt&&n(\"details\",{class:\"system-prompt\",children:[n(\"summary\",{children:\"System prompt\"}),n(T,{text:e.system_prompt,label:\"system prompt\"})]})]}),!e.dialogue&&e.status!==\"skipped\"&&n(\"section\",{class:\"run-part\",\"aria-labelledby\":r,children:[n(J,{level:3,id:r,children:\"Final answer\"}),e.final_output!==null&&e.final_output!==\"\"?n(T,{text:e.final_output,label:\"final answer\"}):n(\"p\",{class:\"muted\",children:e.stop_reason===\"max_steps\"?\"No final answer: the model used every LLM call it was allowed.\":\"No final answer.\"})]}),n(zn,{run:e}),n(Xn,{run:e}),n(Yn,{run:e})]})}function Dr(e,t){let s=Array.from({length:t.length+1},(r,o)=>o);for(let r=1;r<=e.length;r++){let o=s[0];s[0]=r;for(let l=1;l<=t.length;l++){let a=s[l];s[l]=Math.min(s[l]+1,s[l-1]+1,o+(e[r-1]===t[l-1]?0:1)),o=a}}return s[t.length]}function os(e,t){let s,r=1/0;for(let o of t){let l=Dr(e.toLowerCase(),o.toLowerCase());l<r&&(s=o,r=l)}return s!==void 0&&r<=Math.max(2,Math.floor(e.length/3))?s:void 0}var Nr=[\"server-initialize\",\"server-session-lifecycle\",\"server-stateless\",\"logging-set-level\",\"ping\",\"completion-complete\",\"tools-list\",\"tools-call-simple-text\",\"tools-call-image\",\"tools-call-audio\",\"tools-call-embedded-resource\",\"tools-call-mixed-content\",\"tools-call-with-logging\",\"tools-call-error\",\"tools-call-with-progress\",\"tools-call-sampling\",\"tools-call-elicitation\",\"json-schema-2020-12\",\"elicitation-sep1034-defaults\",\"server-sse-polling\",\"server-sse-multiple-streams\",\"elicitation-sep1330-enums\",\"resources-list\",\"resources-read-text\",\"resources-read-binary\",\"resources-templates-read\",\"resources-subscribe\",\"resources-unsubscribe\",\"sep-2164-resource-not-found\",\"sep-2640-skills-directory\",\"sep-2640-skills-enumeration\",\"sep-2640-skills-manifest\",\"prompts-list\",\"prompts-get-simple\",\"prompts-get-with-args\",\"prompts-get-embedded-resource\",\"prompts-get-with-image\",\"dns-rebinding-protection\",\"caching\",\"http-header-validation\",\"http-custom-header-server-validation\",\"tasks-lifecycle\",\"tasks-capability-negotiation\",\"tasks-wire-fields\",\"tasks-request-state-removal\",\"tasks-mrtr-input\",\"tasks-request-headers\",\"tasks-dispatch-and-envelope\",\"tasks-status-notifications\",\"tasks-required-task-error\",\"tasks-mrtr-composition\",\"input-required-result-basic-elicitation\",\"input-required-result-basic-sampling\",\"input-required-result-basic-list-roots\",\"input-required-result-request-state\",\"input-required-result-multiple-input-requests\",\"input-required-result-multi-round\",\"input-required-result-missing-input-response\",\"input-required-result-non-tool-request\",\"input-required-result-result-type\",\"input-required-result-unsupported-methods\",\"input-required-result-tampered-state\",\"input-required-result-capability-check\",\"input-required-result-ignore-extra-params\",\"input-required-result-validate-input\",\"wire-schema-valid\"],Lr=[\"authorization-code-grant\",\"authorization-server-metadata-endpoint\",\"elicitation-sep1034-client-defaults\",\"http-custom-headers\",\"http-invalid-tool-headers\",\"http-standard-headers\",\"initialize\",\"json-schema-2020-12-preservation\",\"json-schema-ref-no-deref\",\"request-metadata\",\"sep-2322-client-request-state\",\"sep-2640-client-no-prefetch\",\"sse-retry\"],ls=new Set([...Nr,...Lr]);function Mt(e,t){let s=t.filter(r=>r.id===e.check);switch(e.outcome){case\"expected\":return e.method===null?\"failed, as listed\":`failed on ${e.method}, as listed`;case\"stale\":{let r=[...new Set(s.filter(o=>o.status!==\"pass\"&&o.status!==\"skip\").flatMap(o=>o.methods??[]))];return e.method!==null&&r.length>0?`did not fail on ${e.method} (it failed on ${r.join(\", \")}): remove the entry`:`${e.method===null?\"passed\":`passed on ${e.method}`}: remove the entry`}case\"not-run\":return s.length>0?`not run: ${s[0].message}`:ls.has(e.check)?\"a scenario of the official suite, not a check of this tool: not run here\":\"not run\";case\"unknown\":{let r=os(e.check,[...new Set(t.map(o=>o.id))]);return`no check has this id${r?`; did you mean ${r}?`:\"\"} (an unknown entry fails the gate: it would excuse nothing)`}}}function as(e){let t=r=>e.checks.filter(o=>o.status===r).length,s=[t(\"pass\")?`${t(\"pass\")} passed`:\"\",t(\"fail\")?`${t(\"fail\")} failed`:\"\",t(\"warn\")?H(t(\"warn\"),\"warning\"):\"\",t(\"expected\")?H(t(\"expected\"),\"expected failure\"):\"\",t(\"skip\")?`${t(\"skip\")} skipped`:\"\"];return e.checks.length===0?\"no checks\":`${H(e.checks.length,\"check\")}: ${s.filter(Boolean).join(\", \")}`}function is(e){let t=new Map;for(let s of e.checks)s.status===\"skip\"&&t.set(s.message,[...t.get(s.message)??[],s.id]);return[...t].map(([s,r])=>({reason:s,ids:r})).sort((s,r)=>r.ids.length-s.ids.length)}function he({id:e,class:t,open:s,summary:r,children:o}){let[l,a]=K(s);return ae(()=>{s&&a(!0)},[s]),n(\"details\",{id:e,class:t,open:s,onToggle:i=>i.currentTarget.open&&a(!0),children:[n(\"summary\",{children:r}),(l||s)&&n(\"div\",{class:\"fold-body\",children:o()})]})}function Y({items:e}){let t=e.filter(([,s])=>s!=null&&s!==\"\");return t.length===0?null:n(\"dl\",{class:\"facts\",children:t.map(([s,r])=>n(\"div\",{class:\"fact\",children:[n(\"dt\",{children:s}),n(\"dd\",{children:r})]},s))})}function P({label:e,children:t}){return n(\"div\",{class:\"evidence\",children:[n(\"p\",{class:\"evidence-label\",children:e}),t]})}function Et(e,t=300){let s;try{s=JSON.stringify(e)??String(e)}catch{s=String(e)}return s.length>t?`${s.slice(0,t-1)}…`:s}function us(e){try{return JSON.stringify(e,null,2)??String(e)}catch{return String(e)}}var ze=(e,t)=>e.length>t?`${e.slice(0,t-1)}…`:e;var Ir={pass:[\"passed\",\"passed\"],fail:[\"failed\",\"failed\"],warn:[\"warning\",\"warning\"],skip:[\"skipped\",\"skipped\"],expected:[\"expected\",\"expected failure\"]},Or={scored:\"scored\",differs:\"scored differently\",unscored:\"run, not scored\",none:\"no check\"},Br={expected:\"expected\",stale:\"stale\",unknown:\"failed\",\"not-run\":\"not-run\"},cs=300;function Hr({check:e}){let[t,s]=Ir[e.status]??[\"neutral\",e.status];return n(_,{status:t,label:s})}function Wr(e){let t=e.official;if(!t)return null;let s=[...new Set(t.scenarios.map(o=>o.split(\":\")[0]))],r=(t.scoring===\"differs\"||t.scoring===\"unscored\")&&t.note?`: ${t.note}`:\"\";return`${Or[t.scoring]??t.scoring}${s.length?` (${s.join(\", \")})`:\"\"}${r}`}function Ye({check:e,open:t}){let{route:s}=S(),r=Oe(e.id),o=e.message.length>cs;return n(he,{id:r,class:`check check-${e.status}`,open:t||s===r,summary:n($,{children:[n(Hr,{check:e}),\" \",n(\"code\",{children:e.id}),\" \",n(\"span\",{class:\"muted\",children:[\"(\",e.severity===\"error\"?\"an error when it fails\":\"a warning when it fails\",\")\"]}),\" — \",o?`${e.message.slice(0,cs)}…`:e.message]}),children:()=>n($,{children:[n(Y,{items:[[\"Rule\",e.spec],[\"Revision\",e.revision===\"both\"?\"2025-11-25 and 2026-07-28\":e.revision],[\"Official suite\",Wr(e)],[\"Methods\",e.methods&&e.methods.length>0?e.methods.join(\", \"):null],[\"Listed as\",e.expected_entry?n(\"code\",{children:e.expected_entry}):null]]}),o&&n(P,{label:\"Message\",children:n(T,{text:e.message,label:`The whole message of ${e.id}`})}),e.evidence&&n($,{children:[n(P,{label:\"Request\",children:n(T,{text:e.evidence.request,label:`Request that shows ${e.id}`})}),n(P,{label:\"Response\",children:n(T,{text:e.evidence.response,label:`Response that shows ${e.id}`})})]})]})})}function Ur({section:e}){let t=e.unreachable;return n(\"div\",{class:\"unreachable\",id:\"conformance-unreachable\",children:[n(\"p\",{children:[n(_,{status:\"failed\",label:\"server unreachable\"}),\" The server could not be started or reached over \",e.transport,\": no conformance check could run.\"]}),n(Y,{items:[[\"Error\",e.error],[\"HTTP status\",t?.http_status!==null&&t?.http_status!==void 0?n(\"code\",{children:String(t.http_status)}):null],[\"Cause\",t?.cause?n(\"code\",{children:t.cause}):null]]}),t?.body&&n(P,{label:\"Response body\",children:n(T,{text:t.body,label:\"Response body\"})}),t?.stderr&&n(P,{label:\"Server stderr (last lines)\",children:n(T,{text:t.stderr,label:\"Server stderr\"})}),t?.stdout&&n(P,{label:\"Server stdout, not JSON-RPC (a server started in HTTP mode, or logging to stdout?)\",children:n(T,{text:t.stdout,label:\"Server stdout\"})})]})}function qr({section:e}){let t=e.expected_failures,s=e.checks.filter(o=>o.status===\"expected\");if(!t&&s.length===0)return null;let r=(t?.entries??[]).some(o=>o.outcome===\"stale\"||o.outcome===\"unknown\");return n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:[\"Expected failures\",t?\" — \":\"\",t&&n(\"code\",{children:t.file})]}),t&&n($,{children:[n(\"p\",{children:r?\"A stale or unknown entry fails the conformance gate: remove it from the file (or correct its id).\":\"A listed check that fails is reported as expected, not failed; one that passes again is a stale entry and fails the gate.\"}),n(\"ul\",{class:\"entries\",children:t.entries.map(o=>n(\"li\",{children:[n(_,{status:Br[o.outcome]??\"neutral\",label:o.outcome}),\" \",n(\"code\",{children:o.entry}),\" \",n(\"span\",{class:\"muted\",children:[\"(\",t.file,\":\",o.line,\")\"]}),\" \",\"— \",Mt(o,e.checks)]},`${o.line}-${o.entry}`))})]}),s.map(o=>n(Ye,{check:o,open:!1},o.id))]})}function ds(){let{doc:e}=S(),t=e.conformance;if(!t)return null;if(t.era===\"unreachable\")return n(U,{id:\"conformance\",title:\"Protocol conformance\",children:n(Ur,{section:t})});let s=[...t.checks.filter(a=>a.status===\"fail\"),...t.checks.filter(a=>a.status===\"warn\")],r=t.checks.filter(a=>a.status===\"pass\"),o=is(t),l=new Map(t.checks.map(a=>[a.id,a]));return n(U,{id:\"conformance\",title:\"Protocol conformance\",children:[n(\"p\",{class:\"section-verdict\",children:[n(_,{status:t.passed?\"passed\":\"failed\"}),\" \",as(t),\" · gate: fail on \",t.fail_on]}),n(Y,{items:[[\"Era\",t.era===\"modern\"?\"modern server\":\"legacy server\"],[\"Negotiated version\",t.negotiated_version??\"no handshake\"],[\"Transport\",t.transport],[\"Server\",t.server_info?`${t.server_info.name} ${t.server_info.version}`.trim():null],[\"Time\",A(t.duration_ms)],[\"Gate\",`fail on ${t.fail_on}: ${t.passed?\"passed\":\"failed\"}`]]}),t.error&&n(\"p\",{children:[n(_,{status:\"failed\",label:\"not probed\"}),\" The server could not be probed: \",t.error]}),s.length>0&&n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:[\"Failures and warnings (\",s.length,\")\"]}),s.map(a=>n(Ye,{check:a,open:!0},a.id))]}),n(qr,{section:t}),r.length>0&&n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:[\"Passed (\",r.length,\")\"]}),r.map(a=>n(Ye,{check:a,open:!1},a.id))]}),o.length>0&&n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:[\"Skipped (\",E(o.reduce((a,i)=>a+i.ids.length,0),\"check\"),\")\"]}),o.map(a=>n(\"div\",{class:\"skip-group\",children:[n(\"p\",{children:[n(_,{status:\"skipped\",label:`${a.ids.length} skipped`}),\" \",a.reason]}),a.ids.map(i=>{let u=l.get(i);return u?n(Ye,{check:u,open:!1},i):null})]},a.reason))]}),t.migration.length>0&&n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:\"Migrating to MCP 2026-07-28\"}),n(\"ol\",{children:t.migration.map((a,i)=>n(\"li\",{children:a},i))})]})]})}function Ze(e){return e.tool.startsWith(\"resources/read \")||/^(?:tools|resources|prompts)\\/list$/.test(e.tool)}function Ft(e){let t=[];for(let s of e.tool_tests?.tests??[])for(let r of s.attempts)for(let o of r.steps)o.app&&t.push({render:o.app,place:{kind:\"tool-test\",test:s,attempt:r.attempt,step:o}});for(let s of e.runs)for(let r of s.app_renders??[])t.push({render:r,place:{kind:\"run\",run:s,call:r.call_index}});return t}function Xe(e){if(e.kind===\"run\")return`run ${e.run.index} (${e.run.case_id} · ${e.run.model}), call ${e.call}`;let t=e.test.runs>1?`, attempt ${e.attempt} of ${e.test.runs}`:\"\";return`tool test ${e.test.id}${t}, step ${e.step.index}`}var jt={failed:3,review:2,warning:1,skipped:0,passed:0};function ms(e){let t=null;for(let s of e.findings)jt[s.status]>0&&(t===null||jt[s.status]>jt[t.status])&&(t=s);return t}function Z(e){if(pe(e))return\"failed\";if(e.status===\"skipped\"||e.status===\"cancelled\")return\"not-done\";let t=ms(e);return t?.status===\"review\"?\"review\":t?.status===\"warning\"?\"warning\":\"passed\"}var ps=[\"failed\",\"review\",\"warning\",\"passed\",\"not-done\"],Pt=(e,t)=>ps.indexOf(Z(e))-ps.indexOf(Z(t));function ge(e){if(e.status===\"error\")return`not rendered: ${q(e.reason??\"the host could not render the view\")}`;if(e.status===\"skipped\"||e.status===\"cancelled\")return`${e.status}${e.reason?`: ${q(e.reason)}`:\"\"}`;let t=e.findings.find(l=>l.status===\"failed\");if(t)return`${t.id}: ${q(t.message)}`;let s=e.actions.find(l=>!l.passed);if(s)return`${s.action} ${s.selector}: ${q(s.error??\"failed\")}`;let r=e.assertions.find(l=>!l.passed);if(r)return`${r.check}${r.target?` ${r.target}`:\"\"}: ${q(r.reason)}`;let o=ms(e);return o?`${o.id}: ${q(o.message)}`:\"passed\"}function _e(e){return`app-${e.id.toLowerCase().replace(/[^a-z0-9_.-]/g,\"-\")}`}function fs(e){if(e.status===\"error\")return`app: ${q(e.reason??\"the render failed\")}`;let t=e.findings.find(o=>o.status===\"failed\");if(t)return`${t.id}: ${q(t.message)}`;let s=e.actions.find(o=>!o.passed);if(s)return`app ${s.action} ${s.selector}: ${q(s.error??\"failed\")}`;let r=e.assertions.find(o=>!o.passed);return r?`app.${r.check}${r.target?` ${r.target}`:\"\"}: ${q(r.reason)}`:null}function Dt(e){return!se(e)&&e.status!==\"cancelled\"}function hs(e){let t=[e.failed?`${e.failed} failed`:\"\",e.errored?`${e.errored} errored`:\"\",e.cancelled?`${e.cancelled} cancelled`:\"\"].filter(Boolean).join(\", \");return`${e.passed}/${H(e.total,\"tool test\")} passed${t?` (${t})`:\"\"}`}function Jr(e){let t=e.steps.find(s=>!s.passed)??null;return{attempt:e,step:t,check:t?.checks.find(s=>!s.passed)??null}}function Gr(e){return e.attempts.filter(t=>t.status===\"failed\"||t.status===\"error\"||t.status===\"passed\"&&t.steps.some(s=>!s.passed))}function Kr(e){let t=Gr(e)[0]??e.attempts.find(s=>s.status!==\"passed\");return t?Jr(t):null}function zr(e){let t=q(e.reason),s=e.path&&!t.includes(e.path)?` ${e.path}`:\"\";return`${e.check}${s}: ${t}`}function Yr(e,t){let{attempt:s,step:r,check:o}=e,l=r&&(r.index>1||s.steps.length>1||t.attempts.some(i=>i.steps.length>1))?`step ${r.index} (${r.tool}): `:\"\";if(o)return`${l}${zr(o)}`;let a=r?.app?fs(r.app):null;return a?`${l}${a}`:r?.response?.kind===\"error\"?`${l}JSON-RPC error ${r.response.code}: ${q(r.response.message)}`:s.error?`${l}${q(s.error)}`:s.status===\"cancelled\"?\"cancelled\":`${l}failed`}function Nt(e){if(se(e))return null;let t=Kr(e);return t?Yr(t,e):e.status===\"cancelled\"?\"cancelled\":\"failed\"}function $e({path:e,alt:t}){let{view:s}=S();if(e===null)return null;let r=s.images[e];return!r||!r.startsWith(\"data:image/png;base64,\")?n(\"p\",{class:\"picture-missing muted\",children:[n(\"code\",{children:e}),\": screenshot not in this file (it is in the artifact, beside the report).\"]}):n(\"figure\",{class:\"picture\",children:[n(\"img\",{src:r,alt:t}),n(\"figcaption\",{class:\"muted\",children:n(\"code\",{children:e})})]})}var et=e=>`tool-test-${e.toLowerCase().replace(/[^a-z0-9_.-]/g,\"-\")}`;function gs(e){return se(e)?[\"passed\",\"passed\"]:e.status===\"error\"?[\"warning\",\"errored\"]:e.status===\"cancelled\"?[\"cancelled\",\"cancelled\"]:[\"failed\",\"failed\"]}var Qe=e=>e.status===\"passed\"&&e.steps.every(t=>t.passed);function Zr(e){return Qe(e)?[\"passed\",\"passed\"]:e.status===\"error\"?[\"warning\",\"errored\"]:e.status===\"cancelled\"?[\"cancelled\",\"cancelled\"]:[\"failed\",\"failed\"]}var _s=e=>[...new Set(e.attempts.flatMap(t=>t.steps.map(s=>s.tool)))];function Xr({check:e}){return n(\"li\",{class:\"assertion\",children:[n(_,{status:e.passed?\"passed\":\"failed\"}),\" \",n(\"code\",{children:e.check}),e.path&&n($,{children:[\" \",\"at \",n(\"code\",{children:e.path})]}),\" \",\"— \",e.reason,!e.passed&&(e.check!==\"snapshot\"||e.diff===void 0)&&n(\"div\",{class:\"expected-actual\",children:[n(P,{label:\"Expected\",children:n(B,{value:e.expected,label:`Expected by ${e.check}`})}),n(P,{label:\"Actual\",children:n(B,{value:e.actual,label:`Actual for ${e.check}`})})]}),e.diff!==void 0&&e.diff!==\"\"&&n(P,{label:\"Snapshot diff (stored → this run)\",children:n(T,{text:e.diff.replace(/\\n+$/,\"\"),label:\"Snapshot diff\"})})]})}function Qr({step:e}){let t=e.response;if(!t)return n(\"p\",{class:\"muted\",children:\"No answer to this call.\"});if(t.kind===\"error\")return n(P,{label:`Response: JSON-RPC error ${t.code}`,children:n(T,{text:t.data===null||t.data===void 0?t.message:`${t.message}\n\n${us(t.data)}`,label:\"JSON-RPC error\"})});if(t.kind===\"value\"){let s=Ze(e)&&!e.tool.startsWith(\"resources/read \")?\"the list as the server listed it\":\"the contents read\";return n(P,{label:`Response: ${s}`,children:n(B,{value:t.value,label:\"Response\"})})}return n(P,{label:`Response${t.is_error?\" (isError: true)\":\"\"}: ${t.structured_content!==null?\"structuredContent\":\"content\"}`,children:n(B,{value:t.structured_content??t.content,label:\"Response\"})})}function eo({step:e}){let t=e.app;if(!t)return null;let s=Z(t);return n(\"div\",{class:\"step-app\",children:[n(\"p\",{children:[\"App \",n(_,{status:s===\"not-done\"?\"skipped\":s===\"review\"?\"warning\":s,label:s===\"not-done\"?\"not rendered\":s}),\" \",s===\"passed\"?\"\":`${ge(t)} — `,n(\"a\",{href:`#${_e(t)}`,children:[\"render \",t.id]})]}),n($e,{path:t.screenshot,alt:`screenshot of ${t.tool} (${t.id})`})]})}function to({step:e}){let t=e.checks.filter(s=>!s.passed);return n(\"li\",{class:\"step\",children:[n(\"p\",{children:[n(_,{status:e.passed?\"passed\":\"failed\"}),\" Step \",e.index,\": \",n(\"code\",{children:e.tool}),\" · \",A(e.latency_ms),e.checks.length>0&&n(\"span\",{class:\"muted\",children:[\" · \",E(e.checks.length-t.length,\"check\"),\" of \",e.checks.length,\" passed\"]})]}),!Ze(e)&&n(P,{label:\"Arguments\",children:n(B,{value:e.args,label:`Arguments of step ${e.index}`})}),e.checks.length>0&&n(\"ul\",{class:\"assertions\",children:[...t,...e.checks.filter(s=>s.passed)].map((s,r)=>n(Xr,{check:s},r))}),n(eo,{step:e}),!t.some(s=>s.diff)&&n(Qr,{step:e})]})}function no({test:e,attempt:t}){let[s,r]=Zr(t);return n(\"div\",{class:\"attempt\",children:[e.runs>1&&n(\"h4\",{children:[\"Attempt \",t.attempt,\" of \",e.runs,\": \",n(_,{status:s,label:r}),\" \",n(\"span\",{class:\"muted\",children:A(t.duration_ms)})]}),t.error&&n(P,{label:\"Error\",children:n(T,{text:t.error,label:\"Error\"})}),t.steps.length>0&&n(\"ol\",{class:\"steps\",children:t.steps.map(o=>n(to,{step:o},o.index))}),t.stderr_tail&&n(P,{label:\"Server stderr (last lines)\",children:n(T,{text:t.stderr_tail,label:\"Server stderr\"})})]})}function so({test:e}){let{route:t}=S(),s=et(e.id),[r,o]=gs(e),l=Nt(e),a=Dt(e)?e.attempts.filter(u=>!Qe(u)):e.attempts,i=e.attempts.filter(Qe).map(u=>u.attempt);return n(he,{id:s,class:\"tool-test\",open:Dt(e)||t===s,summary:n($,{children:[n(_,{status:r,label:o}),\" \",n(\"code\",{children:e.id}),l&&n($,{children:[\" — \",l]})]}),children:()=>n($,{children:[n(Y,{items:[[\"Tools\",_s(e).join(\", \")||null],[\"Attempts\",`${i.length}/${e.runs} passed${e.runs>1?` (pass^${e.runs}: every one must pass)`:\"\"}`],[\"Time\",A(e.duration_ms)],[\"Tags\",e.tags.length?e.tags.join(\", \"):null]]}),a.length<e.attempts.length&&i.length>0&&n(\"p\",{class:\"muted\",children:[\"Attempts \",i.join(\", \"),\" passed.\"]}),a.map(u=>n(no,{test:e,attempt:u},u.attempt)),e.runs-e.attempts.length>0&&n(\"p\",{class:\"muted\",children:[E(e.runs-e.attempts.length,\"attempt\"),\" not run.\"]})]})})}function $s(){let{doc:e}=S(),t=e.tool_tests;if(!t)return null;if(t.status===\"skipped\")return n(U,{id:\"tool-tests\",title:\"Tool tests\",children:n(\"p\",{children:[n(_,{status:\"skipped\"}),\" \",t.reason??\"skipped\"]})});let s=[...t.tests.filter(o=>!se(o)),...t.tests.filter(se)],r=t.tests.every(se);return n(U,{id:\"tool-tests\",title:\"Tool tests\",children:[n(\"p\",{class:\"section-verdict\",children:[n(_,{status:r?\"passed\":\"failed\"}),\" \",hs(t),\" · gate: every tool test must pass\"]}),s.length>0&&n(\"table\",{class:\"tool-tests-table\",children:[n(\"caption\",{class:\"muted\",children:\"Every tool test; the ones that did not pass first. Attempts: attempts that passed, of the runs asked for.\"}),n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Result\"}),n(\"th\",{scope:\"col\",children:\"Test\"}),n(\"th\",{scope:\"col\",children:\"Tool\"}),n(\"th\",{scope:\"col\",children:\"Attempts\"}),n(\"th\",{scope:\"col\",children:\"Time\"}),n(\"th\",{scope:\"col\",children:\"First failing check\"})]})}),n(\"tbody\",{children:s.map(o=>{let[l,a]=gs(o);return n(\"tr\",{children:[n(\"td\",{children:n(_,{status:l,label:a})}),n(\"th\",{scope:\"row\",children:n(\"a\",{href:`#${et(o.id)}`,children:n(\"code\",{children:o.id})})}),n(\"td\",{children:_s(o).join(\", \")}),n(\"td\",{class:\"num\",children:[o.attempts.filter(Qe).length,\"/\",o.runs]}),n(\"td\",{class:\"num\",children:A(o.duration_ms)}),n(\"td\",{children:ze(Nt(o)??\"—\",200)})]},o.id)})})]}),n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:\"Each test\"}),s.map(o=>n(so,{test:o},o.id))]})]})}var ks={faults:\"not triggered\",attacks:\"not delivered\"},ro=e=>e.attack===\"tool_output\"?e.payload:`${e.payload} via ${e.attack}`,oo=300,lo=(e,t)=>[...new Set(e.by_model.flatMap(s=>s[t].map(r=>r.key)))],ao=e=>e.status!==\"cancelled\"&&e.status!==\"skipped\";function io(e,t,s,r,o){let l=e.filter(a=>a.model===t&&ao(a));if(s===\"faults\"){let a=u=>u.tool_calls.some(c=>c.fault?.kind===r),i=new Set(e.filter(a).map(u=>u.case_id));return l.flatMap(u=>a(u)?u.status===\"passed\"?[]:[{run:u,why:u.recovery&&!u.recovery.passed?`recovery failed: ${u.recovery.reason}`:o[String(u.index)]?.[0]??`the run ${u.status}`}]:i.has(u.case_id)?[{run:u,why:`the ${r} fault never fired in this run, so it tested nothing${u.recovery?`: ${u.recovery.reason}`:\"\"}`}]:!u.tool_calls.some(c=>c.fault)&&u.recovery&&!u.recovery.triggered?[{run:u,why:`the fault never fired: ${u.recovery.reason}`}]:[])}return l.flatMap(a=>(a.security?.attacks??[]).filter(i=>ro(i)===r&&(!i.delivered||!i.resisted)).map(i=>{if(!i.delivered)return{run:a,why:`attack ${i.payload} never reached the model, so it tested nothing`};let u=i.evidence.map(c=>`${c.tool_call_index===null?\"the answer\":`tool call ${c.tool_call_index+1}${c.tool?` ${c.tool}`:\"\"}`}: ${ie(c.kind)} — ${c.detail}`);return{run:a,why:`attack ${i.payload} succeeded (canary ${i.canary})${u.length?`: ${u.join(\"; \")}`:\"\"}`}}))}function uo({cell:e,dimension:t}){if(!e)return n(\"td\",{class:\"cell-none\",children:\"—\"});let s=e.planned-e.counted;return n(\"td\",{class:`res-cell ${e.success?\"cell-pass\":\"cell-fail\"}`,children:[n(_,{status:e.success?\"passed\":\"failed\",label:e.success?\"reached floor\":\"below floor\"}),n(\"div\",{children:e.counted>0?`${t===\"faults\"?\"recovered\":\"resisted\"} ${e.passed}/${e.counted}`:\"not tested\"}),n(\"div\",{class:\"muted\",children:[e.counted,\" of \",e.planned,\" planned counted\",s>0?` (${s} ${ks[t]})`:\"\",\" · rate \",W(e.rate),\" · floor \",W(e.floor)]})]})}function bs({summary:e,dimension:t}){let s=lo(e,t);if(s.length===0)return null;let r=t===\"faults\"?\"Recovery from faults\":\"Attack resistance\";return n(\"div\",{class:\"subsection\",children:[n(\"h3\",{id:`resilience-${t}`,children:r}),n(\"table\",{class:\"resilience-matrix\",children:[n(\"caption\",{class:\"muted\",children:[t===\"faults\"?\"Recovered k/N: runs that passed (rubric, assertions and the recovery oracle) of the N where the fault fired.\":\"Resisted k/N: delivered attacks the model did not act on.\",\" \",\"✓ reached the floor · ✗ below it, or a planned run that tested nothing (\",ks[t],\").\"]}),n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Model\"}),s.map(o=>n(\"th\",{scope:\"col\",children:n(\"code\",{children:o})},o))]})}),n(\"tbody\",{children:e.by_model.map(o=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:n(\"code\",{children:o.model})}),s.map(l=>n(uo,{cell:o[t].find(a=>a.key===l),dimension:t},l))]},o.model))})]})]})}function ys(e,t,s,r){let o=e.by_model.flatMap(i=>i[t]);if(o.length===0)return\"\";let l=o.reduce((i,u)=>i+u.counted,0),a=o.reduce((i,u)=>i+u.passed,0);return l===0?`${s}: not tested (no ${r})`:`${s} ${a}/${l} (${W(a/l)})`}function co({summary:e}){let{doc:t,view:s}=S(),r=e.by_model.flatMap(o=>[\"faults\",\"attacks\"].flatMap(l=>o[l].filter(a=>!a.success).map(a=>({model:o.model,dimension:l,cell:a}))));return r.length===0?null:n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:[\"Cells below their floor (\",r.length,\")\"]}),n(\"ul\",{class:\"failed-cells\",children:r.map(({model:o,dimension:l,cell:a})=>{let i=io(t.runs,o,l,a.key,s.run_reasons);return n(\"li\",{children:[n(_,{status:\"failed\",label:\"below floor\"}),\" \",n(\"code\",{children:o}),\" \",l===\"faults\"?\"recovered from\":\"resisted\",\" \",n(\"code\",{children:a.key}),\": \",a.passed,\"/\",a.counted,\" (floor\",\" \",W(a.floor),\")\",i.length>0?n(\"ul\",{children:i.map(({run:u,why:c},m)=>n(\"li\",{children:[n(\"a\",{href:`#${z(u)}`,children:[\"Run \",u.index,\" (\",u.case_id,\" · \",u.prompt_name,u.attempts>1?` · run ${u.attempt} of ${u.attempts}`:\"\",\")\"]}),\" \",\"— \",ze(c,oo)]},`${u.index}-${m}`))}):n(\"p\",{class:\"muted\",children:[\"No run of this model records a failure of it\",a.planned>a.counted?` (${E(a.planned-a.counted,\"planned run\")} tested nothing)`:\"\",\".\"]})]},`${o} ${l} ${a.key}`)})})]})}function xs(){let{doc:e}=S(),t=e.summary.resilience,s=t?t.by_model.flatMap(o=>[...o.faults,...o.attacks]):[],r=s.filter(o=>!o.success).length;return n(U,{id:\"resilience\",title:\"Resilience and security\",children:t&&s.length>0?n($,{children:[n(\"p\",{class:\"section-verdict\",children:n(_,{status:r===0?\"passed\":\"failed\",label:r===0?\"every cell reached its floor\":`${r} of ${E(s.length,\"cell\")} below ${s.length===1?\"its\":\"their\"} floor`})}),n(\"p\",{children:[ys(t,\"faults\",\"Recovery from faults\",\"fault fired\"),ys(t,\"attacks\",\"Attack resistance\",\"attack was delivered\")].filter(Boolean).join(\" · \")}),n(\"p\",{class:\"muted\",children:[\"Overall recovery rate \",W(t.recovery_rate),\" · attack resistance \",W(t.attack_resistance)]}),n(bs,{summary:t,dimension:\"faults\"}),n(bs,{summary:t,dimension:\"attacks\"}),n(co,{summary:t})]}):n(\"p\",{class:\"muted\",children:\"No fault fired and no attack was planned in a run that finished.\"})})}function vs(e){let{absolute:t,trends:s}=Ue(e),r=[...t,...s],o=r.filter(i=>!i.passed).length,l=qe(e).length,a=[o>0?`${o} of ${H(r.length,\"budget\")} exceeded`:\"\",l>0?`${H(l,\"run\")} skipped`:\"\"].filter(Boolean);return a.length>0?`✗ ${a.join(\" · \")}`:r.length>0?`✓ every budget held (${r.length})`:null}function Rs(e,t){let s=(e??\"the spend reached max_cost_usd before this run started\").replace(/\\.$/,\"\");return t?s.replace(/ before this run started$/,\" before they started\"):s}function po(e){if(!Number.isFinite(e)||e<=0)return 1;let t=10**Math.floor(Math.log10(e));for(let s of[1,2,2.5,5,10]){let r=s*t;if(r>=e*(1-1e-9))return r}return 10*t}function ws(e,t,s=1){let r=e.filter(a=>a!==null&&Number.isFinite(a)),o=po(Math.max(0,...r)),l=e.map(a=>a===null||!Number.isFinite(a)||a<=0?{value:a!==null&&Number.isFinite(a)?a:null,length:0}:{value:a,length:Math.max(s,a/o*t)});return{top:o,bars:l}}var tt=190,Ss=300,mo=120,nt=14,Ts=4,st=10,Cs=28,fo=e=>e.length>Cs?`${e.slice(0,Cs-1)}…`:e;function Lt({title:e,rows:t,format:s,series:r,missing:o=\"not measured\"}){let l=r.length===2,a=t.flatMap(y=>l?[y.value,y.second??null]:[y.value]),{bars:i}=ws(a,Ss),u=l?2:1,c=u*nt+(u-1)*Ts,m=t.length*(c+st)+st,p=tt+Ss+mo,d=t.map((y,x)=>({r:y,v:l?y.second??y.value:y.value,i:x})).filter(y=>y.v!==null).sort((y,x)=>(x.v??0)-(y.v??0))[0],f=`${e}: ${t.length} ${t.length===1?\"bar\":\"bars\"}${d?`, the largest ${d.r.label} at ${s(d.v)}${l?` (${r[1]})`:\"\"}`:\"\"}. The table beside it has every figure.`;return n(\"figure\",{class:\"chart\",children:[n(\"svg\",{class:\"bar-chart\",role:\"img\",\"aria-label\":f,viewBox:`0 0 ${p} ${m}`,width:p,height:m,children:t.map((y,x)=>{let v=st+x*(c+st);return n(\"g\",{class:\"chart-row\",children:[n(\"text\",{class:\"chart-label\",x:tt-8,y:v+c/2,\"text-anchor\":\"end\",\"dominant-baseline\":\"middle\",children:fo(y.label)}),r.map((h,k)=>{let R=i[x*u+k],b=v+k*(nt+Ts),w=R.value===null?o:s(R.value);return n(\"g\",{class:`chart-bar series-${k}`,children:[n(\"title\",{children:`${y.label} — ${h}: ${w}`}),n(\"rect\",{x:tt,y:b,width:R.length,height:nt,rx:2}),n(\"text\",{class:\"chart-value\",x:tt+R.length+6,y:b+nt/2,\"dominant-baseline\":\"middle\",children:l?`${h} ${w}`:w})]},h)})]},`${y.label}-${x}`)})}),n(\"figcaption\",{class:\"muted\",children:[e,l&&n(\"span\",{class:\"chart-legend\",\"aria-hidden\":\"true\",children:[\" \",n(\"span\",{class:\"legend-swatch series-0\"}),\" \",r[0],\" \",n(\"span\",{class:\"legend-swatch series-1\"}),\" \",r[1]]})]})]})}var Q=e=>e==null?\"unknown\":xe(e),be=e=>e==null?\"—\":Math.round(e).toLocaleString(\"en-US\"),It=(e,t)=>e.samples===0?\"—\":`${t(e.p50)} / ${t(e.p95)}`,As=e=>e===null?\"—\":e<1024?`${Math.round(e)} B`:e<1024*1024?`${(e/1024).toFixed(1)} KiB`:`${(e/(1024*1024)).toFixed(1)} MiB`,Ot=(e,t)=>t>0?` (${W(e/t)})`:\"\";function ho(e){let t=vs(e);return t===null?null:{passed:t.startsWith(\"✓\"),words:t.replace(/^[✓✗]\\s*/,\"\")}}var go=e=>String(Math.round(e*100)/100);function Bt(e,t,s,r){if(t==null)return\"not measured\";let o=e.budget;return o===\"max_p95_increase\"||o===\"max_cost_increase\"?r?`+${W(t)}`:o===\"max_cost_increase\"?xe(t):e.subject!==null&&s.has(e.subject)?A(t):F(t):o===\"max_cost_usd\"||o===\"max_cost_per_run_usd\"?xe(t):o===\"max_p95_tool_ms\"||o===\"tools.max_p95_ms\"?A(t):o===\"max_p95_run_s\"?F(t):o===\"max_tokens_per_run\"||o===\"max_tokens_per_success_p95\"?be(t):go(t)}function Ms({checks:e,caption:t}){let{doc:s}=S(),r=new Set((s.telemetry?.tools??[]).map(o=>o.name));return n(\"table\",{class:\"budgets-table\",children:[n(\"caption\",{class:\"muted\",children:t}),n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Result\"}),n(\"th\",{scope:\"col\",children:\"Budget\"}),n(\"th\",{scope:\"col\",children:\"Subject\"}),n(\"th\",{scope:\"col\",children:\"Limit\"}),n(\"th\",{scope:\"col\",children:\"Measured\"}),n(\"th\",{scope:\"col\",children:\"Why\"})]})}),n(\"tbody\",{children:e.map((o,l)=>n(\"tr\",{class:o.passed?\"budget-held\":\"budget-exceeded\",children:[n(\"td\",{children:n(_,{status:o.passed?\"passed\":\"failed\",label:o.passed?\"held\":\"exceeded\"})}),n(\"th\",{scope:\"row\",children:n(\"code\",{children:o.budget})}),n(\"td\",{children:o.subject===null?\"the whole evaluation\":n(\"code\",{children:o.subject})}),n(\"td\",{class:\"num\",children:Bt(o,o.limit,r,!0)}),n(\"td\",{class:\"num\",children:[Bt(o,o.actual,r,!1),o.baseline!==void 0&&o.baseline!==null?` (baseline ${Bt(o,o.baseline,r,!1)})`:\"\"]}),n(\"td\",{children:o.reason})]},l))})]})}function _o(){let{doc:e}=S(),{absolute:t,trends:s}=Ue(e),r=qe(e);return n(\"div\",{class:\"subsection\",id:\"telemetry-budgets\",children:[n(\"h3\",{children:\"Budgets\"}),t.length===0&&s.length===0&&n(\"p\",{class:\"muted\",children:\"No budget is set. budgets: in the YAML (or the max_* inputs) turns latency, tokens and cost into gates.\"}),r.length>0&&n(\"p\",{children:[n(_,{status:\"failed\",label:`${E(r.length,\"run\")} skipped`}),\" \",Rs(r[0].skipped?.detail,r.length>1),\". Not run:\",\" \",r.map(o=>`${o.case_id} · ${o.model} · ${o.prompt_name}`).join(\", \"),\".\"]}),t.length>0&&n(Ms,{checks:t,caption:\"Every budget checked against what was measured.\"}),s.length>0&&n(Ms,{checks:s,caption:\"Against the baseline.\"})]})}function $o({section:e,doc:t}){let s=e.overall,r=e.models.reduce((i,u)=>i+u.runs,0),o=s.cache,l=e.cost_sources,a=l.provider+l.pricing+l.unknown;return n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:\"Overall\"}),n(Y,{items:[[\"Wall clock\",`${F(s.wall_s)} for the whole evaluation`],[\"Runs\",r>0?E(r,\"run\"):null],[\"Agent loop (summed)\",F(s.runs_s)],[\"The model (summed)\",F(s.llm_s)],[\"The tools (summed)\",F(s.tool_s)],[\"The harness (summed)\",F(s.harness_s)],[\"Server start-up (summed)\",F(s.server_start_s)],[\"Judge (summed)\",F(s.judge_s)],[\"Tokens\",`${be(s.tokens.total)} (agent ${be(s.tokens.agent.total)}, judge ${be(s.tokens.judge.total)})`],[\"Cost\",`${Q(s.cost_usd.total)} (agent ${Q(s.cost_usd.agent)}, judge ${Q(s.cost_usd.judge)})`],[\"Spent\",o&&o.hits>0?`${Q(s.spent_usd)} of ${Q(s.cost_usd.total)} nominal`:Q(s.spent_usd)],[\"Cache\",o?o.hits>0?`${E(o.hits,\"replayed answer\")} saved ${E(o.saved_tokens,\"token\")}${o.saved_cost_usd===null?\"\":` (${Q(o.saved_cost_usd)})`}`:\"no answer was replayed from the cache\":null],[\"Where the costs come from\",a>0?`of ${E(a,\"LLM call\")}, ${l.provider} reported by the provider, ${l.pricing} from pricing:, ${l.unknown} unknown`:null]]}),l.unknown_models.length>0&&n(\"p\",{children:[n(_,{status:\"warning\",label:\"cost unknown\"}),\" for \",l.unknown_models.join(\", \"),\": the provider reported no cost and pricing: has no entry, so every total that includes\",\" \",l.unknown_models.length===1?\"it\":\"them\",\" is unknown (not $0).\"]}),r>0&&n($,{children:[n(\"h4\",{children:\"Where the time went\"}),n(\"p\",{children:[\"Agent loop \",F(s.runs_s),\" summed over \",E(r,\"run\"),\": the model \",F(s.llm_s),Ot(s.llm_s,s.runs_s),\", the tools \",F(s.tool_s),Ot(s.tool_s,s.runs_s),\", the harness (the rest) \",F(s.harness_s),Ot(s.harness_s,s.runs_s),\". Server start-up \",F(s.server_start_s),\", judge \",F(s.judge_s),\".\"]}),n(\"p\",{class:\"muted\",children:[\"Sums over runs overlap when runs are concurrent\",(t.config?.concurrency??1)>1?` (concurrency ${t.config?.concurrency})`:\"\",\": they can exceed the wall clock.\"]})]})]})}function Es({models:e,withPrompt:t,caption:s}){return n(\"table\",{class:\"models-table\",children:[n(\"caption\",{class:\"muted\",children:s}),n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Model\"}),t&&n(\"th\",{scope:\"col\",children:\"Prompt\"}),n(\"th\",{scope:\"col\",children:\"Runs\"}),n(\"th\",{scope:\"col\",children:\"Run p50 / p95\"}),n(\"th\",{scope:\"col\",children:\"LLM call p50 / p95\"}),n(\"th\",{scope:\"col\",children:\"Tool calls per run\"}),n(\"th\",{scope:\"col\",children:\"Tokens per run p50 / p95\"}),n(\"th\",{scope:\"col\",children:\"Agent cost per run\"}),n(\"th\",{scope:\"col\",children:\"Agent cost\"}),n(\"th\",{scope:\"col\",children:\"Judge tokens\"}),n(\"th\",{scope:\"col\",children:\"Judge cost\"})]})}),n(\"tbody\",{children:e.map(r=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:n(\"code\",{children:r.model})}),t&&n(\"td\",{children:r.prompt_name}),n(\"td\",{class:\"num\",children:r.runs}),n(\"td\",{class:\"num\",children:It(r.run_s,F)}),n(\"td\",{class:\"num\",children:It(r.turn_ms,A)}),n(\"td\",{class:\"num\",children:r.tool_calls_per_run===null?\"—\":String(Math.round(r.tool_calls_per_run*10)/10)}),n(\"td\",{class:\"num\",children:It(r.tokens_per_run,be)}),n(\"td\",{class:\"num\",children:r.runs>0?Q(r.cost_usd.per_run):\"—\"}),n(\"td\",{class:\"num\",children:r.runs>0?Q(r.cost_usd.total):\"—\"}),n(\"td\",{class:\"num\",children:be(r.judge.tokens.total)}),n(\"td\",{class:\"num\",children:r.judge.tokens.total===0?\"—\":Q(r.judge.cost_usd)})]},`${r.model} ${r.prompt_name??\"\"}`))})]})}function bo({tools:e}){let t=e.some(s=>s.faulted>0);return n(\"table\",{class:\"tools-table\",children:[n(\"caption\",{class:\"muted\",children:[\"Latency and result size: nearest-rank percentiles over each tool's calls that reached the server, behaviour runs and tool tests\",t?\"; faulted: calls a Layer 2 fault replaced or delayed, counted apart and measured nowhere\":\"\",\".\"]}),n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Tool\"}),n(\"th\",{scope:\"col\",children:\"Calls\"}),n(\"th\",{scope:\"col\",children:\"Errors\"}),t&&n(\"th\",{scope:\"col\",children:\"Faulted\"}),n(\"th\",{scope:\"col\",children:\"p50\"}),n(\"th\",{scope:\"col\",children:\"p95\"}),n(\"th\",{scope:\"col\",children:\"max\"}),n(\"th\",{scope:\"col\",children:\"Result p50\"}),n(\"th\",{scope:\"col\",children:\"Result p95\"})]})}),n(\"tbody\",{children:e.map(s=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:n(\"code\",{children:s.name})}),n(\"td\",{class:\"num\",children:s.calls.toLocaleString(\"en-US\")}),n(\"td\",{class:\"num\",children:s.errors.toLocaleString(\"en-US\")}),t&&n(\"td\",{class:\"num\",children:s.faulted.toLocaleString(\"en-US\")}),n(\"td\",{class:\"num\",children:A(s.latency_ms.p50)}),n(\"td\",{class:\"num\",children:A(s.latency_ms.p95)}),n(\"td\",{class:\"num\",children:A(s.latency_ms.max)}),n(\"td\",{class:\"num\",children:As(s.result_bytes.p50)}),n(\"td\",{class:\"num\",children:As(s.result_bytes.p95)})]},s.name))})]})}function js(){let{doc:e}=S(),t=e.telemetry;if(!t)return null;let s=ho(e),r=t.models.filter(l=>l.prompt_name===null),o=new Set(t.model_prompts.map(l=>l.prompt_name));return n(U,{id:\"telemetry\",title:\"Telemetry and budgets\",children:[s&&n(\"p\",{class:\"section-verdict\",children:n(_,{status:s.passed?\"passed\":\"failed\",label:s.words})}),n($o,{section:t,doc:e}),r.length>0&&n(\"div\",{class:\"subsection\",id:\"telemetry-models\",children:[n(\"h3\",{children:\"Models\"}),n(\"div\",{class:\"chart-and-table\",children:[n(Lt,{title:\"Cost per model (USD), the agent's and the judge's\",series:[\"agent\",\"judge\"],missing:\"unknown\",format:xe,rows:r.map(l=>({label:l.model,value:l.runs>0?l.cost_usd.total:null,second:l.judge.tokens.total===0?0:l.judge.cost_usd}))}),n(Es,{models:r,withPrompt:!1,caption:\"Per model: run and LLM call times, tool calls, tokens and cost (the judge's counted apart).\"})]}),o.size>1&&n($,{children:[n(\"h4\",{children:\"Per model and system prompt\"}),n(Es,{models:t.model_prompts,withPrompt:!0,caption:\"Per model and system prompt.\"})]})]}),t.tools.length>0&&n(\"div\",{class:\"subsection\",id:\"telemetry-tools\",children:[n(\"h3\",{children:\"Tools\"}),n(\"div\",{class:\"chart-and-table\",children:[n(Lt,{title:\"Latency per tool (ms), p50 and p95\",series:[\"p50\",\"p95\"],format:A,rows:t.tools.map(l=>({label:l.name,value:l.latency_ms.p50,second:l.latency_ms.p95}))}),n(bo,{tools:t.tools})]})]}),n(_o,{})]})}function Fs(e,t){if(e.status===\"skipped\")return\"⚠ skipped: nothing was rendered or checked\";let s=t.filter(o=>Z(o)===\"failed\").length;if(s>0)return`✗ ${s} of ${H(t.length,\"render\")} failed`;let r=t.filter(o=>o.visual_diff?.changed).length;return r>0?`◐ ${H(r,\"screenshot\")} changed, for review`:t.length===0?\"✓ nothing to render\":`✓ ${H(t.length,\"render\")} passed`}var yo={failed:[\"failed\",\"failed\"],review:[\"warning\",\"for review\"],warning:[\"warning\",\"warning\"],passed:[\"passed\",\"passed\"],\"not-done\":[\"skipped\",\"not rendered\"]},Ns={failed:[\"failed\",\"failed\"],review:[\"warning\",\"review\"],warning:[\"warning\",\"warning\"],passed:[\"passed\",\"passed\"],skipped:[\"skipped\",\"skipped\"]},Ps=[\"failed\",\"review\",\"warning\",\"skipped\",\"passed\"];function ko({placed:e}){let{place:t}=e,s=t.kind===\"run\"?`#${z(t.run)}`:`#${et(t.test.id)}`;return n(\"a\",{href:s,children:Xe(t)})}function xo({render:e}){if(e.findings.length===0)return null;let t=[...e.findings].sort((s,r)=>Ps.indexOf(s.status)-Ps.indexOf(r.status));return n(\"div\",{class:\"app-findings\",children:[n(\"h4\",{children:\"Findings\"}),n(\"ul\",{children:t.map(s=>{let[r,o]=Ns[s.status]??[\"neutral\",s.status];return n(\"li\",{class:`app-finding finding-${s.status}`,children:[n(_,{status:r,label:o}),\" \",n(\"code\",{children:s.id}),\" — \",s.message,s.evidence.length>0&&s.status!==\"passed\"&&n(P,{label:`Evidence (${E(s.evidence.length,\"line\")})`,children:n(T,{text:s.evidence.join(`\n`),label:`Evidence of ${s.id}`})})]},s.id)})})]})}function vo({render:e}){return e.actions.length===0&&e.assertions.length===0?null:n(\"div\",{class:\"app-test\",children:[e.actions.length>0&&n($,{children:[n(\"h4\",{children:\"Actions\"}),n(\"ul\",{children:e.actions.map((t,s)=>n(\"li\",{children:[n(_,{status:t.passed?\"passed\":\"failed\"}),\" \",t.action,\" \",n(\"code\",{children:t.selector}),t.action===\"fill\"&&t.value!==void 0&&n($,{children:[\" \",\"with \",n(\"code\",{children:t.value})]}),t.error&&n($,{children:[\" — \",t.error]})]},s))})]}),e.assertions.length>0&&n($,{children:[n(\"h4\",{children:\"Assertions\"}),n(\"ul\",{children:e.assertions.map((t,s)=>n(\"li\",{children:[n(_,{status:t.passed?\"passed\":\"failed\"}),\" \",n(\"code\",{children:t.check}),t.target&&n($,{children:[\" \",n(\"code\",{children:t.target})]}),t.score!==void 0&&t.score!==null&&` · judge ${t.score}/10`,\" — \",t.reason,!t.passed&&n(\"div\",{class:\"expected-actual\",children:[n(P,{label:\"Expected\",children:n(B,{value:t.expected,label:`Expected by ${t.check}`})}),n(P,{label:\"Actual\",children:n(B,{value:t.actual,label:`Actual for ${t.check}`})})]})]},s))})]})]})}function Ro({render:e}){let{tool_calls:t,resource_reads:s,host_requests:r}=e;return n(\"div\",{class:\"app-requests\",children:[t.length>0&&n($,{children:[n(\"h4\",{children:\"Tool calls from the view\"}),n(\"ul\",{children:t.map((o,l)=>n(\"li\",{children:[n(_,{status:o.refused===null&&!o.is_error?\"passed\":\"failed\"}),\" \",n(\"code\",{children:o.name}),\" \",n(\"code\",{children:Et(o.args)}),\" —\",\" \",o.refused!==null?`refused: ${o.refused}`:o.is_error?`error: ${o.result}`:`answered in ${A(o.latency_ms)}`]},l))})]}),s.length>0&&n($,{children:[n(\"h4\",{children:\"Resources read by the view\"}),n(\"ul\",{children:s.map((o,l)=>n(\"li\",{children:[n(_,{status:o.error===null?\"passed\":\"failed\"}),\" \",n(\"code\",{children:o.uri}),o.error&&n($,{children:[\" — \",o.error]})]},l))})]}),r.length>0&&n($,{children:[n(\"h4\",{children:\"Other requests to the host\"}),n(\"p\",{class:\"muted\",children:\"Recorded and answered as a host does; links never opened.\"}),n(\"ul\",{children:r.map((o,l)=>n(\"li\",{children:[n(\"code\",{children:o.method}),\" \",n(\"code\",{children:Et(o.params)})]},l))})]}),e.blocked_requests.length>0&&n(P,{label:`Blocked by the CSP (${e.blocked_requests.length})`,children:n(T,{text:e.blocked_requests.join(`\n`),label:\"Requests blocked by the CSP\"})}),e.console_errors.length>0&&n(P,{label:`Console errors (${e.console_errors.length})`,children:n(T,{text:e.console_errors.join(`\n`),label:\"Console errors\"})})]})}function wo({render:e}){let t=e.visual_diff;return t?t.changed?n(\"div\",{class:\"visual-diff\",children:[n(\"p\",{children:[n(_,{status:\"warning\",label:\"screenshot changed\"}),\" since the baseline: \",W(t.changed_ratio),\" of the pixels differ.\"]}),n(\"div\",{class:\"pictures\",children:[n($e,{path:t.baseline,alt:`the baseline's screenshot of ${e.id}`}),t.diff&&n($e,{path:t.diff,alt:`the pixels that differ in ${e.id}`})]})]}):n(\"p\",{children:[\"Screenshot unchanged since the baseline (\",W(t.changed_ratio),\" of the pixels differ).\"]}):null}function So(e){let t=e.csp;if(t===null)return\"none declared (the default: no network)\";let s=r=>r.length===0?\"none\":r.join(\", \");return`connect ${s(t.connect_domains)}; resources ${s(t.resource_domains)}`}function Ds({placed:e}){let{route:t}=S(),{render:s}=e,r=_e(s),o=Z(s),[l,a]=yo[o];return n(he,{id:r,class:`app-render standing-${o}`,open:o===\"failed\"||o===\"review\"||t===r,summary:n($,{children:[n(_,{status:l,label:a}),\" \",n(\"code\",{children:s.tool}),\" · \",Xe(e.place),o!==\"passed\"&&n($,{children:[\" — \",ge(s)]})]}),children:()=>n($,{children:[n(Y,{items:[[\"Where\",n(ko,{placed:e})],[\"Render\",n(\"code\",{children:s.id})],[\"Resource\",n(\"code\",{children:s.resource_uri})],[\"Viewport\",`${s.viewport.width}×${s.viewport.height}`],[\"Initialized\",s.initialized_ms===null?\"never initialized\":`in ${A(s.initialized_ms)}`],[\"Time\",`${A(s.duration_ms)} in all`],[\"CSP\",So(s)]]}),s.status!==\"rendered\"&&n(\"p\",{children:[n(_,{status:s.status===\"error\"?\"failed\":\"skipped\",label:s.status===\"error\"?\"not rendered\":s.status}),\" \",s.reason??\"no reason recorded\"]}),s.screenshot!==null&&n($e,{path:s.screenshot,alt:`screenshot of ${s.tool} (${s.id})`}),n(wo,{render:s}),n(xo,{render:s}),n(vo,{render:s}),n(Ro,{render:s})]})})}function To({section:e}){let t=bt.filter(r=>e.findings[r]&&Object.values(e.findings[r]).some(o=>(o??0)>0));if(t.length===0)return null;let s=[\"failed\",\"review\",\"warning\",\"passed\",\"skipped\"];return n(\"table\",{class:\"app-findings-table\",children:[n(\"caption\",{class:\"muted\",children:\"Findings by id, over every render.\"}),n(\"thead\",{children:n(\"tr\",{children:[n(\"th\",{scope:\"col\",children:\"Finding\"}),s.map(r=>n(\"th\",{scope:\"col\",children:n(_,{status:Ns[r][0],label:r})},r))]})}),n(\"tbody\",{children:t.map(r=>n(\"tr\",{children:[n(\"th\",{scope:\"row\",children:n(\"code\",{children:r})}),s.map(o=>n(\"td\",{class:\"num\",children:e.findings[r][o]||\"—\"},o))]},r))})]})}function Ls(){let{doc:e}=S(),t=e.apps;if(!t)return null;let s=Ft(e),r=s.map(c=>c.render),o=Fs(t,r),l=[...s].sort((c,m)=>Pt(c.render,m.render)),a=l.filter(c=>Z(c.render)!==\"passed\"),i=l.filter(c=>Z(c.render)===\"passed\"),u=t.status===\"skipped\"?\"warning\":o.startsWith(\"✗\")?\"failed\":o.startsWith(\"◐\")?\"warning\":\"passed\";return n(U,{id:\"apps\",title:\"MCP Apps\",children:[n(\"p\",{class:\"section-verdict\",children:n(_,{status:u,label:o.replace(/^[✗◐✓⚠]\\s*/,\"\")})}),t.status===\"skipped\"?n(\"p\",{children:[\"Not rendered: \",(t.reason??\"the browser layer was skipped\").replace(/\\.$/,\"\"),\". \",E(r.length,\"render\"),\" asked for \",r.length===1?\"was\":\"were\",\" not done: no app finding was checked, and none counts as passed.\"]}):n(Y,{items:[[\"Browser\",t.browser?`${t.browser.version} (${t.browser.path}, ${t.browser.source===\"input\"?\"the chrome_path input\":t.browser.source===\"env\"?\"CHROME_PATH\":\"found by the search\"})`:\"ran\"],[\"Renders\",`${E(t.renders,\"render\")}, ${t.failed} failed`],[\"Visual diff\",`${t.visual_diff===\"fail\"?\"fails\":\"for review\"} over ${W(t.visual_threshold)} of the pixels`]]}),n(To,{section:t}),a.length>0&&n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:[t.status===\"skipped\"?\"Renders not done\":\"Renders to look at\",\" (\",a.length,\")\"]}),a.map(c=>n(Ds,{placed:c},c.render.id))]}),i.length>0&&n(\"div\",{class:\"subsection\",children:[n(\"h3\",{children:[\"Passed (\",i.length,\")\"]}),i.map(c=>n(Ds,{placed:c},c.render.id))]})]})}var Ht=()=>decodeURIComponent(location.hash.replace(/^#/,\"\"));function Co(e){let t=/^run-(\\d+)(?:-[a-z0-9-]+)?$/.exec(e);return t?Number(t[1]):null}function Ao(e){let{doc:t}=e,s=[[\"overview\",\"Overview\"]];return t.runs.length>0&&s.push([\"runs\",\"Runs\"]),t.conformance&&s.push([\"conformance\",\"Conformance\"]),t.tool_tests&&s.push([\"tool-tests\",\"Tool tests\"]),(t.summary.resilience||t.runs.some(r=>r.security||r.recovery))&&s.push([\"resilience\",\"Resilience\"]),t.telemetry&&s.push([\"telemetry\",\"Telemetry\"]),t.apps&&s.push([\"apps\",\"MCP Apps\"]),s}function Is({data:e}){let[t,s]=K(Ht()),[r,o]=K({});ae(()=>{let c=()=>s(Ht());return addEventListener(\"hashchange\",c),()=>removeEventListener(\"hashchange\",c)},[]),ae(()=>{if(!t)return;let c=document.getElementById(t);c&&(c.scrollIntoView({block:\"start\"}),c instanceof HTMLElement&&/^H[1-6]$/.test(c.tagName)&&c.focus({preventScroll:!0}))},[t]);let l=ee(()=>({doc:e.doc,view:e.view,filter:r,setFilter:o,route:t,go:c=>{Ht()===c?s(c):location.hash=c}}),[e,r,t]),a=Co(t),i=a===null?void 0:e.doc.runs.find(c=>c.index===a),u=Ao(e);return n(gt.Provider,{value:l,children:[n(\"a\",{class:\"skip-link\",href:\"#main\",children:\"Skip to the report\"}),n(\"header\",{class:\"page-header\",children:[n(\"h1\",{class:`verdict verdict-${e.view.verdict_kind}`,children:e.view.title}),n(\"p\",{class:\"headline\",children:e.view.headline})]}),n(\"nav\",{\"aria-label\":\"Sections\",class:\"page-nav\",children:n(\"ul\",{children:u.map(([c,m])=>n(\"li\",{children:n(\"a\",{href:`#${c}`,children:m})},c))})}),n(\"main\",{id:\"main\",tabIndex:-1,children:i?n(rs,{run:i}):n($,{children:[n(xn,{}),e.doc.runs.length>0&&n(jn,{}),e.doc.conformance&&n(ds,{}),e.doc.tool_tests&&n($s,{}),u.some(([c])=>c===\"resilience\")&&n(xs,{}),e.doc.telemetry&&n(js,{}),e.doc.apps&&n(Ls,{})]})}),n(\"footer\",{class:\"page-footer\",children:n(\"p\",{children:[e.view.generator,\" · started \",e.doc.started_at,\" · results document version \",e.doc.version]})})]})}var Mo=document.getElementById(\"report-data\"),Os=JSON.parse(Mo?.textContent??\"null\"),Bs=document.getElementById(\"app\");Os&&Bs&&(en(n(Is,{data:Os}),Bs),document.documentElement.dataset.ready=\"true\");})();";
const VIEWER_CSS = ":root{color-scheme:light dark;--bg: #ffffff;--fg: #1f2328;--muted: #59636e;--border: #d1d9e0;--panel: #f6f8fa;--link: #0550ae;--pass: #116329;--pass-bg: #dafbe1;--fail: #a40e26;--fail-bg: #ffebe9;--warn: #7d4e00;--warn-bg: #fff8c5;--skip: #59636e;--skip-bg: #eff2f5;--focus: #0969da;font-family:system-ui,-apple-system,Segoe UI,Roboto,Helvetica Neue,Arial,sans-serif;font-size:15px;line-height:1.45}@media(prefers-color-scheme:dark){:root{--bg: #0d1117;--fg: #e6edf3;--muted: #9198a1;--border: #3d444d;--panel: #151b23;--link: #4493f8;--pass: #3fb950;--pass-bg: #12261e;--fail: #ff7b72;--fail-bg: #2d1215;--warn: #d29922;--warn-bg: #272115;--skip: #9198a1;--skip-bg: #21262d;--focus: #4493f8}}*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg)}a{color:var(--link)}:focus-visible{outline:2px solid var(--focus);outline-offset:2px}pre,code{font-family:ui-monospace,SFMono-Regular,SF Mono,Menlo,Consolas,Liberation Mono,monospace;font-size:.9em}pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0;padding:.5rem;background:var(--panel);border:1px solid var(--border);border-radius:4px;max-height:32rem;overflow:auto}table{border-collapse:collapse}th,td{border:1px solid var(--border);padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:var(--panel)}.skip-link{position:absolute;left:-10000px}.skip-link:focus{left:.5rem;top:.5rem;background:var(--bg);padding:.25rem .5rem;z-index:10}.page-header,main,.page-footer,.page-nav{max-width:80rem;margin:0 auto;padding:0 1rem}.page-header h1{margin:1rem 0 .25rem;font-size:1.6rem}.headline{margin:0 0 .5rem;color:var(--muted)}.page-nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:.5rem 0;border-bottom:1px solid var(--border)}.page-footer{color:var(--muted);font-size:.85rem;border-top:1px solid var(--border);margin-top:2rem}.section{margin:1.5rem 0}.section>h2{font-size:1.3rem;border-bottom:1px solid var(--border);padding-bottom:.25rem}.verdict-passed{color:var(--pass)}.verdict-failed{color:var(--fail)}.status{display:inline-block;padding:0 .35rem;border-radius:3px;font-weight:600;white-space:nowrap}.status-pass{color:var(--pass);background:var(--pass-bg)}.status-fail{color:var(--fail);background:var(--fail-bg)}.status-warn{color:var(--warn);background:var(--warn-bg)}.status-skip,.status-neutral{color:var(--skip);background:var(--skip-bg)}.cut-mark{color:var(--muted);font-style:italic}.link-button{background:none;border:none;padding:0;color:var(--link);cursor:pointer;text-decoration:underline;font:inherit}.muted{color:var(--muted)}.gate-reasons{margin:.25rem 0 .75rem}.layers th[scope=row]{font-weight:600}.changes-metrics .num{text-align:right;font-variant-numeric:tabular-nums}.delta-worse{color:var(--fail)}.delta-better{color:var(--pass)}.changed-groups{margin:.25rem 0}.figures{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;margin:.25rem 0 1rem}.figures>div{min-width:8rem}.figures dt{color:var(--muted);font-size:.85rem}.figures dd{margin:0;font-weight:600;font-variant-numeric:tabular-nums}.fatal{padding:.5rem;border:1px solid var(--fail);border-radius:4px;background:var(--fail-bg)}.matrix-wrap{overflow-x:auto}.matrix th[scope=col]{white-space:nowrap;font-weight:600}.matrix th[scope=row]{font-weight:400;white-space:nowrap}.matrix-prompt{color:var(--muted)}.matrix td{padding:0;text-align:center}.matrix-empty{color:var(--muted);padding:.25rem .5rem}.matrix-cell button{display:block;width:100%;min-width:5.5rem;padding:.3rem .5rem;border:0;font:inherit;font-weight:600;cursor:pointer;background:transparent;color:inherit;font-variant-numeric:tabular-nums;white-space:nowrap}.matrix-cell button:hover{text-decoration:underline}.matrix-cell button:focus-visible{outline:3px solid var(--focus);outline-offset:-3px}.tone-pass{background:var(--pass-bg);color:var(--pass)}.tone-fail{background:var(--fail-bg);color:var(--fail)}.tone-warn{background:var(--warn-bg);color:var(--warn)}.tone-skip,.tone-neutral{background:var(--skip-bg);color:var(--skip)}.matrix-legend{font-size:.85rem}.run-filters{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.5rem .75rem;margin:.5rem 0}.run-filter{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted)}.run-filter select,.run-filter input{font:inherit;font-size:.95rem;color:var(--fg);background:var(--bg);border:1px solid var(--border);border-radius:4px;padding:.2rem .35rem;max-width:16rem}.run-search input{width:18rem}.clear-filters{font:inherit;padding:.25rem .6rem;border:1px solid var(--border);border-radius:4px;background:var(--panel);color:var(--fg);cursor:pointer}.clear-filters:disabled{cursor:default;color:var(--muted)}.runs-count{font-weight:600;margin:.5rem 0}.run-list{list-style:none;margin:0;padding:0;border-top:1px solid var(--border)}.run-list li{border-bottom:1px solid var(--border)}.run-row{display:grid;grid-template-columns:9rem 3.5rem minmax(8rem,1.2fr) minmax(10rem,1.5fr) 4.5rem 10.5rem 4rem;grid-template-areas:\"status index case model attempt score time\" \". . reason reason reason reason reason\";gap:0 .5rem;padding:.3rem .25rem;color:var(--fg);text-decoration:none}.run-row:hover{background:var(--panel)}.run-row:hover .run-case code{text-decoration:underline}.run-row:focus-visible{outline-offset:-2px}.run-status{grid-area:status}.run-index{grid-area:index;color:var(--muted);font-variant-numeric:tabular-nums}.run-case{grid-area:case;overflow-wrap:anywhere;color:var(--link)}.run-model{grid-area:model;overflow-wrap:anywhere}.run-attempt{grid-area:attempt;color:var(--muted)}.run-score{grid-area:score;color:var(--muted)}.run-time{grid-area:time;text-align:right;font-variant-numeric:tabular-nums}.run-reason{grid-area:reason;color:var(--muted);font-size:.9rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.run-list-more{padding:.5rem 0}.run-list-more button{font:inherit;padding:.25rem .6rem;border:1px solid var(--border);border-radius:4px;background:var(--panel);color:var(--fg);cursor:pointer}@media(max-width:50rem){.run-row{grid-template-columns:auto 1fr;grid-template-areas:\"status case\" \"index model\" \"attempt score\" \"time reason\"}}.run-nav{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:1rem 0 .5rem}.run-page>h2{font-size:1.3rem;margin:.5rem 0;overflow-wrap:anywhere}.run-verdict-passed{color:var(--pass)}.run-verdict-failed,.run-verdict-error{color:var(--fail)}.run-verdict-cancelled,.run-verdict-skipped{color:var(--skip)}.run-facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.25rem 1rem;margin:.5rem 0 1rem}.run-facts div{display:flex;gap:.5rem;min-width:0}.run-facts dt{color:var(--muted);min-width:5rem}.run-facts dd{margin:0;overflow-wrap:anywhere}.run-reasons,.run-error,.run-cancelled,.run-skipped{border-left:4px solid var(--fail);background:var(--fail-bg);padding:.25rem .75rem;margin:.5rem 0}.run-cancelled,.run-skipped{border-left-color:var(--skip);background:var(--skip-bg)}.run-reasons ul{margin:.25rem 0;padding-left:1.25rem}.run-part{margin:1.25rem 0}.run-part>h3{font-size:1.1rem;border-bottom:1px solid var(--border);padding-bottom:.15rem}.label{font-weight:600;margin:.5rem 0 .15rem}.role{font-weight:600;margin:.25rem 0}.entry{margin:.5rem 0;padding-left:.75rem;border-left:3px solid var(--border)}.entry-user{border-left-color:var(--link)}.entry-assistant{border-left-color:var(--pass)}.tool-call{margin:.75rem 0;padding:.25rem .75rem .5rem;border:1px solid var(--border);border-radius:4px}.tool-call h4,.tool-call h5{margin:.25rem 0;font-size:1rem}.tool-call-error{border-color:var(--fail)}.call-facts{margin:.25rem 0}.call-fault,.call-attack,.call-cut,.call-evidence{margin:.25rem 0;padding:.15rem .5rem;background:var(--warn-bg);border-radius:3px}.call-evidence{background:var(--fail-bg)}.call-evidence ul{margin:.15rem 0}.input-rounds ol,.input-rounds ul{margin:.15rem 0;padding-left:1.25rem}.input-round>p,.exchange>p{margin:.15rem 0}.call-app,.app-shot{margin:.5rem 0}.app-shot img{max-width:100%;height:auto;border:1px solid var(--border)}.turn{margin:1rem 0;padding-left:.75rem;border-left:3px solid var(--border)}.turn h4{margin:.5rem 0 .15rem;font-size:1.05rem}.turn-facts{color:var(--muted);margin:0 0 .25rem}.oracle h4{margin:.75rem 0 .25rem;font-size:1rem}.evidence{margin:.15rem 0}.judge-reason{margin:.25rem 0;padding:.25rem .75rem;border-left:3px solid var(--border);white-space:pre-wrap;overflow-wrap:anywhere}.judge-steps{margin:.15rem 0}.metrics{margin:.5rem 0}.metrics caption{text-align:left;font-weight:600}.timeline{margin:.5rem 0}.timeline-chart{width:100%;height:auto;max-width:60rem;display:block;font-size:11px}.timeline-chart .lane-label{fill:var(--fg);font-weight:600}.timeline-chart .lane-rule{stroke:var(--border)}.timeline-chart .tick line{stroke:var(--border);stroke-dasharray:2 3}.timeline-chart .tick text{fill:var(--muted)}.timeline-chart .bar rect{stroke:var(--fg);stroke-width:.5}.timeline-chart .bar-server rect{fill:var(--skip)}.timeline-chart .bar-llm rect{fill:var(--link)}.timeline-chart .bar-sampling rect{fill:var(--link);opacity:.6;stroke-dasharray:3 2}.timeline-chart .bar-tool rect{fill:var(--pass)}.timeline-chart .bar-judge rect{fill:var(--warn)}.timeline-chart .bar-marked rect{stroke:var(--warn);stroke-width:2}.timeline-chart .bar-error rect{fill:var(--fail);stroke-dasharray:3 2;stroke-width:1.5}.timeline-chart .bar-tool{cursor:pointer}.timeline-table table{margin:.25rem 0}.section-verdict{font-size:1.05rem;margin:.5rem 0}.subsection{margin:1rem 0}.subsection>h3{font-size:1.1rem;margin:1rem 0 .5rem}.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.5rem 0}.fact{display:contents}.facts dt{color:var(--muted);font-weight:600}.facts dd{margin:0;overflow-wrap:anywhere}.section details{border:1px solid var(--border);border-radius:4px;margin:.35rem 0;background:var(--bg)}.section details>summary{cursor:pointer;padding:.35rem .5rem;overflow-wrap:anywhere}.section details[open]>summary{border-bottom:1px solid var(--border);background:var(--panel)}.fold-body{padding:.5rem .75rem}.evidence{margin:.4rem 0}.evidence-label{margin:.2rem 0 0;font-weight:600;font-size:.9rem}.expected-actual{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:0 1rem}.steps,.assertions,.entries,.failed-cells,.app-findings ul,.app-test ul,.app-requests ul{padding-left:1.25rem}.step{margin:.5rem 0}.step>p{margin:.2rem 0}.attempt h4,.app-render h4,.subsection h4{margin:.75rem 0 .25rem;font-size:1rem}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.section table{margin:.5rem 0}.section caption{caption-side:bottom;text-align:left;font-size:.85rem;padding-top:.25rem}.tool-tests-table th[scope=row],.budgets-table th[scope=row],.models-table th[scope=row],.tools-table th[scope=row],.resilience-matrix th[scope=row],.app-findings-table th[scope=row]{font-weight:400;background:none}.res-cell{min-width:9rem}.res-cell.cell-fail{background:var(--fail-bg)}.res-cell.cell-pass{background:var(--pass-bg)}.res-cell .status{background:none;padding:0}.chart-and-table{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}.chart-and-table>table{flex:1 1 30rem;min-width:0}.chart{margin:.5rem 0;flex:0 1 auto;max-width:100%;min-width:0}.bar-chart{display:block;max-width:100%;height:auto;font-size:12px}.bar-chart text{fill:var(--fg)}.chart-bar.series-0 rect,.legend-swatch.series-0{fill:var(--link);background:var(--link)}.chart-bar.series-1 rect,.legend-swatch.series-1{fill:var(--warn);background:var(--warn)}.legend-swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;vertical-align:middle}.picture{margin:.5rem 0}.picture img{display:block;max-width:min(100%,40rem);height:auto;border:1px solid var(--border);background:#fff}.pictures{display:flex;flex-wrap:wrap;gap:1rem}.picture-missing{font-style:italic}.unreachable{border-left:4px solid var(--fail);padding-left:.75rem}.skip-group>p{margin:.5rem 0 .25rem}";

// EXTERNAL MODULE: ./src/report/metric-labels.ts
var metric_labels = __webpack_require__(21754);
// EXTERNAL MODULE: ./src/report/timestamp.ts
var timestamp = __webpack_require__(19994);
// EXTERNAL MODULE: ./src/report/conformance.ts
var conformance = __webpack_require__(60555);
;// CONCATENATED MODULE: ./src/report/html/plain.ts
/**
 * The report's Markdown phrases (a headline built with escapeMarkdown and `**`) as the plain text
 * they show: the HTML report inserts text, never markup, so it needs the characters back.
 */
function markdownPhraseToText(markdown) {
    return markdown
        .replace(/^>\s?/, '')
        .replace(/\*\*/g, '')
        .replace(/\\([\\`*_{}[\]()#+\-.!|~=])/g, '$1')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
}

;// CONCATENATED MODULE: ./src/report/html/view.ts










/** Each layer's status in the order they run: conformance, tool tests, behaviour, resilience, telemetry, MCP Apps. */
function layerStatuses(doc) {
    const out = [];
    const c = doc.conformance;
    if (c) {
        const status = c.era === 'unreachable' ? 'failed' : !c.passed ? 'failed' : c.checks.some((k) => k.status === 'warn') ? 'warning' : 'passed';
        out.push({ id: 'conformance', name: 'Protocol conformance', status, detail: c.era === 'unreachable' ? 'the server could not be reached' : (0,conformance/* checkTally */.tL)(c), anchor: 'conformance' });
    }
    const t = doc.tool_tests;
    if (t) {
        out.push({
            id: 'tool-tests',
            name: 'Tool tests',
            status: t.status === 'skipped' ? 'skipped' : (0,verdict/* toolTestsPassed */.IT)(t) ? 'passed' : 'failed',
            detail: t.status === 'skipped' ? (t.reason ?? 'skipped') : `${t.passed}/${(0,words/* count */.U9)(t.total, 'tool test')} passed`,
            anchor: 'tool-tests'
        });
    }
    const s = doc.summary;
    if (doc.behaviour.status === 'skipped') {
        out.push({ id: 'behaviour', name: 'Behaviour runs', status: 'skipped', detail: doc.behaviour.reason ?? 'skipped', anchor: 'runs' });
    }
    else if (s.total > 0) {
        const behaviourPassed = doc.gate ? doc.gate.passed : s.passed === s.total;
        out.push({ id: 'behaviour', name: 'Behaviour runs', status: behaviourPassed ? 'passed' : 'failed', detail: `${s.passed}/${(0,words/* count */.U9)(s.total, 'run')} passed`, anchor: 'runs' });
    }
    if (s.resilience) {
        const r = s.resilience;
        const parts = [r.recovery_rate === null ? '' : `recovery ${Math.round(r.recovery_rate * 100)}%`, r.attack_resistance === null ? '' : `attack resistance ${Math.round(r.attack_resistance * 100)}%`].filter(Boolean);
        out.push({ id: 'resilience', name: 'Resilience and security', status: (0,verdict/* resiliencePassed */.KO)(r) ? 'passed' : 'failed', detail: parts.join(', ') || 'no fault fired, no attack delivered', anchor: 'resilience' });
    }
    if (doc.telemetry) {
        const spent = doc.telemetry.overall.spent_usd;
        out.push({ id: 'telemetry', name: 'Telemetry and budgets', status: (0,verdict/* telemetryPassed */.SE)(doc) ? 'passed' : 'failed', detail: `${doc.telemetry.overall.wall_s.toFixed(1)} s${spent === null ? '' : ` · $${spent.toFixed(4)} spent`}`, anchor: 'telemetry' });
    }
    if (doc.apps) {
        const a = doc.apps;
        out.push({
            id: 'apps',
            name: 'MCP Apps',
            status: a.status === 'skipped' ? 'skipped' : a.failed > 0 ? 'failed' : 'passed',
            detail: a.status === 'skipped' ? (a.reason ?? 'skipped') : `${(0,words/* count */.U9)(a.renders, 'render')}, ${a.failed} failed`,
            anchor: 'apps'
        });
    }
    return out;
}
/** The paths of the pictures the document names: MCP Apps screenshots, their baselines and diffs. */
function imagePaths(doc) {
    const paths = (0,app_findings/* appRendersOf */.uY)(doc).flatMap(({ render: r }) => [r.screenshot, r.visual_diff?.baseline ?? null, r.visual_diff?.diff ?? null]);
    return [...new Set(paths.filter((p) => typeof p === 'string' && p !== ''))];
}
/** The metric's words as text (metricLabel escapes an unknown name for Markdown; here it stays as it is). */
function metricText(name) {
    const known = ['pass_rate', 'group_pass_rate', 'recovery_rate', 'attack_resistance'].includes(name) || metric_labels/* METRIC_LABELS */.t.some(([key]) => key === name);
    return known ? (0,metric_labels/* metricLabel */.B)(name) : name;
}
/** What changed since the baseline, as renderWhatChanged words it: the metrics that moved, the worse first; cost and median run. */
function changesView(doc) {
    const { gate, changes } = doc;
    if (!gate || !changes)
        return undefined;
    const moved = gate.metrics.map((m) => ({ m, delta: (0,words/* pointsChange */.Y_)(m.baseline, m.current, m.lower_is_better ? 'lower' : 'higher') }));
    const shown = moved.filter((x) => x.delta.moved || x.m.failed);
    const ordered = [...shown.filter((x) => x.delta.worse !== false), ...shown.filter((x) => x.delta.worse === false)];
    const figure = (name, before, after, shownAs) => {
        if (before === null || after === null)
            return [];
        const delta = (0,words/* relativeChange */.N0)(before, after, 'lower', shownAs);
        return [`${name}: ${delta.moved ? `${shownAs(before)} → ${shownAs(after)} (${delta.text})` : `${shownAs(after)}, unchanged`}`];
    };
    return {
        baseline: gate.baseline ? `${gate.baseline.source} (${(0,timestamp/* formatTimestamp */.E)(gate.baseline.started_at)})` : 'unknown',
        metrics: ordered.map(({ m, delta }) => ({
            label: `${metricText(m.name)}${m.lower_is_better ? ' (lower is better)' : ''}`,
            baseline: (0,words/* percent */.KN)(m.baseline),
            current: (0,words/* percent */.KN)(m.current),
            delta: delta.text,
            worse: delta.worse,
            failed: gate.mode !== 'absolute' && m.failed
        })),
        unchanged: moved.filter((x) => !shown.includes(x)).map(({ m }) => `${metricText(m.name)} ${(0,words/* percent */.KN)(m.current)}`),
        figures: [...figure('Cost', changes.cost_usd.baseline, changes.cost_usd.current, words/* usd */.dR), ...figure('Median run', changes.median_run_s.baseline, changes.median_run_s.current, words/* seconds */.YA)]
    };
}
/** Everything the page derives from the document, in the report's own words. */
function deriveView(doc, readImage = () => null) {
    const verdict = (0,headline/* verdictWords */.L2)(doc);
    const run_reasons = {};
    for (const run of doc.runs)
        if (run.status !== 'passed')
            run_reasons[String(run.index)] = (0,report_reasons/* failureReasons */.O)(run);
    const images = {};
    for (const path of imagePaths(doc)) {
        const bytes = readImage(path);
        if (bytes && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
            images[path] = `data:image/png;base64,${bytes.toString('base64')}`;
    }
    return {
        title: `Eval Report — ${verdict}`,
        verdict,
        verdict_kind: verdict.startsWith('✓') ? 'passed' : verdict.startsWith('✗') ? 'failed' : 'neutral',
        headline: markdownPhraseToText((0,headline/* headerLine */.iH)(doc, { gate: true })),
        layers: layerStatuses(doc),
        run_reasons,
        images,
        generator: `${version/* TOOL_NAME */.l} ${version/* TOOL_VERSION */.w}`,
        changes: changesView(doc)
    };
}

;// CONCATENATED MODULE: ./src/report/html/render.ts



/** The id of the element that holds the embedded data; the page's script reads it. */
const DATA_ELEMENT_ID = 'report-data';
const escapeText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/**
 * The embedded data, `{ view, doc }`, as JSON for the data element, in pieces: the document
 * without its runs, then each run on its own, so a document of 10,000 runs is never one more
 * string of its whole size (the runs come last in the object; JSON.parse does not mind).
 */
function* dataChunks(data) {
    const { runs, ...rest } = data.doc;
    const head = jsonForScript(rest);
    yield `{"view":${jsonForScript(data.view)},"doc":${head.slice(0, -1)}${head === '{}' ? '' : ','}"runs":[`;
    for (let i = 0; i < runs.length; i++)
        yield `${i === 0 ? '' : ','}${jsonForScript(runs[i])}`;
    yield ']}}';
}
/**
 * eval-report.html: one self-contained page (inline style and script, no network, opens from
 * file://) that shows the results document — the overview, every run with its timeline, each
 * layer's section and the pictures. The document is embedded as JSON and every string of it is
 * inserted as text by the page, never as HTML. Pure: the pictures come through `readImage`.
 * In pieces, for a writer that streams them to the file; renderHtmlReport joins them.
 */
function* htmlReportChunks(doc, options = {}) {
    const view = deriveView(doc, options.readImage);
    yield [
        '<!doctype html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="utf-8">',
        `<meta http-equiv="Content-Security-Policy" content="${reportCsp(VIEWER_JS, VIEWER_CSS)}">`,
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        `<meta name="generator" content="${escapeText(view.generator)}">`,
        `<title>${escapeText(view.title)}</title>`,
        `<style>${VIEWER_CSS}</style>`,
        '</head>',
        '<body>',
        // What a reader sees before the script has run, or where scripts are off.
        `<noscript><h1>${escapeText(view.title)}</h1><p>${escapeText(view.headline)}</p><p>This report needs JavaScript; the same results are in eval-report.md and eval-results.json.</p></noscript>`,
        '<div id="app"></div>',
        `<script type="application/json" id="${DATA_ELEMENT_ID}">`
    ].join('\n');
    yield* dataChunks({ view, doc });
    yield ['</script>', `<script>${VIEWER_JS}</script>`, '</body>', '</html>', ''].join('\n');
}
/** The whole page as one string (htmlReportChunks joined). */
function renderHtmlReport(doc, options = {}) {
    return [...htmlReportChunks(doc, options)].join('');
}

// EXTERNAL MODULE: ./src/output/app-files.ts
var app_files = __webpack_require__(85160);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: ./src/util/read-file.ts
var read_file = __webpack_require__(45201);
;// CONCATENATED MODULE: ./src/output/read-image.ts



/** The largest picture the HTML report inlines: a screenshot is a few hundred KiB; more is not one. */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/**
 * Reads the pictures a results document names (MCP Apps screenshots, baselines, diffs), whose
 * paths are relative to `root`, the output directory the host wrote `apps/` into. The names come
 * from a document (which `report --from` reads from anywhere), so a name that leaves the
 * directory — absolute, with a `..` step, or through a symbolic link that leads out — is refused,
 * and so is anything that is not a regular file or is larger than MAX_IMAGE_BYTES. A refused or
 * missing picture is null: the page shows it as absent.
 */
function imageReaderUnder(root) {
    let realRoot;
    return (path) => {
        if (typeof path !== 'string' || path === '' || path.includes('\0') || (0,external_node_path_.isAbsolute)(path) || /^[A-Za-z]:/.test(path))
            return null;
        if (path.split(/[\\/]/).some((step) => step === '..'))
            return null;
        try {
            realRoot ??= (0,external_node_fs_.realpathSync)(root || '.');
        }
        catch {
            realRoot = null;
        }
        if (realRoot === null)
            return null;
        let real;
        try {
            real = (0,external_node_fs_.realpathSync)((0,external_node_path_.join)(realRoot, path));
        }
        catch {
            return null; // not there
        }
        const within = (0,external_node_path_.relative)(realRoot, real);
        if (within === '' || within.startsWith(`..${external_node_path_.sep}`) || within === '..' || (0,external_node_path_.isAbsolute)(within))
            return null;
        try {
            return (0,read_file/* readBoundedBytes */.fX)(real, MAX_IMAGE_BYTES);
        }
        catch {
            return null; // not a regular file, or too large
        }
    };
}

// EXTERNAL MODULE: ./src/util/json.ts
var json = __webpack_require__(74976);
// EXTERNAL MODULE: ./src/util/redact.ts
var redact = __webpack_require__(50767);
// EXTERNAL MODULE: ./src/util/write-file.ts
var write_file = __webpack_require__(37238);
// EXTERNAL MODULE: ./src/aggregate/evals-v1-metrics.ts
var evals_v1_metrics = __webpack_require__(69808);
;// CONCATENATED MODULE: ./src/output/evals-v1-results.ts


/** Our assertion names as evals/v1 names its kinds (`is_error` was `executionError`, `output_schema` was `outputSchemaValid`). */
const KIND_OF = { is_error: 'executionError', output_schema: 'outputSchemaValid' };
/** The call's answer as the raw result evals/v1 kept (`{content, structuredContent, isError}`, a read's `{contents}`, a list); undefined for a JSON-RPC error or no answer. */
function outputOf(response) {
    if (response?.kind === 'value')
        return response.value;
    if (!response || response.kind !== 'result')
        return undefined;
    return { content: response.content, ...(response.structured_content !== null ? { structuredContent: response.structured_content } : {}), isError: response.is_error };
}
function checkResult(id, attempt) {
    const outcomes = attempt.steps.flatMap((step) => step.checks.map((c) => ({ kind: KIND_OF[c.check] ?? c.check, passed: c.passed, reason: c.reason })));
    const response = attempt.steps.at(-1)?.response ?? null;
    const error = attempt.error ?? (response?.kind === 'error' ? response.message : null);
    // Why the attempt could not finish, as the failed outcome evals/v1 adds for a call that threw.
    if (attempt.error !== null)
        outcomes.push({ kind: 'call', passed: false, reason: attempt.error });
    const output = outputOf(response);
    return {
        id,
        passed: attempt.status === 'passed',
        outcomes,
        durationMs: attempt.duration_ms,
        ...(output !== undefined ? { output } : {}),
        ...(error !== null ? { error } : {}),
        attempt: attempt.attempt
    };
}
/** Every golden check of the run and of its turns. */
const goldenChecks = (run) => [...(run.golden_assertions?.checks ?? []), ...(run.dialogue?.turns.flatMap((t) => t.golden_assertions?.checks ?? []) ?? [])];
const judgeHeld = (j) => j.error === null && j.score !== null && j.score >= j.threshold;
/** Which turn (0-based) each call of the run was made in; 0 for a single-turn run. */
function turnIndexOf(run, call) {
    const turn = run.dialogue?.turns.find((t) => call >= t.first_call && call < t.first_call + t.calls);
    return turn ? turn.index - 1 : 0;
}
/** A call as evals/v1 captured it: the result rebuilt from the record (the text it keeps, redacted and maybe cut; structuredContent where the record has it). */
function toolCall(run, call, i) {
    const structured = call.structured_content;
    const result = { content: [{ type: 'text', text: call.result }], ...(structured !== undefined ? { structuredContent: structured } : {}), isError: call.is_error };
    return { tool: call.name, args: call.args, turnIndex: turnIndexOf(run, i), result, ...(structured !== undefined ? { structuredContent: structured } : {}) };
}
/**
 * A run as a scenario result. Each of toolTracePassed, resultPassed and widgetPassed is computed
 * from its own checks (@mcp-use/evals copied `success` into the last two and guessed the first
 * from whether an error's text held "tool" or "args"): the tool expectations (required_tools,
 * the turns' `tools`, `forbidden_tools`, every other golden key), the `result` checks, the
 * `widget` checks; each true when there is none.
 */
function scenarioResult(run) {
    const golden = goldenChecks(run);
    const named = (names) => golden.filter((c) => names.includes(c.check)).every((c) => c.passed);
    const toolTrace = run.tool_assertions.passed && (run.dialogue?.turns.every((t) => t.tool_assertions?.passed ?? true) ?? true) && golden.filter((c) => c.check !== 'result' && c.check !== 'widget').every((c) => c.passed);
    const judges = [run.judge, ...(run.dialogue?.turns.map((t) => t.judge) ?? [])].filter((j) => j !== null);
    const judge = run.judge;
    const judgeReason = judge ? judge.error ?? judge.reason : '';
    return {
        scenarioId: run.case_id,
        client: types/* LOCAL_TARGET */.iy,
        model: run.model,
        systemPrompt: run.prompt_name,
        success: run.success,
        toolTracePassed: toolTrace,
        resultPassed: named(['result']),
        widgetPassed: named(['widget']),
        judgePassed: judges.length === 0 ? null : judges.every(judgeHeld),
        ...(judge?.score !== null && judge?.score !== undefined ? { judgeScore: judge.score } : {}),
        ...(judgeReason ? { judgeReason } : {}),
        toolCalls: run.tool_calls.map((call, i) => toolCall(run, call, i)),
        durationMs: Math.round(run.duration_s * 1000),
        agentSteps: (0,evals_v1_metrics/* agentStepsOf */.yO)(run),
        usage: (0,evals_v1_metrics/* usageOf */.Fs)(run),
        errors: (0,evals_v1_metrics/* runErrors */.d2)(run),
        attempt: run.attempt,
        status: run.status
    };
}
function notRun(run) {
    const reason = run.skipped?.detail ?? (run.cancelled ? `cancelled by ${run.cancelled.signal} while waiting for ${run.cancelled.waiting_for}` : run.actual_output);
    return { scenarioId: run.case_id, client: types/* LOCAL_TARGET */.iy, model: run.model, systemPrompt: run.prompt_name, attempt: run.attempt, status: run.status, reason };
}
/** results.json for an evals/v1 suite's document; `documentPath` is where our results document was written (undefined: it was not). */
function evalsV1Results(doc, documentPath) {
    return {
        suite: doc.evals_v1?.name ?? '',
        passed: doc.passed,
        checks: (0,evals_v1_metrics/* checkAttempts */.tA)(doc.tool_tests).map(({ test, attempt }) => checkResult(test.id, attempt)),
        scenarios: doc.runs.filter(evals_v1_metrics/* isScenarioRun */.cH).map(scenarioResult),
        metrics: (0,evals_v1_metrics/* evalsV1Metrics */.WB)(doc),
        document: documentPath ?? null,
        notRun: doc.runs.filter((run) => !(0,evals_v1_metrics/* isScenarioRun */.cH)(run)).map(notRun),
        notRunParts: doc.evals_v1?.not_run ?? []
    };
}

;// CONCATENATED MODULE: ./src/output/document-json.ts
/**
 * `${JSON.stringify(value, null, 2)}\n` in pieces: each entry of each top-level list (the runs,
 * the groups) one piece, every other top-level value one piece. At 10,000 runs the document's
 * text is a few hundred megabytes, and a file written from its pieces never needs it as one
 * string (nor the string's copy a write would make). Byte for byte the same text: a nested value
 * is its own JSON.stringify with every line break followed by its depth's indent (a JSON string
 * never holds a raw line break, so every one is between tokens).
 */
function* documentJsonPieces(value) {
    if (Array.isArray(value) || typeof value.toJSON === 'function') {
        yield `${JSON.stringify(value, null, 2)}\n`;
        return;
    }
    const entries = Object.entries(value).filter(([, v]) => written(v));
    if (entries.length === 0) {
        yield '{}\n';
        return;
    }
    let first = true;
    for (const [key, v] of entries) {
        const head = `${first ? '{' : ','}\n  ${JSON.stringify(key)}: `;
        first = false;
        if (Array.isArray(v) && v.length > 0) {
            yield `${head}[`;
            for (let i = 0; i < v.length; i++)
                yield `${i === 0 ? '' : ','}\n    ${nested(v[i], '    ')}`;
            yield '\n  ]';
        }
        else
            yield `${head}${nested(v, '  ')}`;
    }
    yield '\n}\n';
}
/** Whether JSON.stringify writes an object's key with this value (it leaves out undefined, functions and symbols). */
function written(v) {
    return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}
/** A value's JSON at a depth: its own lines after the first indented by `indent` (an array's hole or undefined is null, as in JSON.stringify). */
function nested(v, indent) {
    const text = JSON.stringify(v, null, 2) ?? 'null';
    return text.includes('\n') ? text.replaceAll('\n', `\n${indent}`) : text;
}

;// CONCATENATED MODULE: ./src/output/write-results.ts















/**
 * Every fraction to 12 significant digits, where the document is written: 8.7 / 10 is
 * 0.8700000000000001 in floating point and 0.87 in the document, while a cost of $0.0000012 keeps
 * its digits.
 */
function withoutFloatNoise(value) {
    // Copied only where a number changes: most of a document is strings and whole numbers.
    return (0,json/* mapJsonLeaves */.l)(value, (v) => (typeof v === 'number' && !Number.isInteger(v) && Number.isFinite(v) ? Number(v.toPrecision(12)) : v));
}
/** The report with `note` as a paragraph after its first line (the heading), or as it is without one. */
function withNote(report, note) {
    if (!note)
        return report;
    const end = report.indexOf('\n');
    return end < 0 ? `${report}\n\n${note}\n` : `${report.slice(0, end)}\n\n${note}${report.slice(end)}`;
}
/**
 * Where an evals/v1 suite's results.json and metrics.json go: `dir` (output_dir), when the
 * document is an evals/v1 suite's and is not one shard's (a shard gives no verdict: the merge
 * writes them); null for any other document, or without a directory.
 */
function evalsV1Files(doc, dir) {
    if (!doc.evals_v1 || !dir || doc.shard)
        return null;
    return { results: (0,external_node_path_.join)(dir, 'results.json'), metrics: (0,external_node_path_.join)(dir, 'metrics.json') };
}
/** Some files could not be rendered or written; the others were. */
class ResultsNotWrittenError extends Error {
    written;
    constructor(message, 
    /** The redacted document, the report's text ('' when it was not rendered) and the files that were written. */
    written) {
        super(message);
        this.written = written;
        this.name = 'ResultsNotWrittenError';
    }
}
/**
 * What a failed writeResults left, in words: "the results could not be written (why): only
 * eval-report.md were written", or "…: eval-results.json and the files rendered with it are
 * missing or stale" when nothing was.
 */
function describeNotWritten(error, resultsPath) {
    const files = error instanceof ResultsNotWrittenError ? error.written.files : [];
    const wrote = files.length ? `only ${files.join(', ')} were written` : `${resultsPath} and the files rendered with it are missing or stale`;
    return `the results could not be written (${error.message}): ${wrote}`;
}
/** The CLI's line naming an evals/v1 suite's results.json and metrics.json ("" for any other document). */
function evalsV1Lines(doc, dir) {
    const files = evalsV1Files(doc, dir);
    return files ? `evals/v1: ${files.results}, ${files.metrics}\n` : '';
}
/** results.json and metrics.json, where evalsV1Files puts them. */
function evalsV1Outputs(doc, paths) {
    const files = evalsV1Files(doc, paths.evalsV1Dir);
    if (!files)
        return [];
    // Never over one of our own files (results_path: eval-results/results.json): that one is kept, this one refused.
    const ours = new Set([paths.resultsPath, paths.reportPath, paths.junitPath, paths.sarifPath, paths.badgePath, paths.htmlPath].flatMap((p) => (p ? [(0,external_node_path_.resolve)(p)] : [])));
    const apart = (path, render) => () => {
        if (ours.has((0,external_node_path_.resolve)(path)))
            throw new Error(`it is also the path of another file written here; give that one another name`);
        return render();
    };
    return [
        [files.results, 'evals/v1 results.json', apart(files.results, () => `${JSON.stringify(withoutFloatNoise(evalsV1Results(doc, paths.resultsPath)), null, 2)}\n`)],
        [files.metrics, 'evals/v1 metrics.json', apart(files.metrics, () => `${JSON.stringify(withoutFloatNoise((0,evals_v1_metrics/* evalsV1Metrics */.WB)(doc)), null, 2)}\n`)]
    ];
}
/** Pieces gathered to about this many characters before each write. */
const STREAM_WRITE_CHARS = 1 << 20;
/**
 * Write `pieces` to `path` as writeFileReplacing does (nothing is left at the path when it fails
 * half-way); null when written, else why not, and whether it was the rendering that failed.
 */
function writeStreamed(path, pieces) {
    let renderError = null;
    try {
        (0,write_file/* writeFileReplacingWith */.lM)(path, (write) => {
            const iterator = pieces[Symbol.iterator]();
            let buffer = '';
            for (;;) {
                let step;
                try {
                    step = iterator.next();
                }
                catch (error) {
                    renderError = error;
                    throw error;
                }
                if (step.done)
                    break;
                buffer += step.value;
                if (buffer.length >= STREAM_WRITE_CHARS) {
                    write(buffer);
                    buffer = '';
                }
            }
            if (buffer)
                write(buffer);
        });
        return null;
    }
    catch (error) {
        return renderError ? { message: renderError.message, rendering: true } : { message: error.message, rendering: false };
    }
}
/**
 * Write the results document and everything rendered from it (an evals/v1 suite's results.json
 * and metrics.json, report, JUnit XML, SARIF, badge, HTML report, per-run transcripts), with every secret
 * redacted first. The results document is written first;
 * a file that cannot be rendered or written does not keep the others from being written, and all
 * such failures are thrown at the end as one ResultsNotWrittenError, which says what was written.
 * Returns the texts and the files. `reportNote`: a Markdown paragraph the report carries under its
 * first heading (`--demo`: its figures are simulated).
 */
function writeResults(doc, paths, secrets, extras = {}) {
    const safe = (0,redact/* redactDeep */.KL)(withoutFloatNoise(doc), secrets);
    const texts = {};
    const outputs = [
        // In pieces, run by run: never one string of the document's size.
        [paths.resultsPath, 'results', () => documentJsonPieces(safe)],
        // @mcp-use/evals' files, from the document alone (already redacted), right after it.
        ...evalsV1Outputs(safe, paths),
        [paths.reportPath, 'report', () => withNote(renderMarkdownReport(safe), extras.reportNote)],
        [paths.junitPath, 'junit', () => renderJUnit(safe)],
        [paths.sarifPath, 'sarif', () => `${JSON.stringify(renderSarif(safe), null, 2)}\n`],
        [paths.badgePath, 'badge', () => `${JSON.stringify(renderBadge(safe), null, 2)}\n`],
        // The pictures are read only from under the output directory: a document's paths never lead out of it.
        [paths.htmlPath, 'HTML report', () => htmlReportChunks(safe, { readImage: imageReaderUnder(paths.appsRoot ?? (0,app_files/* appsRootOf */.W)(paths.evalsV1Dir ?? '', paths.resultsPath ?? '')) })]
    ];
    if (paths.transcriptsDir) {
        for (const run of safe.runs)
            outputs.push([(0,external_node_path_.join)(paths.transcriptsDir, `${String(run.index).padStart(3, '0')}-${(0,runs/* anchor */.Y)(run)}.json`), 'transcript', () => `${JSON.stringify(run, null, 2)}\n`]);
    }
    // Each file replaced, never written through a link planted at its name (util/write-file.ts).
    const failures = [];
    const files = [];
    for (const [path, what, render] of outputs) {
        if (!path)
            continue;
        let rendered;
        try {
            rendered = render();
        }
        catch (error) {
            failures.push(`${path}: the ${what} could not be rendered (${error.message})`);
            continue;
        }
        if (typeof rendered !== 'string') {
            // Streamed in pieces (the HTML report embeds the whole document): never one more string of its size.
            const failure = writeStreamed(path, rendered);
            if (failure === null)
                files.push(path);
            else
                failures.push(failure.rendering ? `${path}: the ${what} could not be rendered (${failure.message})` : failure.message);
            continue;
        }
        // The transcripts are not returned: they can be many, and no caller prints them.
        if (what !== 'transcript')
            texts[what] = rendered;
        try {
            (0,write_file/* writeFileReplacing */.lS)(path, rendered);
            files.push(path);
        }
        catch (error) {
            failures.push(error.message);
        }
    }
    const report = texts.report ?? '';
    if (failures.length > 0) {
        const message = failures.length === 1 ? failures[0] : `${failures.length} files could not be written: ${failures.join('; ')}`;
        throw new ResultsNotWrittenError(message, { document: safe, report, files });
    }
    return {
        document: safe,
        // Rendered when asked for (a test): at 10,000 runs each is a large string no caller needs.
        get results() {
            return `${JSON.stringify(safe, null, 2)}\n`;
        },
        report,
        get junit() {
            return texts.junit ?? renderJUnit(safe);
        },
        files
    };
}


/***/ })

};
