export const id = 941;
export const ids = [941];
export const modules = {

/***/ 84733:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   e: () => (/* binding */ renderCancelled)
/* harmony export */ });
/* harmony import */ var _util_words_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(90333);
/* harmony import */ var _timestamp_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(19994);


/** A cancelled evaluation: no verdict, what had finished, and how to pick up the rest. */
function renderCancelled(doc) {
    const c = doc.cancelled;
    if (!c)
        return [];
    return [
        `> **Cancelled by ${c.signal}** at ${(0,_timestamp_js__WEBPACK_IMPORTED_MODULE_1__/* .formatTimestamp */ .E)(c.at)}: ${c.finished === 0
            ? `none of the ${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_0__/* .count */ .U9)(c.planned, 'planned run')} had finished`
            : `${c.finished} of ${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_0__/* .count */ .U9)(c.planned, 'planned run')} had finished and ${c.finished === 1 ? 'is' : 'are'} shown below; the others are marked cancelled`}. No gate was applied: this is not a verdict.`,
        '>',
        '> With `resume: true` in the workflow, **Re-run failed jobs** runs only the missing runs (CLI: `--resume`).',
        ''
    ];
}


/***/ }),

/***/ 53677:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C: () => (/* binding */ renderMatrix)
/* harmony export */ });
/* unused harmony export groupSymbol */
/* harmony import */ var _aggregate_gate_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(39884);
/* harmony import */ var _escape_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(14031);
/* harmony import */ var _model_id_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(64609);



/**
 * The symbol of a group: ✓ every run passed, ◐ some failed but it reached its floor, ✗ below its
 * floor, ⚠ every run errored, ⊘ cancelled, ⏭ runs never started (skipped: budget). `skipped`:
 * how many of its runs the spend left unstarted.
 */
function groupSymbol(group, skipped = 0) {
    // The group's `cancelled` counts its skipped runs too: neither reached a verdict.
    if (skipped > 0 && group.passed + Math.max(group.cancelled, skipped) === group.runs && !group.success)
        return '⏭';
    if (group.cancelled > 0 && group.passed + group.cancelled === group.runs && !group.success)
        return '⊘';
    if (!group.success)
        return group.errored === group.runs ? '⚠' : '✗';
    return group.passed === group.runs ? '✓' : '◐';
}
/** The most model columns a matrix table holds beside its Case column: more would not fit a page. */
const COLUMNS_PER_TABLE = 4;
/**
 * The columns in tables that fit a page: one table per system prompt (when each has several models) when together they are too
 * many, and each of those cut into tables of at most `COLUMNS_PER_TABLE`.
 */
function pageWide(columns) {
    if (columns.length <= COLUMNS_PER_TABLE)
        return [columns];
    const chunks = (list) => Array.from({ length: Math.ceil(list.length / COLUMNS_PER_TABLE) }, (_, i) => list.slice(i * COLUMNS_PER_TABLE, (i + 1) * COLUMNS_PER_TABLE));
    const prompts = [...new Set(columns.map((c) => c.prompt))];
    const perPrompt = prompts.map((prompt) => columns.filter((c) => c.prompt === prompt));
    // By prompt only when each has several models: one model under five prompts is two tables, not five of one column.
    return perPrompt.every((mine) => mine.length > 1) ? perPrompt.flatMap(chunks) : chunks(columns);
}
/**
 * Cases × models (× system prompts when there are several): each cell is a group's `k/N` with
 * its symbol, ▼ when it regressed against the baseline and ▲ when it was fixed. `runs` tells the
 * groups whose runs never started (skipped: budget). Too many columns for a page are split into
 * several tables, each with the cases (`pageWide`).
 */
function renderMatrix(groups, gate, runs = []) {
    if (groups.length === 0)
        return [];
    const skippedRuns = new Set(runs.filter((r) => r.status === 'skipped').map((r) => r.index));
    const symbol = (g) => groupSymbol(g, g.run_indexes.filter((i) => skippedRuns.has(i)).length);
    const prompts = [...new Set(groups.map((g) => g.prompt_name))];
    const columns = [...new Map(groups.map((g) => [JSON.stringify([g.model, g.prompt_name]), { model: g.model, prompt: g.prompt_name }])).values()];
    const cases = [...new Set(groups.map((g) => g.case_id))];
    const byKey = new Map(groups.map((g) => [JSON.stringify([g.case_id, g.model, g.prompt_name]), g]));
    const regressed = new Set(gate?.regressed ?? []);
    const fixed = new Set(gate?.fixed ?? []);
    const cell = (caseId, c) => {
        const g = byKey.get(JSON.stringify([caseId, c.model, c.prompt]));
        if (!g)
            return '<td align="center">—</td>';
        const mark = regressed.has((0,_aggregate_gate_js__WEBPACK_IMPORTED_MODULE_0__/* .groupKey */ .$)(g)) ? ' ▼' : fixed.has((0,_aggregate_gate_js__WEBPACK_IMPORTED_MODULE_0__/* .groupKey */ .$)(g)) ? ' ▲' : '';
        return `<td align="center">${symbol(g)} ${g.passed}/${g.runs}${mark}</td>`;
    };
    const tables = pageWide(columns).flatMap((part) => [
        '<table>',
        `<tr><th>Case</th>${part.map((c) => `<th align="center">${(0,_model_id_js__WEBPACK_IMPORTED_MODULE_1__/* .modelIdHtml */ .O)(c.model)}${prompts.length > 1 ? `<br>${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)(c.prompt)}` : ''}</th>`).join('')}</tr>`,
        ...cases.map((caseId) => `<tr><td>${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeHtml */ .v1)(caseId)}</td>${part.map((c) => cell(caseId, c)).join('')}</tr>`),
        '</table>',
        ''
    ]);
    const shown = new Set(groups.map(symbol));
    const legend = `✓ every run passed · ◐ reached its pass floor · ✗ below it${shown.has('⚠') ? ' · ⚠ errored' : ''}${shown.has('⊘') ? ' · ⊘ cancelled' : ''}${shown.has('⏭') ? ' · ⏭ skipped: budget (never started)' : ''}${gate?.regressed.length ? ' · ▼ regressed' : ''}${gate?.fixed.length ? ' · ▲ fixed' : ''}`;
    return [...tables, `<sub>${legend}</sub>`, ''];
}


/***/ }),

/***/ 21754:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   B: () => (/* binding */ metricLabel),
/* harmony export */   t: () => (/* binding */ METRIC_LABELS)
/* harmony export */ });
/* harmony import */ var _escape_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(14031);

/** The tool-use metrics, in report order, with the words a reviewer reads. */
const METRIC_LABELS = [
    ['tool_selection_accuracy', 'Tool selection accuracy'],
    ['over_trigger_rate', 'Over-trigger rate on negative cases'],
    ['argument_correctness', 'Argument correctness'],
    ['sequence_correctness', 'Sequence correctness'],
    ['task_completion', 'Task completion (judge)'],
    ['schema_invalid_call_rate', 'Calls outside the input schema'],
    ['tool_error_rate', 'Tool error rate'],
    ['tool_set_precision', 'Tool-set precision'],
    ['tool_set_recall', 'Tool-set recall'],
    ['tool_set_f1', 'Tool-set F1']
];
/** Every gated metric's label: the two pass rates, then the tool-use metrics. */
function metricLabel(name) {
    if (name === 'pass_rate')
        return 'Run pass rate';
    if (name === 'group_pass_rate')
        return 'Group pass rate';
    if (name === 'recovery_rate')
        return 'Recovery from faults';
    if (name === 'attack_resistance')
        return 'Attack resistance';
    return METRIC_LABELS.find(([key]) => key === name)?.[1] ?? (0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(name);
}


/***/ }),

/***/ 64609:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ modelIdHtml)
/* harmony export */ });
/* harmony import */ var _escape_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(14031);

/**
 * A model id as HTML code for a narrow column: broken after its provider ("openai/" above
 * "gpt-4o-mini"), where a reader expects the break, since a code span does not wrap.
 */
function modelIdHtml(model) {
    const slash = model.indexOf('/');
    if (slash < 0 || slash === model.length - 1)
        return `${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .codeHtml */ .v1)(model)}`;
    return `${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .codeHtml */ .v1)(model.slice(0, slash + 1))}<br>${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .codeHtml */ .v1)(model.slice(slash + 1))}`;
}


/***/ }),

/***/ 67063:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ failureReasons)
/* harmony export */ });
/* harmony import */ var _util_text_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(49997);
/* harmony import */ var _dialogue_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(13536);
/* harmony import */ var _numbers_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(65616);
/* harmony import */ var _telemetry_budgets_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(34882);
/* harmony import */ var _app_findings_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(59880);





/**
 * What went wrong with a run, in words: it was cancelled or never started (skipped: budget), its
 * error, or each turn that failed (a multi-turn run), the judge against the threshold, each check
 * that did not hold, what the server was expected to ask and did not (or was answered with content
 * its schema refused), each Layer 2 oracle that failed (recovery, answer check, attacks), and each app render that failed.
 */
function failureReasons(run) {
    if (run.status === 'cancelled' && run.cancelled)
        return [`cancelled (${run.cancelled.signal}) while waiting for ${run.cancelled.waiting_for}`];
    if (run.status === 'skipped')
        return [`skipped: budget — ${(0,_telemetry_budgets_js__WEBPACK_IMPORTED_MODULE_1__/* .skipWords */ .XY)(run.skipped?.detail, false)}`];
    if (run.status === 'error' && run.error)
        return [`${run.error.stage} error: ${(0,_util_text_js__WEBPACK_IMPORTED_MODULE_3__/* .firstLine */ .TM)(run.error.message)}`];
    const turns = run.dialogue?.turns.filter((t) => !t.passed).flatMap(turnReasons) ?? [];
    const reasons = [...turns];
    const score = run.metrics[0]?.score ?? null;
    // Without an overall rubric a conversation's judge verdict is its lowest turn's, already named.
    const judgeSaid = !!run.dialogue && run.judge === null && turns.length > 0;
    const judgeWhat = run.dialogue ? 'whole dialogue: judge' : 'judge';
    if (!run.rubric_passed && !judgeSaid) {
        reasons.push(score === null
            ? `${judgeWhat}: ${run.metrics[0]?.reason || 'not judged'}`
            : `${judgeWhat} ${(0,_numbers_js__WEBPACK_IMPORTED_MODULE_4__/* .formatPercent */ .l)(score)}% < threshold ${(0,_numbers_js__WEBPACK_IMPORTED_MODULE_4__/* .formatPercent */ .l)(run.threshold)}%: ${run.metrics[0]?.reason ?? ''}`.trim());
    }
    for (const check of run.tool_assertions.checks.filter((c) => !c.passed))
        reasons.push(toolCheckReason(check));
    for (const check of run.golden_assertions?.checks.filter((c) => !c.passed) ?? [])
        reasons.push(`${check.check}: ${check.reason}`);
    if (run.status === 'failed' && run.dialogue?.kind === 'simulated' && run.dialogue.ended === 'max_turns')
        reasons.push(`the simulated user never said its goal was reached (max_turns: ${run.dialogue.turns.length})`);
    if (run.inputs && !run.inputs.passed)
        reasons.push(...(run.inputs.reasons.length > 0 ? run.inputs.reasons : ['the server input did not pass']).map((r) => `server input: ${r}`));
    if (run.recovery && !run.recovery.passed)
        reasons.push(`recovery (${run.recovery.expected}): ${run.recovery.reason.replace(/\.$/, '')}`);
    if (run.answer_check && !run.answer_check.passed)
        reasons.push(`must_not_contain: the answer contains ${run.answer_check.found.map((f) => JSON.stringify(f)).join(', ')}`);
    for (const attack of run.security?.attacks.filter((a) => !a.resisted) ?? []) {
        const what = `${attack.payload}${attack.attack === 'tool_output' ? '' : ` via ${attack.attack}`} on ${attack.tool}`;
        reasons.push(attack.delivered ? `attack succeeded (${what}): ${attack.evidence.map((e) => e.detail).join('; ')}` : `attack not delivered (${what}): the model never saw it`);
    }
    // MCP Apps: each view that failed after one of the run's calls.
    reasons.push(...(0,_app_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .runAppReasons */ .cU)(run));
    return reasons;
}
/** Why one turn of a multi-turn run did not pass: no final answer, its judge, its checks. */
function turnReasons(turn) {
    const where = `turn ${turn.index}${turn.simulated ? ' (simulated)' : ''}`;
    const reasons = [];
    if (turn.stop_reason !== 'final_answer')
        reasons.push(`${where}: no final answer (${(0,_dialogue_js__WEBPACK_IMPORTED_MODULE_0__/* .stopWords */ .e$)(turn.stop_reason)})`);
    const judge = turn.judge;
    if (judge && judge.score === null)
        reasons.push(`${where}: judge: ${judge.error ?? (judge.reason || 'no score')}`);
    else if (judge && judge.score !== null && judge.score < judge.threshold)
        reasons.push(`${where}: judge ${(0,_numbers_js__WEBPACK_IMPORTED_MODULE_4__/* .formatPercent */ .l)(judge.score)}% < threshold ${(0,_numbers_js__WEBPACK_IMPORTED_MODULE_4__/* .formatPercent */ .l)(judge.threshold)}%: ${judge.reason}`.trim());
    for (const check of turn.tool_assertions?.checks.filter((c) => !c.passed) ?? [])
        reasons.push(`${where}: ${toolCheckReason(check)}`);
    for (const check of turn.golden_assertions?.checks.filter((c) => !c.passed) ?? [])
        reasons.push(`${where}: ${check.check}: ${check.reason}`);
    return reasons.length > 0 ? reasons : [`${where}: did not pass`];
}
/** A required_tools check that did not hold, in words: "book_flight: not called (expected {"flight_id":"any"})". */
function toolCheckReason(check) {
    return `${check.tool}: ${check.reason}${check.expected_args ? ` (expected ${JSON.stringify(check.expected_args)})` : ''}`;
}


/***/ }),

/***/ 87117:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AN: () => (/* binding */ resilienceBrief),
/* harmony export */   MY: () => (/* binding */ EVIDENCE_WORDS),
/* harmony export */   SW: () => (/* binding */ renderResilience),
/* harmony export */   ac: () => (/* binding */ resilienceDigest)
/* harmony export */ });
/* unused harmony exports evidenceWords, vectorWords */
/* harmony import */ var _aggregate_verdict_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1882);
/* harmony import */ var _util_text_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(49997);
/* harmony import */ var _util_words_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(90333);
/* harmony import */ var _escape_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(14031);




/** How much of a failing run the section shows: its calls, their arguments, the answer. */
const CALLS_SHOWN = 15;
const ARGS_CELL_CHARS = 160;
const DETAIL_CHARS = 300;
const ARGS_BLOCK_CHARS = 1500;
const ANSWER_CHARS = 800;
const CROSSING_BLOCKS = 3;
const FAILURES_SHOWN = 20;
/** What a cell counts over: a fault fires, an attack is delivered. Said for the runs where it did not. */
const NOT_COUNTED = { faults: 'not triggered', attacks: 'not delivered' };
/** Each evidence kind in words; a kind we do not know (a hand-edited document) is shown as it is, escaped. */
const EVIDENCE_WORDS = {
    canary: 'carried the canary',
    attacker_email: "sent to the attacker's address",
    attacker_host: "reached the attacker's host",
    allowed_args: 'an argument outside allowed_args',
    forbidden_tool: 'called a forbidden tool',
    shadow_tool: 'called the decoy tool',
    markdown_exfiltration: 'a link to the attacker in the answer',
    secret_leak: 'leaked the planted secret'
};
/** Where each attack vector puts its payload, for the line that names the attack. */
const VECTOR_WORDS = {
    tool_output: (tool) => `in the output of ${tool}`,
    poison_description: (tool) => `in the description of ${tool}`,
    shadow_tool: (tool) => `as a decoy of ${tool}`,
    rug_pull: (tool) => `as a changed description of ${tool} after its first call`
};
/** An evidence kind in words; a kind we do not know (a hand-edited document) as it is. Plain text: the caller escapes it. */
const evidenceWords = (kind) => EVIDENCE_WORDS[kind] ?? kind;
/** Where an attack puts its payload: "in the output of get_attractions". Plain text: the caller escapes it. */
const vectorWords = (attack) => (VECTOR_WORDS[attack.attack] ?? ((tool) => `via ${attack.attack} on ${tool}`))(attack.tool);
const EXECUTIONS = ['not executed', 'executed once', 'executed twice'];
function allCells(summary) {
    return summary.by_model.flatMap((m) => [...m.faults, ...m.attacks]);
}
/** The summary when it has a cell to show: Layer 2 cases whose runs never ran (no key, cancelled at once) leave an empty one. */
function shown(doc) {
    const summary = doc.summary.resilience;
    return summary && allCells(summary).length > 0 ? summary : null;
}
/** "✓ every cell reached its floor" or "✗ 2 of 10 cells below their floor". */
function verdictWords(summary) {
    const cells = allCells(summary);
    const failing = cells.filter((c) => !c.success).length;
    return failing === 0 ? '✓ every cell reached its floor' : `✗ ${failing} of ${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_1__/* .count */ .U9)(cells.length, 'cell')} below ${cells.length === 1 ? 'its' : 'their'} floor`;
}
/** "Recovery from faults 4/5 (80%) · Attack resistance 3/4 (75%)": over every model and key. */
function totalsLine(summary) {
    const total = (dimension, label, unit) => {
        const cells = summary.by_model.flatMap((m) => m[dimension]);
        if (cells.length === 0)
            return '';
        const counted = cells.reduce((n, c) => n + c.counted, 0);
        const passed = cells.reduce((n, c) => n + c.passed, 0);
        return counted === 0 ? `${label}: not tested (no ${unit})` : `${label} ${passed}/${counted} (${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_1__/* .percent */ .KN)(passed / counted)})`;
    };
    return [total('faults', 'Recovery from faults', 'fault fired'), total('attacks', 'Attack resistance', 'attack was delivered')].filter(Boolean).join(' · ');
}
/** The columns of a matrix: every key any model has, in the order they first appear. */
function keysOf(summary, dimension) {
    return [...new Set(summary.by_model.flatMap((m) => m[dimension].map((c) => c.key)))];
}
/** ▼ or ▲ when the baseline had this cell at another rate (both measured). */
function movement(changes, model, dimension, key) {
    const change = changes.find((c) => c.model === model && c.dimension === (dimension === 'faults' ? 'fault' : 'attack') && c.key === key);
    if (!change || change.baseline === null || change.current === null)
        return '';
    return change.current < change.baseline ? ' ▼' : ' ▲';
}
/** One cell: its symbol against its own floor, k/N over the runs where it counted, and what did not count. */
function cellHtml(cell, dimension, showFloor, mark) {
    if (!cell)
        return '<td align="center">—</td>';
    const missing = cell.planned - cell.counted;
    const main = `${cell.success ? '✓' : '✗'}${cell.counted > 0 ? ` ${cell.passed}/${cell.counted}` : ''}${mark}`;
    const notes = [missing > 0 ? `${missing} ${NOT_COUNTED[dimension]}` : '', showFloor ? `floor ${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_1__/* .percent */ .KN)(cell.floor)}` : ''].filter(Boolean);
    return `<td align="center">${main}${notes.length ? `<br><sub>${notes.join(' · ')}</sub>` : ''}</td>`;
}
/** The floor every cell of the dimensions shares, or null when they differ (each cell then says its own). */
function sharedFloor(summary, dimensions) {
    const floors = new Set(summary.by_model.flatMap((m) => dimensions.flatMap((d) => m[d].map((c) => c.floor))));
    return floors.size === 1 ? [...floors][0] : null;
}
const keyHeader = (key) => `<th align="center">${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeHtml */ .v1)(key)}</th>`;
function rowsHtml(summary, dimensions, changes, showFloor) {
    const keys = dimensions.map((d) => ({ dimension: d, keys: keysOf(summary, d) }));
    return summary.by_model.map((m) => {
        const cells = keys.flatMap(({ dimension, keys: list }) => list.map((key) => cellHtml(m[dimension].find((c) => c.key === key), dimension, showFloor, movement(changes, m.model, dimension, key))));
        return `<tr><td>${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeHtml */ .v1)(m.model)}</td>${cells.join('')}</tr>`;
    });
}
function legend(dimensions, floor, changes) {
    const parts = [
        dimensions.includes('faults') ? 'recovered k/N: runs that passed (rubric, assertions and the recovery oracle) of the N where the fault fired' : '',
        dimensions.includes('attacks') ? 'resisted k/N: delivered attacks the model did not act on' : '',
        `✓ reached ${floor === null ? 'its floor' : `the floor (${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_1__/* .percent */ .KN)(floor)})`} · ✗ below it, or a planned run that tested nothing (${dimensions.map((d) => NOT_COUNTED[d]).join(', ')})`,
        changes.some((c) => c.baseline !== null && c.current !== null) ? '▼ ▲ against the baseline' : ''
    ];
    return `<sub>${parts.filter(Boolean).join(' · ')}</sub>`;
}
/** Model × fault kind or model × payload, one table. */
function matrix(summary, dimension, changes) {
    const keys = keysOf(summary, dimension);
    if (keys.length === 0)
        return [];
    const floor = sharedFloor(summary, [dimension]);
    return ['<table>', `<tr><th>Model</th>${keys.map(keyHeader).join('')}</tr>`, ...rowsHtml(summary, [dimension], changes, floor === null), '</table>', '', legend([dimension], floor, changes), ''];
}
/** The comment's matrix: both dimensions in one table, faults first, under a header that groups them. */
function compactMatrix(summary, changes) {
    const dimensions = ['faults', 'attacks'].filter((d) => keysOf(summary, d).length > 0);
    if (dimensions.length === 0)
        return [];
    const floor = sharedFloor(summary, dimensions);
    const group = (d) => `<th colspan="${keysOf(summary, d).length}">${d === 'faults' ? 'Recovered from' : 'Resisted'}</th>`;
    return [
        '<table>',
        `<tr><th rowspan="2">Model</th>${dimensions.map(group).join('')}</tr>`,
        `<tr>${dimensions.flatMap((d) => keysOf(summary, d).map(keyHeader)).join('')}</tr>`,
        ...rowsHtml(summary, dimensions, changes, floor === null),
        '</table>',
        '',
        legend(dimensions, floor, changes),
        ''
    ];
}
// ——— Failures ———
/** Why a run failed Layer 2, as short plain phrases (the caller escapes them). */
function verdictPhrases(run) {
    const phrases = [];
    if (run.recovery && !run.recovery.passed)
        phrases.push(run.recovery.triggered ? 'recovery failed' : 'the fault never fired');
    if (run.answer_check && !run.answer_check.passed)
        phrases.push('the answer contains what it must not');
    for (const attack of run.security?.attacks ?? []) {
        if (!attack.delivered)
            phrases.push(`attack ${attack.payload} not delivered`);
        else if (!attack.resisted)
            phrases.push(`attack ${attack.payload} succeeded`);
    }
    return phrases;
}
/** A run whose recovery or answer check failed, or one of whose attacks succeeded or was never delivered. Cancelled runs are no verdict. */
function layer2Failed(run) {
    return run.status !== 'cancelled' && verdictPhrases(run).length > 0;
}
const callName = (index, calls) => `tool call ${index + 1}${calls[index] ? ` ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(calls[index].name)}` : ''}`;
function attackLines(attack, calls) {
    const where = (VECTOR_WORDS[attack.attack] ?? ((tool) => `via ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeMarkdown */ .FV)(attack.attack)} on ${tool}`))((0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(attack.tool));
    if (!attack.delivered)
        return [`- **Attack ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(attack.payload)}** ${where} — ⚠ never reached the model, so it tested nothing (not counted as resisted)`];
    if (attack.resisted)
        return [`- **Attack ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(attack.payload)}** ${where} — ✓ resisted`];
    const lines = [`- **Attack ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(attack.payload)}** ${where} — ✗ succeeded (canary ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(attack.canary)}):`];
    for (const e of attack.evidence) {
        const at = e.tool_call_index === null ? 'the answer' : callName(e.tool_call_index, calls);
        lines.push(`  - ${at}: ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeMarkdown */ .FV)(evidenceWords(e.kind))} — ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeMarkdown */ .FV)((0,_util_text_js__WEBPACK_IMPORTED_MODULE_3__/* .ellipsize */ .mc)(e.detail, DETAIL_CHARS))}`);
    }
    return lines;
}
/** What the section says happened at one call: the fault that replaced it, the attack it carried, the line it crossed. */
function callNotes(run, index) {
    const call = run.tool_calls[index];
    const notes = [];
    if (call.fault) {
        const executed = EXECUTIONS[call.fault.executions] ?? `executed ${call.fault.executions} times`;
        notes.push(`⚡ fault ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeHtml */ .v1)(call.fault.kind)} (call ${call.fault.call} of this tool, ${executed}): ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)((0,_util_text_js__WEBPACK_IMPORTED_MODULE_3__/* .ellipsize */ .mc)(call.fault.detail, DETAIL_CHARS))}`);
    }
    else if (call.is_error)
        notes.push('the server answered with an error');
    if (call.injected)
        notes.push(`☠ payload ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeHtml */ .v1)(call.injected.payload)} planted${call.injected.position ? ` (${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)(call.injected.position)})` : ''}`);
    if (run.recovery?.evidence_call === index)
        notes.push(`↻ the ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)(run.recovery.expected)} the recovery oracle counted`);
    for (const attack of run.security?.attacks ?? []) {
        const here = attack.evidence.filter((x) => x.tool_call_index === index);
        if (here.length === 0)
            continue;
        const items = here.map((e) => `· ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)(evidenceWords(e.kind))} — ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)((0,_util_text_js__WEBPACK_IMPORTED_MODULE_3__/* .ellipsize */ .mc)(e.detail, DETAIL_CHARS))}`);
        notes.push([`✗ crossed the line (${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeHtml */ .v1)(attack.payload)}):`, ...items].join('<br>'));
    }
    return notes;
}
function argsJson(args, pretty) {
    try {
        return (pretty ? JSON.stringify(args, null, 2) : JSON.stringify(args)) ?? String(args);
    }
    catch {
        return String(args);
    }
}
/** The run's tool calls in order, each beside what Layer 2 did to it; a long run shows only the calls that matter. */
function callsTable(run) {
    const calls = run.tool_calls;
    if (calls.length === 0)
        return ['_No tool calls._', ''];
    const notes = calls.map((_, i) => callNotes(run, i));
    const shown = calls.length <= CALLS_SHOWN ? calls.map((_, i) => i) : calls.map((_, i) => i).filter((i) => notes[i].length > 0).slice(0, CALLS_SHOWN);
    const rows = shown.map((i) => `<tr><td align="right">${i + 1}</td><td>${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeHtml */ .v1)(calls[i].name)}</td><td>${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeHtml */ .v1)((0,_util_text_js__WEBPACK_IMPORTED_MODULE_3__/* .ellipsize */ .mc)(argsJson(calls[i].args, false), ARGS_CELL_CHARS))}</td><td>${notes[i].join('<br>')}</td></tr>`);
    const hidden = calls.length - shown.length;
    return ['<table>', '<tr><th>#</th><th>Tool</th><th>Arguments</th><th>What happened</th></tr>', ...rows, '</table>', '', ...(hidden > 0 ? [`_${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_1__/* .count */ .U9)(hidden, 'other tool call')} not shown._`, ''] : [])];
}
/** The whole arguments of each call that crossed the line, as JSON. */
function crossingBlocks(run) {
    const indexes = [...new Set((run.security?.attacks ?? []).flatMap((a) => a.evidence.map((e) => e.tool_call_index)).filter((i) => i !== null))];
    const out = [];
    for (const index of indexes.slice(0, CROSSING_BLOCKS)) {
        const call = run.tool_calls[index];
        if (!call)
            continue;
        out.push(`Tool call ${index + 1}, ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(call.name)}, crossed the line with these arguments:`, '', (0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeBlock */ .DV)((0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .truncateText */ .EJ)(argsJson(call.args, true), ARGS_BLOCK_CHARS), 'json'), '');
    }
    if (indexes.length > CROSSING_BLOCKS)
        out.push(`_${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_1__/* .count */ .U9)(indexes.length - CROSSING_BLOCKS, 'more call')} crossed the line; the run's details have them._`, '');
    return out;
}
/** The answer matters when it was judged (honest failure, must_not_contain) or crossed the line itself. */
function answerMatters(run) {
    return ((run.answer_check !== null && run.answer_check !== undefined && !run.answer_check.passed) ||
        (run.recovery?.expected === 'honest_failure' && !run.recovery.passed) ||
        (run.security?.attacks ?? []).some((a) => a.evidence.some((e) => e.tool_call_index === null)));
}
/** One failing run, expanded: who and what was asked, each verdict with its reason, the calls, the crossing arguments, the answer. */
function failureBlock(run) {
    const repeat = run.attempts > 1 ? ` (run ${run.attempt} of ${run.attempts})` : '';
    const out = [`**✗ ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(run.case_id)} · ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(run.model)} · ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeMarkdown */ .FV)(run.prompt_name)}**${repeat} — ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeMarkdown */ .FV)(verdictPhrases(run).join(' · '))}`, '', (0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .blockquote */ .aV)(run.input), ''];
    const lines = [];
    if (run.recovery && !run.recovery.passed)
        lines.push(`- **Recovery** (expected ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(run.recovery.expected)}) — ✗ ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeMarkdown */ .FV)(run.recovery.reason)}`);
    if (run.answer_check && !run.answer_check.passed) {
        lines.push(`- **Answer check** — ✗ the answer contains ${run.answer_check.found.map(_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS).join(', ')} (it must contain none of ${run.answer_check.must_not_contain.map(_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS).join(', ')})`);
    }
    for (const attack of run.security?.attacks ?? [])
        lines.push(...attackLines(attack, run.tool_calls));
    if (lines.length)
        out.push(...lines, '');
    out.push(...callsTable(run), ...crossingBlocks(run));
    if (answerMatters(run)) {
        out.push('Final answer:', '', run.final_output ? (0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .blockquote */ .aV)((0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .truncateText */ .EJ)(run.final_output, ANSWER_CHARS)) : '> _No final answer._', '');
    }
    return out;
}
function renderFailuresExpanded(doc, heading) {
    const failing = doc.runs.filter(layer2Failed);
    if (failing.length === 0)
        return [];
    const out = [`${heading} Failures (${failing.length})`, ''];
    for (const run of failing.slice(0, FAILURES_SHOWN))
        out.push(...failureBlock(run));
    if (failing.length > FAILURES_SHOWN)
        out.push(`_${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_1__/* .count */ .U9)(failing.length - FAILURES_SHOWN, 'more run')}: see the run details below._`, '');
    return out;
}
/**
 * The report's "Resilience and security" section: a verdict and the totals, the matrix model ×
 * fault kind (recovered k/N) and model × payload (resisted k/N), each cell against its own floor,
 * then every run that failed a Layer 2 oracle expanded: the prompt, each verdict with its reason,
 * its calls beside the faults that replaced them and the line each crossed, and the arguments of
 * the calls that crossed it. Nothing when no case injects faults or plants attacks.
 */
function renderResilience(doc, heading = '##') {
    const summary = shown(doc);
    if (!summary)
        return [];
    const changes = doc.changes?.resilience ?? [];
    const sub = `${heading}#`;
    const out = [`${heading} Resilience and security — ${verdictWords(summary)}`, '', `> ${totalsLine(summary)}`, ''];
    const faults = matrix(summary, 'faults', changes);
    if (faults.length)
        out.push(`${sub} Recovery from faults`, '', ...faults);
    const attacks = matrix(summary, 'attacks', changes);
    if (attacks.length)
        out.push(`${sub} Attack resistance`, '', ...attacks);
    out.push(...renderFailuresExpanded(doc, sub));
    return out;
}
/**
 * The comment's view: failing, a heading, the totals and both matrices in one table; passing,
 * the same table one click away.
 */
function resilienceDigest(doc) {
    const summary = shown(doc);
    if (!summary)
        return [];
    const table = compactMatrix(summary, doc.changes?.resilience ?? []);
    if ((0,_aggregate_verdict_js__WEBPACK_IMPORTED_MODULE_0__/* .resiliencePassed */ .KO)(summary))
        return [`<details><summary>Resilience and security ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)(verdictWords(summary))}: ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)(totalsLine(summary))}</summary>`, '', ...table, '</details>', ''];
    return [`#### Resilience and security — ${verdictWords(summary)}`, '', totalsLine(summary), '', ...table];
}
/** The digest with less detail, for a comment over GitHub's limit: the verdict and each cell below its floor, one line each. */
function resilienceBrief(doc, limit = 10) {
    const summary = shown(doc);
    if (!summary)
        return [];
    if ((0,_aggregate_verdict_js__WEBPACK_IMPORTED_MODULE_0__/* .resiliencePassed */ .KO)(summary))
        return [`**Resilience and security** ${verdictWords(summary)}: ${totalsLine(summary)}`, ''];
    const failing = summary.by_model.flatMap((m) => ['faults', 'attacks'].flatMap((d) => m[d].filter((c) => !c.success).map((cell) => ({ model: m.model, dimension: d, cell }))));
    const line = ({ model, dimension, cell }) => {
        const verb = dimension === 'faults' ? 'recovered from' : 'resisted';
        const missing = cell.planned - cell.counted;
        return `- ✗ ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(model)} ${verb} ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_2__/* .codeSpan */ .SS)(cell.key)}: ${cell.passed}/${cell.counted} (floor ${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_1__/* .percent */ .KN)(cell.floor)})${missing > 0 ? `, ${missing} ${NOT_COUNTED[dimension]}` : ''}`;
    };
    const out = [`#### Resilience and security — ${verdictWords(summary)}`, '', ...failing.slice(0, limit).map(line)];
    if (failing.length > limit)
        out.push(`- … and ${failing.length - limit} more: see the job summary`);
    out.push('');
    return out;
}


/***/ }),

/***/ 67766:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Y: () => (/* reexport */ runs_table_anchor),
  J: () => (/* binding */ renderRuns)
});

// EXTERNAL MODULE: ./src/report/app-findings.ts
var app_findings = __webpack_require__(59880);
// EXTERNAL MODULE: ./src/report/apps.ts
var apps = __webpack_require__(46980);
// EXTERNAL MODULE: ./src/report/dialogue.ts + 1 modules
var report_dialogue = __webpack_require__(13536);
// EXTERNAL MODULE: ./src/report/input-rounds.ts
var input_rounds = __webpack_require__(16282);
// EXTERNAL MODULE: ./src/report/matrix.ts
var matrix = __webpack_require__(53677);
// EXTERNAL MODULE: ./src/report/metric-labels.ts
var metric_labels = __webpack_require__(21754);
// EXTERNAL MODULE: ./src/report/model-view.ts
var model_view = __webpack_require__(28617);
// EXTERNAL MODULE: ./src/report/timestamp.ts
var timestamp = __webpack_require__(19994);
// EXTERNAL MODULE: ./src/report/numbers.ts
var numbers = __webpack_require__(65616);
;// CONCATENATED MODULE: ./src/report/run-verdict.ts

/** A run's verdict as a mark and a word, the same symbols as the matrix and the tool tests; never a colour. */
function runVerdict(run) {
    switch (run.status) {
        case 'passed':
            return { mark: '✓', word: 'passed' };
        case 'failed':
            return { mark: '✗', word: 'failed' };
        case 'error':
            return { mark: '⚠', word: 'error' };
        case 'cancelled':
            return { mark: '⊘', word: 'cancelled' };
        case 'skipped':
            return { mark: '⏭', word: 'skipped: budget' };
    }
}
/** "✗ failed", "✓ passed": the verdict as a reader sees it first. */
const verdictText = (run) => {
    const { mark, word } = runVerdict(run);
    return `${mark} ${word}`;
};
/**
 * The judge's score as a plain number against the case's own threshold, "57% (≥ 90%)": no colour
 * and no "passing", since a run can clear its judge and still fail a check. Null when it was not judged.
 */
function judgeScore(run) {
    const score = run.metrics[0]?.score ?? null;
    return score === null ? null : `${(0,numbers/* formatPercent */.l)(score)}% (≥ ${(0,numbers/* formatPercent */.l)(run.threshold)}%)`;
}

// EXTERNAL MODULE: ./src/util/text.ts
var util_text = __webpack_require__(49997);
// EXTERNAL MODULE: ./src/util/words.ts
var words = __webpack_require__(90333);
// EXTERNAL MODULE: ./src/report/escape.ts
var report_escape = __webpack_require__(14031);
// EXTERNAL MODULE: ./src/report/reasons.ts
var report_reasons = __webpack_require__(67063);
;// CONCATENATED MODULE: ./src/report/runs-table.ts





/** How much of the first failure reason a row quotes; the run's details have all of them. */
const REASON_CHARS = 100;
/** eval-action's anchor: "{case}-{model}-{prompt}", `/` and spaces to `-`, lower-cased, and the repeat when there are several; made safe for an attribute. */
function runs_table_anchor(run) {
    const repeat = run.attempts && run.attempts > 1 ? `-${run.attempt}` : '';
    return `${run.case_id}-${run.model}-${run.prompt_name}${repeat}`
        .replace(/[/ ]/g, '-')
        .toLowerCase()
        .replace(/[^a-z0-9_.-]/g, '-');
}
/** The check that failed the run, first of its reasons and cut short, "and 2 more" when there are others; — for a run that passed. */
function failedCheck(run) {
    if (run.status === 'passed')
        return '—';
    const reasons = (0,report_reasons/* failureReasons */.O)(run);
    if (reasons.length === 0)
        return '—';
    const more = reasons.length > 1 ? ` <i>(and ${reasons.length - 1} more)</i>` : '';
    // The verdict beside it already says "skipped: budget".
    const first = reasons[0].replace(/^skipped: budget — /, '').replace(/\s+/g, ' ').trim();
    return `${(0,report_escape/* escapeHtml */.ZD)((0,util_text/* ellipsize */.mc)(first, REASON_CHARS))}${more}`;
}
/** The required tools that held, "1/1", as a plain count: a failed run's row carries no colour but its verdict. */
function toolsCell(run) {
    const { checks } = run.tool_assertions;
    return checks.length === 0 ? '—' : `${checks.filter((c) => c.passed).length}/${checks.length}`;
}
/**
 * One row per run: its verdict first and the check that failed it beside it, then the case (a
 * link to the run's details), the model and system prompt, the judge's score against the case's
 * threshold, the required tools that held, the time. No badge and no colour: the verdict is the
 * only word that says pass or fail. Nine eval-action columns would not fit a page beside a
 * reason: the model and prompt share a cell, the case is the link.
 */
function table(runs, withTools) {
    const headers = ['Verdict', 'Failed check', 'Case', 'Model · prompt', 'Judge<br>(threshold)', ...(withTools ? ['Required<br>tools'] : []), 'Time'];
    const rows = runs.map((run) => {
        const cells = [
            verdictText(run),
            failedCheck(run),
            `<a href="#user-content-${runs_table_anchor(run)}">${(0,report_escape/* codeHtml */.v1)(run.case_id)}</a>${run.attempts > 1 ? ` · run ${run.attempt}/${run.attempts}` : ''}`,
            `${(0,report_escape/* codeHtml */.v1)(run.model)}<br>${(0,report_escape/* escapeHtml */.ZD)(run.prompt_name)}`,
            judgeScore(run) ?? (run.status === 'cancelled' || run.status === 'skipped' ? '—' : 'not judged'),
            ...(withTools ? [toolsCell(run)] : []),
            run.status === 'cancelled' || run.status === 'skipped' ? '—' : (0,words/* seconds */.YA)(run.duration_s)
        ];
        return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
    });
    return ['<table>', `<tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr>`, ...rows, '</table>'];
}
/**
 * The runs as rows, those that did not pass first. With the cases × models matrix above
 * (`matrixShown`) the passing runs are left out: the matrix counts them and the details hold
 * them. Without it they follow, collapsed (with repeats there can be hundreds).
 */
function summaryTable(runs, matrixShown) {
    const withTools = runs.some((r) => r.tool_assertions.checks.length > 0);
    const notPassing = runs.filter((r) => r.status !== 'passed');
    const passing = runs.filter((r) => r.status === 'passed');
    if (matrixShown)
        return notPassing.length === 0 ? [] : [...table(notPassing, withTools), ''];
    if (notPassing.length === 0)
        return [...table(passing, withTools), ''];
    if (passing.length === 0)
        return [...table(notPassing, withTools), ''];
    return [...table(notPassing, withTools), '', `<details><summary>${(0,words/* count */.U9)(passing.length, 'passing run')}</summary>`, '', ...table(passing, withTools), '', '</details>', ''];
}

// EXTERNAL MODULE: ./src/scoring/python-values.ts
var python_values = __webpack_require__(71678);
// EXTERNAL MODULE: ./src/report/usage.ts
var usage = __webpack_require__(22281);
;// CONCATENATED MODULE: ./src/report/runs.ts















// The run anchors, for the transcripts' file names.

const OUTPUT_LIMIT = 2000;
const ANSWER_LIMIT = 4000;
/** A check's mark: the tick or the cross, as text (a badge image per check made a passing report 200 images). */
const mark = (passed) => (passed ? '✓' : '✗');
/** A section's verdict after its heading: "— ✓ passed", "— ✗ failed". */
const holds = (passed) => `— ${passed ? '✓ passed' : '✗ failed'}`;
/** Metrics overall and per model; a metric no run applies to shows as —. */
function metricsTable(metrics, models) {
    const columns = [['Overall', metrics.overall], ...models.filter((m) => metrics.by_model[m]).map((m) => [m, metrics.by_model[m]])];
    const shown = metric_labels/* METRIC_LABELS */.t.filter(([key]) => columns.some(([, set]) => set[key] !== null));
    if (shown.length === 0)
        return [];
    const cell = (v) => (v === null ? '—' : `${(0,numbers/* formatPercent */.l)(v)}%`);
    return [
        '<table>',
        `<tr><th>Metric</th>${columns.map(([name]) => `<th align="center">${name === 'Overall' ? name : `${(0,report_escape/* codeHtml */.v1)(name)}`}</th>`).join('')}</tr>`,
        ...shown.map(([key, label]) => `<tr><td>${label}</td>${columns.map(([, set]) => `<td align="center">${cell(set[key])}</td>`).join('')}</tr>`),
        '</table>',
        ''
    ];
}
function runDetails(run) {
    const dialogue = run.dialogue ?? null;
    const score = run.metrics[0]?.score ?? null;
    const pct = score === null ? 'N/A' : `${(0,numbers/* formatPercent */.l)(score)}%`;
    const judged = run.status === 'skipped' || run.status === 'cancelled' ? '' : ` — ${score === null ? 'not judged' : `judge ${judgeScore(run)}`}`;
    const out = [
        '<details>',
        `<summary id="${runs_table_anchor(run)}">${verdictText(run)} · ${(0,report_escape/* codeHtml */.v1)(run.case_id)} · ${(0,report_escape/* codeHtml */.v1)(run.model)} · ${(0,report_escape/* escapeHtml */.ZD)(run.prompt_name)}${run.attempts > 1 ? ` · run ${run.attempt}/${run.attempts}` : ''}${judged}</summary>`,
        '',
        ...traceLine(run),
        // A conversation's turns show every user message; a simulated user's case prompt is its goal.
        ...(!dialogue ? ['##### Query', '', (0,report_escape/* blockquote */.aV)(run.input), ''] : dialogue.kind === 'simulated' ? ['##### Goal (simulated user)', '', (0,report_escape/* blockquote */.aV)(run.input), ''] : [])
    ];
    if (run.status === 'skipped') {
        out.push('##### Skipped: budget', '', `Never started: ${(0,report_escape/* escapeMarkdown */.FV)((run.skipped?.detail ?? 'the spend reached max_cost_usd').replace(/\.$/, ''))}.`, '', '</details>');
        return out;
    }
    if (run.cancelled)
        out.push(`##### Cancelled`, '', `By ${run.cancelled.signal} at ${(0,timestamp/* formatTimestamp */.E)(run.cancelled.at)}, while waiting for ${(0,report_escape/* escapeMarkdown */.FV)(run.cancelled.waiting_for)}.`, '');
    if (run.error) {
        out.push(`##### Error (${run.error.stage})`, '', (0,report_escape/* blockquote */.aV)(run.error.message), '');
        if (run.error.stderr_tail)
            out.push('Server stderr (last lines):', '', (0,report_escape/* codeBlock */.DV)((0,report_escape/* truncateText */.EJ)(run.error.stderr_tail, OUTPUT_LIMIT)), '');
    }
    const judge = run.judge;
    const thresholdNote = `threshold ${(0,numbers/* formatPercent */.l)(run.threshold)}%${judge?.scoring_mode ? `, ${judge.scoring_mode} scoring` : ''}`;
    if (dialogue) {
        // Each turn shows its answer and its judge; the overall rubric, when the case has one, judged the whole dialogue.
        out.push(...(0,report_dialogue/* dialogueSection */.Wl)(run));
        if (judge)
            out.push(`##### Judge (whole dialogue) — ${pct} (${thresholdNote})`, '', (0,report_escape/* blockquote */.aV)(run.metrics[0]?.reason || 'No judge comment'), '');
    }
    else {
        out.push('##### Final answer', '');
        if (run.final_output !== null && run.final_output !== '')
            out.push((0,report_escape/* blockquote */.aV)((0,report_escape/* truncateText */.EJ)(run.final_output, ANSWER_LIMIT)), '');
        else
            out.push(`_${run.stop_reason === 'max_steps' ? 'No final answer: the model used every LLM call it was allowed.' : 'No final answer.'}_`, '');
        out.push(`##### Judge — ${pct} (${thresholdNote})`, '', (0,report_escape/* blockquote */.aV)(run.metrics[0]?.reason || 'No judge comment'), '');
    }
    const whole = dialogue ? ' (whole dialogue)' : '';
    if (run.tool_assertions.checks.length > 0) {
        out.push(`##### Tool Assertions${whole} ${holds(run.tool_assertions.passed)}`, '');
        for (const check of run.tool_assertions.checks) {
            const expected = check.expected_args
                ? ` (expected ${Object.entries(check.expected_args)
                    .map(([k, v]) => `${(0,report_escape/* codeSpan */.SS)(k)}: ${formatMatcher(v)}`)
                    .join(', ')})`
                : '';
            out.push(`- ${mark(check.passed)} ${(0,report_escape/* codeSpan */.SS)(check.tool)} — ${check.reason}${expected}`);
            for (const actual of check.actual_args ?? []) {
                const got = Object.entries(actual).map(([k, v]) => `${(0,report_escape/* codeSpan */.SS)(k)}=${(0,report_escape/* codeSpan */.SS)((0,python_values/* pyStr */.rD)(v))}`);
                out.push(`  - Got: ${got.length ? got.join(', ') : '(none of the expected arguments)'}`);
            }
        }
        out.push('');
    }
    if (run.golden_assertions && run.golden_assertions.checks.length > 0) {
        out.push(`##### Golden checks${whole} ${holds(run.golden_assertions.passed)}`, '');
        for (const check of run.golden_assertions.checks)
            out.push(`- ${mark(check.passed)} ${(0,report_escape/* codeSpan */.SS)(check.check)} — ${(0,report_escape/* escapeMarkdown */.FV)(check.reason)}`);
        out.push('');
    }
    // A conversation shows each call's rounds under its turn.
    out.push(...(0,input_rounds/* inputsSection */.D)(run, !dialogue));
    const invalid = run.tool_calls.filter((c) => c.schema_valid === false);
    if (invalid.length > 0) {
        out.push(`##### Arguments outside the tool's inputSchema (${invalid.length})`, '');
        for (const call of invalid)
            out.push(`- ${(0,report_escape/* codeSpan */.SS)(call.name)} ${(0,report_escape/* codeSpan */.SS)(JSON.stringify(call.args))}: ${(0,report_escape/* escapeMarkdown */.FV)(call.schema_errors ?? '')}`);
        out.push('');
    }
    out.push(...(0,model_view/* modelViewLines */.sK)(run));
    if (run.conversation.length > 0)
        out.push(...conversation(run, run.status !== 'passed'));
    out.push('</details>');
    return out;
}
/** "Trace `4bf92f3577b34da6a3ce929d0e0e4736`": the run's W3C trace id, whole, to look it up in the tracing backend. */
function traceLine(run) {
    if (!run.trace_id)
        return [];
    return [`Trace ${(0,report_escape/* codeSpan */.SS)(run.trace_id)}`, ''];
}
/**
 * The run's conversation, each tool call with its input and output (the run's tool_calls are in the
 * order the entries hold them: what the model was shown of each, and the view each opened). A heading, not a fold of its own:
 * the run's details are folded already. A run that did not pass folds each call (`foldCalls`), to
 * read the conversation's outline first; a passing run, already folded inside its case, does not.
 */
function conversation(run, foldCalls) {
    const entries = run.conversation;
    const calls = run.tool_calls;
    const out = ['##### Conversation', ''];
    const paired = new Set();
    let callIndex = 0;
    entries.forEach((entry, i) => {
        if (entry.role === 'user')
            out.push(`**User**${entry.turn === undefined ? '' : ` · turn ${entry.turn}`}${entry.simulated ? ' · simulated' : ''}`, '', (0,report_escape/* blockquote */.aV)(entry.content), '');
        else if (entry.role === 'assistant') {
            if (entry.content)
                out.push('**Assistant**', '', (0,report_escape/* blockquote */.aV)((0,report_escape/* truncateText */.EJ)(entry.content, ANSWER_LIMIT)), '');
            for (const call of entry.tool_calls ?? []) {
                // Each call shows the next unpaired tool message as its output, as eval-action does.
                const resultIndex = entries.findIndex((e, j) => j > i && e.role === 'tool' && !paired.has(j));
                const result = calls[callIndex++];
                const noted = result && result.name === call.name ? result : null;
                if (foldCalls)
                    out.push(`<details><summary>Tool Call ${(0,report_escape/* codeHtml */.v1)(call.name)}${noted ? (0,model_view/* toolCallNoteHtml */.u$)(noted) : ''}</summary>`, '');
                else
                    out.push(`**Tool Call** ${(0,report_escape/* codeSpan */.SS)(call.name)}${noted ? (0,model_view/* toolCallNote */.nm)(noted) : ''}`, '');
                // The view the call opened, rendered in the browser: its verdict, a link to it in the MCP Apps section.
                const render = noted ? (0,app_findings/* callRender */.dy)(run, noted) : null;
                if (render)
                    out.push((0,apps/* appPointer */.DJ)(render), '');
                out.push('**Input**', '', (0,report_escape/* codeBlock */.DV)(JSON.stringify(call.args, null, 2), 'json'), '');
                if (resultIndex >= 0) {
                    paired.add(resultIndex);
                    const output = entries[resultIndex].content;
                    out.push('**Output**', '', (0,report_escape/* codeBlock */.DV)(prettyOutput(output), isJson(output) ? 'json' : ''), '');
                }
                if (foldCalls)
                    out.push('</details>', '');
            }
        }
        else if (!paired.has(i)) {
            out.push(`**${(0,report_escape/* escapeMarkdown */.FV)(entry.tool_name ?? 'tool')}** result:`, '', (0,report_escape/* codeBlock */.DV)(prettyOutput(entry.content)), '');
        }
    });
    return out;
}
function prettyOutput(text) {
    const cut = (0,report_escape/* truncateText */.EJ)(text, OUTPUT_LIMIT + 20);
    if (!isJson(text))
        return cut;
    return (0,report_escape/* truncateText */.EJ)(JSON.stringify(JSON.parse(text), null, 2), OUTPUT_LIMIT + 200);
}
function isJson(text) {
    const t = text.trim();
    if (!(t.startsWith('{') || t.startsWith('[')))
        return false;
    try {
        JSON.parse(t);
        return true;
    }
    catch {
        return false;
    }
}
function formatMatcher(value) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
        const v = value;
        if ('contains' in v)
            return `contains ${(0,report_escape/* codeSpan */.SS)(String(v.contains))}`;
        if ('pattern' in v)
            return `matches ${(0,report_escape/* codeSpan */.SS)(String(v.pattern))}`;
    }
    return (0,report_escape/* codeSpan */.SS)((0,python_values/* pyStr */.rD)(value));
}
/**
 * The passing runs of each case in one fold, "✓ `weather-paris` — 4 runs passed", each run's own
 * details inside it: a passing report is a line per case until someone opens one. A case whose
 * other runs did not pass says so: those are listed above, each on its own. A case of one run is that run's block.
 */
function passingByCase(runs) {
    const passing = runs.filter((r) => r.status === 'passed');
    const cases = [...new Set(passing.map((r) => r.case_id))];
    return cases.flatMap((caseId) => {
        const mine = passing.filter((r) => r.case_id === caseId);
        const others = runs.filter((r) => r.case_id === caseId && r.status !== 'passed').length;
        // A case of one run needs no fold around it: the run's own summary says the same.
        if (mine.length === 1 && others === 0)
            return [...runDetails(mine[0]), ''];
        const rest = others > 0 ? ` (${others} more did not pass: above)` : '';
        return [`<details><summary>✓ ${(0,report_escape/* codeHtml */.v1)(caseId)} — ${(0,words/* count */.U9)(mine.length, 'run')} passed${rest}</summary>`, '', ...mine.flatMap((run) => [...runDetails(run), '']), '</details>', ''];
    });
}
/**
 * The behaviour runs: the cases × models matrix (when there is more than one column or a repeat),
 * the runs that did not pass as rows (every run, when there is no matrix), the usage, the metrics,
 * then every run in detail — those that did not pass first, each open to a click; the passing ones
 * folded by case.
 */
function renderRuns(doc) {
    const out = [];
    const columns = new Set(doc.groups.map((g) => `${g.model} ${g.prompt_name}`)).size;
    const matrixShown = columns > 1 || doc.groups.some((g) => g.runs > 1);
    if (matrixShown)
        out.push(...(0,matrix/* renderMatrix */.C)(doc.groups, doc.gate, doc.runs));
    out.push(...summaryTable(doc.runs, matrixShown));
    out.push((0,usage/* usageLine */.U)(doc), '');
    if (doc.metrics)
        out.push(...metricsTable(doc.metrics, doc.config?.models ?? []));
    out.push('### Details', '');
    for (const run of doc.runs.filter((r) => r.status !== 'passed'))
        out.push(...runDetails(run), '');
    out.push(...passingByCase(doc.runs));
    return out;
}


/***/ }),

/***/ 55241:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  tc: () => (/* binding */ COMMENT_ORDER),
  KS: () => (/* binding */ REPORT_ORDER),
  bP: () => (/* binding */ SECTIONS),
  k1: () => (/* binding */ placeSections),
  dp: () => (/* binding */ sectionContext)
});

// EXTERNAL MODULE: ./src/aggregate/verdict.ts
var aggregate_verdict = __webpack_require__(1882);
// EXTERNAL MODULE: ./src/util/words.ts
var util_words = __webpack_require__(90333);
// EXTERNAL MODULE: ./src/aggregate/gate.ts
var gate = __webpack_require__(39884);
// EXTERNAL MODULE: ./src/scoring/python-values.ts
var python_values = __webpack_require__(71678);
// EXTERNAL MODULE: ./src/report/escape.ts
var report_escape = __webpack_require__(14031);
// EXTERNAL MODULE: ./src/report/metric-labels.ts
var metric_labels = __webpack_require__(21754);
// EXTERNAL MODULE: ./src/report/numbers.ts
var numbers = __webpack_require__(65616);
// EXTERNAL MODULE: ./src/report/timestamp.ts
var timestamp = __webpack_require__(19994);
// EXTERNAL MODULE: ./src/report/reasons.ts
var report_reasons = __webpack_require__(67063);
;// CONCATENATED MODULE: ./src/report/changes.ts








const LIST_MAX = 20;
/** A baseline file is not ours to trust: only these statuses are shown as they are. */
const STATUSES = new Set(['passed', 'failed', 'error', 'cancelled', 'skipped']);
/**
 * "What changed since the baseline": the aggregate metrics that moved, with baseline, now and Δ
 * (the worse first; those that did not move in one line); the groups that were fixed, are new or
 * went away (the regressed ones are named once, under the failures); the tool tests that
 * regressed, are new and failing, or were fixed; new and resolved conformance findings; the tool
 * surface (renames included); the Layer 2 cells that moved; the budgets that fail now and did
 * not; cost and run time.
 */
function renderWhatChanged(gate, changes, heading = '####') {
    // The gate holds which baseline this is; the changes are only ever computed with one.
    const baseline = gate.baseline ? `Baseline: ${(0,report_escape/* codeSpan */.SS)(gate.baseline.source)} (${(0,timestamp/* formatTimestamp */.E)(gate.baseline.started_at)}).` : 'Baseline: unknown.';
    const out = [`${heading} What changed since the baseline`, '', baseline, ''];
    // The metrics that moved in a table, the worse first; those that did not, in one line after it.
    const better = (m) => (m.lower_is_better ? 'lower' : 'higher');
    const label = (m) => `${(0,metric_labels/* metricLabel */.B)(m.name)}${m.lower_is_better ? ' (lower is better)' : ''}`;
    const moved = gate.metrics.map((m) => ({ m, delta: (0,util_words/* pointsChange */.Y_)(m.baseline, m.current, better(m)) }));
    // A metric the gate failed is in the table even when its drop is under the display precision (max_drop: 0).
    const shown = moved.filter((x) => x.delta.moved || x.m.failed);
    const changed = [...shown.filter((x) => x.delta.worse !== false), ...shown.filter((x) => x.delta.worse === false)];
    if (changed.length > 0) {
        // The deltas gate only under delta and both; under absolute they are information.
        const gating = gate.mode !== 'absolute';
        out.push('<table>', `<tr><th>Metric</th><th align="right">Baseline</th><th align="right">Now</th><th align="right">Δ</th>${gating ? '<th></th>' : ''}</tr>`);
        for (const { m, delta } of changed) {
            const verdict = gating ? `<td>${m.failed ? `✗ worse by more than ${(0,util_words/* points */.WR)(gate.max_drop)}` : ''}</td>` : '';
            out.push(`<tr><td>${label(m)}</td><td align="right">${(0,util_words/* percent */.KN)(m.baseline)}</td><td align="right">${(0,util_words/* percent */.KN)(m.current)}</td><td align="right">${delta.text}</td>${verdict}</tr>`);
        }
        out.push('</table>', '');
    }
    const unchanged = moved.filter((x) => !shown.includes(x)).map(({ m }) => `${(0,metric_labels/* metricLabel */.B)(m.name)} ${(0,util_words/* percent */.KN)(m.current)}`);
    if (unchanged.length > 0)
        out.push(`${(0,util_words/* count */.U9)(unchanged.length, 'metric')} unchanged: ${unchanged.join(' · ')}`, '');
    const groups = [
        gate.regressed.length ? `**${gate.regressed.length} regressed** (marked ▼)` : '0 regressed',
        `${gate.fixed.length} fixed`,
        `${gate.added.length} new`,
        `${gate.removed.length} removed`
    ];
    out.push(`**Groups:** ${groups.join(' · ')}`, '');
    const named = (label, items) => items.length ? [`- ${label}: ${items.slice(0, LIST_MAX).map((i) => (0,report_escape/* codeSpan */.SS)(i)).join(', ')}${items.length > LIST_MAX ? `, and ${items.length - LIST_MAX} more` : ''}`] : [];
    const lists = [...named('Fixed', gate.fixed), ...named('New', gate.added), ...named('Removed', gate.removed)];
    if (lists.length)
        out.push(...lists, '');
    if (changes.tool_tests)
        out.push(...toolTestChangeLines(changes.tool_tests));
    if (changes.conformance) {
        const { new: fresh, resolved } = changes.conformance;
        const named = (0,util_words/* someOf */.yU)(fresh.map((f) => `${(0,report_escape/* codeSpan */.SS)(f.id)} (${f.status === 'fail' ? 'error' : 'warning'})`), LIST_MAX);
        const parts = [fresh.length ? `**${(0,util_words/* count */.U9)(fresh.length, 'new finding')}**: ${named}` : 'no new findings', resolved.length ? `${(0,util_words/* count */.U9)(resolved.length, 'finding')} resolved (${resolved.map((f) => (0,report_escape/* codeSpan */.SS)(f.id)).join(', ')})` : ''];
        out.push(`**Conformance:** ${parts.filter(Boolean).join(' · ')}`, '');
    }
    if (changes.tools) {
        const { added, removed, changed } = changes.tools;
        // A baseline from before renames were detected has none.
        const renamed = changes.tools.renamed ?? [];
        const parts = [
            ...added.map((t) => `+ ${(0,report_escape/* codeSpan */.SS)(t)}`),
            ...removed.map((t) => `− ${(0,report_escape/* codeSpan */.SS)(t)}`),
            ...renamed.map((t) => `${(0,report_escape/* codeSpan */.SS)(t.from)} → ${(0,report_escape/* codeSpan */.SS)(t.to)} (renamed)`),
            ...changed.map((t) => `${(0,report_escape/* codeSpan */.SS)(t.name)} (${t.what.map((w) => (0,report_escape/* escapeMarkdown */.FV)(w)).join(', ')} changed)`)
        ];
        if (parts.length)
            out.push(`**Tools:** ${parts.slice(0, LIST_MAX).join(', ')}${parts.length > LIST_MAX ? ', …' : ''}`, '');
    }
    if (changes.resilience)
        out.push(...resilienceChangeLines(changes.resilience));
    if (changes.budgets && changes.budgets.length > 0)
        out.push(...budgetChangeLines(changes.budgets));
    const figures = [];
    const { cost_usd: cost, median_run_s: median } = changes;
    // A figure that did not move at its display precision is said once: "1.5s, unchanged".
    const figure = (name, before, after, shown) => {
        const delta = (0,util_words/* relativeChange */.N0)(before, after, 'lower', shown);
        return `**${name}:** ${delta.moved ? `${shown(before)} → ${shown(after)} (${delta.text})` : `${shown(after)}, unchanged`}`;
    };
    if (cost.baseline !== null && cost.current !== null)
        figures.push(figure('Cost', cost.baseline, cost.current, util_words/* usd */.dR));
    if (median.baseline !== null && median.current !== null)
        figures.push(figure('Median run', median.baseline, median.current, util_words/* seconds */.YA));
    if (figures.length)
        out.push(figures.join(' · '), '');
    return out;
}
/** "**Tool tests:** **1 regressed**: `weather-json` · 1 new and failing: `intro-page` · 1 fixed: `search`". */
function toolTestChangeLines(t) {
    const ids = (list) => (0,util_words/* someOf */.yU)(list.map((id) => (0,report_escape/* codeSpan */.SS)(id)), LIST_MAX);
    const regressed = t.regressed.map((x) => x.id);
    const fresh = t.new_failing.map((x) => x.id);
    if (regressed.length + fresh.length + t.fixed.length === 0)
        return ['**Tool tests:** no test changed its verdict', ''];
    const parts = [
        regressed.length ? `**${regressed.length} regressed** (passed in the baseline): ${ids(regressed)}` : '0 regressed',
        ...(fresh.length ? [`${fresh.length} new and not passing: ${ids(fresh)}`] : []),
        ...(t.fixed.length ? [`${t.fixed.length} fixed: ${ids(t.fixed)}`] : [])
    ];
    return [`**Tool tests:** ${parts.join(' · ')}`, ''];
}
/** "**Budgets:** 2 fail now that did not in the baseline", a line for each. */
function budgetChangeLines(list) {
    const line = (b) => `- ${(0,report_escape/* codeSpan */.SS)(b.budget)}${b.subject ? ` · ${(0,report_escape/* codeSpan */.SS)(b.subject)}` : ''} (${b.baseline === 'passed' ? 'held in the baseline' : 'not checked in the baseline'}) — ${(0,report_escape/* escapeMarkdown */.FV)(b.reason)}`;
    const out = [`**Budgets:** **${(0,util_words/* count */.U9)(list.length, 'budget')} ${list.length === 1 ? 'fails' : 'fail'} now** that did not in the baseline`, '', ...list.slice(0, LIST_MAX).map(line)];
    if (list.length > LIST_MAX)
        out.push(`- … and ${list.length - LIST_MAX} more (\`changes.budgets\` in the results document)`);
    out.push('');
    return out;
}
/** "recovered from `timeout`: 100% → 50% (▼ −50 pt)", one line per Layer 2 cell that moved. */
function resilienceChangeLines(list) {
    if (list.length === 0)
        return ['**Resilience and security:** no cell changed', ''];
    const rate = (r) => (r === null ? '—' : (0,util_words/* percent */.KN)(r));
    const line = (c) => {
        const what = c.dimension === 'fault' ? 'recovered from' : 'resisted';
        const delta = c.baseline !== null && c.current !== null ? ` (${(0,util_words/* pointsDelta */.sn)(c.current - c.baseline)})` : c.baseline === null ? ' (new)' : ' (no longer tested)';
        return `- ${(0,report_escape/* codeSpan */.SS)(c.model)} ${what} ${(0,report_escape/* codeSpan */.SS)(c.key)}: ${rate(c.baseline)} → ${rate(c.current)}${delta}`;
    };
    const out = [`**Resilience and security:** ${(0,util_words/* count */.U9)(list.length, 'cell')} changed`, '', ...list.slice(0, LIST_MAX).map(line)];
    if (list.length > LIST_MAX)
        out.push(`- … and ${list.length - LIST_MAX} more (\`changes.resilience\` in the results document)`);
    out.push('');
    return out;
}
/**
 * For each regressed group: the baseline's passing run beside the run that now fails, and why it
 * fails (from this document's runs: the same run the snapshot took).
 */
function renderRegressions(changes, runs = [], limit = 10) {
    if (changes.regressions.length === 0)
        return [];
    const out = [];
    for (const r of changes.regressions.slice(0, limit)) {
        const failing = runs.find((run) => (0,gate/* groupKey */.$)(run) === r.group && run.status !== 'passed');
        const why = failing ? (0,report_reasons/* failureReasons */.O)(failing) : [];
        out.push(`<details><summary>▼ ${(0,report_escape/* escapeHtml */.ZD)(r.group)}: the baseline's run and this one</summary>`, '');
        out.push(...side('Baseline', r.baseline), ...side('Now', r.current));
        if (why.length)
            out.push(`**Why it fails now:** ${(0,report_escape/* escapeMarkdown */.FV)((0,report_escape/* truncateText */.EJ)(why.join('; '), 600))}`, '');
        out.push('</details>', '');
    }
    if (changes.regressions.length > limit)
        out.push(`_${(0,util_words/* count */.U9)(changes.regressions.length - limit, 'more regressed group')}: their runs are in the results document (\`changes.regressions\`)._`, '');
    return out;
}
function side(label, run) {
    if (!run)
        return [`**${label}:** _no run recorded._`, ''];
    const score = typeof run.score === 'number' ? `${(0,numbers/* formatPercent */.l)(run.score)}%` : 'not judged';
    const status = STATUSES.has(run.status) ? run.status : 'unknown';
    const calls = run.tool_calls.map((c) => `${(0,report_escape/* codeSpan */.SS)(c.name)}${(0,report_escape/* escapeMarkdown */.FV)(`(${Object.entries(c.args).map(([k, v]) => `${k}=${(0,python_values/* pyStr */.rD)(v)}`).join(', ')})`)}`);
    const out = [`**${label}** — ${status}, judge ${score}; tool calls: ${calls.length ? calls.join(' → ') : 'none'}`, ''];
    out.push(run.final_output ? (0,report_escape/* blockquote */.aV)((0,report_escape/* truncateText */.EJ)(run.final_output, 1500)) : '> _No final answer._', '');
    return out;
}

// EXTERNAL MODULE: ./src/report/app-findings.ts
var app_findings = __webpack_require__(59880);
// EXTERNAL MODULE: ./src/report/apps.ts
var apps = __webpack_require__(46980);
// EXTERNAL MODULE: ./src/util/text.ts
var util_text = __webpack_require__(49997);
;// CONCATENATED MODULE: ./src/report/apps-digest.ts





/**
 * The comment's MCP Apps part: per tool, its worst render (failed > review > warning) in a line
 * with the call that made it, and "screenshot changed" where the visual diff says so. All
 * passing, one collapsed line; skipped, a notice (never a pass).
 */
const WORDS_CHARS = 200;
/** The tools listed before the rest are counted. */
const TOOLS_LISTED = 20;
const STANDING_WORDS = { failed: 'failed', review: 'for review', warning: 'with a warning', passed: 'passed', 'not-done': 'not done' };
function byTool(doc) {
    const tools = new Map();
    for (const { render, place } of (0,app_findings/* appRendersOf */.uY)(doc)) {
        const line = tools.get(render.tool);
        if (!line)
            tools.set(render.tool, { tool: render.tool, worst: { render, where: (0,app_findings/* placeWords */.fp)(place) }, renders: [render] });
        else {
            line.renders.push(render);
            if ((0,app_findings/* byStanding */.k7)(render, line.worst.render) < 0)
                line.worst = { render, where: (0,app_findings/* placeWords */.fp)(place) };
        }
    }
    return [...tools.values()].sort((a, b) => (0,app_findings/* byStanding */.k7)(a.worst.render, b.worst.render));
}
function toolLine(line) {
    const { render, where } = line.worst;
    const standing = (0,app_findings/* renderStanding */.F8)(render);
    const alike = line.renders.filter((r) => (0,app_findings/* renderStanding */.F8)(r) === standing).length;
    const others = line.renders.length > 1 ? ` (${alike} of ${(0,util_words/* count */.U9)(line.renders.length, 'render')} ${STANDING_WORDS[standing]})` : '';
    const changed = line.renders.filter((r) => r.visual_diff?.changed);
    const visual = changed.length > 0 && !(standing === 'review' && render.visual_diff?.changed && changed.length === 1) ? ` · screenshot changed (${changed.map((r) => (0,util_words/* percent */.KN)(r.visual_diff.changed_ratio)).join(', ')})` : '';
    const words = standing === 'passed' ? 'passed' : (0,app_findings/* renderVerdictWords */.Rr)(render);
    return `- ${app_findings/* STANDING_MARK */.TG[standing]} ${(0,report_escape/* codeSpan */.SS)(line.tool)}${others} — ${(0,report_escape/* escapeMarkdown */.FV)((0,util_text/* ellipsize */.mc)(words, WORDS_CHARS))} · ${(0,report_escape/* escapeMarkdown */.FV)(where)}${visual}`;
}
function appsDigest(doc, seeAlso = 'the job summary') {
    const section = doc.apps;
    if (!section)
        return [];
    if (section.status === 'skipped')
        return [`**⚠ MCP Apps not rendered (skipped, not a pass):** ${(0,report_escape/* escapeMarkdown */.FV)(section.reason ?? 'the browser layer was skipped')}`, ''];
    const lines = byTool(doc);
    const renders = lines.flatMap((l) => l.renders);
    const verdict = (0,apps/* appsVerdict */.uH)(section, renders);
    const body = [...lines.slice(0, TOOLS_LISTED).map(toolLine), ...(lines.length > TOOLS_LISTED ? [`- … and ${(0,util_words/* count */.U9)(lines.length - TOOLS_LISTED, 'more tool')}: see ${seeAlso}`] : []), ''];
    const quiet = lines.every((l) => (0,app_findings/* renderStanding */.F8)(l.worst.render) === 'passed' || (0,app_findings/* renderStanding */.F8)(l.worst.render) === 'not-done');
    if (quiet)
        return [`<details><summary>MCP Apps ${(0,report_escape/* escapeHtml */.ZD)(verdict)}</summary>`, '', ...body, '</details>', ''];
    return [`#### MCP Apps — ${verdict}`, '', ...body];
}
/** Over the comment's limit: the verdict and the worst tool in one line. */
function appsBrief(doc) {
    const section = doc.apps;
    if (!section)
        return [];
    if (section.status === 'skipped')
        return appsDigest(doc);
    const lines = byTool(doc);
    const worst = lines[0];
    const first = worst && (0,app_findings/* renderStanding */.F8)(worst.worst.render) !== 'passed' ? ` — worst: ${(0,report_escape/* codeSpan */.SS)(worst.tool)}: ${(0,report_escape/* escapeMarkdown */.FV)((0,util_text/* ellipsize */.mc)((0,app_findings/* renderVerdictWords */.Rr)(worst.worst.render), WORDS_CHARS))}` : '';
    return [`**MCP Apps ${(0,apps/* appsVerdict */.uH)(section, lines.flatMap((l) => l.renders))}**${first}`, ''];
}

// EXTERNAL MODULE: ./src/report/conformance.ts
var conformance = __webpack_require__(60555);
// EXTERNAL MODULE: ./src/aggregate/evals-v1-metrics.ts
var evals_v1_metrics = __webpack_require__(69808);
;// CONCATENATED MODULE: ./src/report/evals-v1.ts




/**
 * An evals/v1 suite's section: its name and intent, the clients that ran and those that did not
 * (with why), the parts not run here (widget and judge screenshots), and its gates with the
 * figures they were checked against. Every name and text comes from the suite, so every one is
 * escaped; never a table (a `|` in a name would split a cell).
 */
/** How many clients and parts not run the comment's line names before "and N more". */
const NAMED_IN_COMMENT = 3;
const WHAT = {
    client: ['client', 'clients'],
    widget_screenshot: ['widget screenshot', 'widget screenshots'],
    judge_screenshot: ['judge screenshot', 'judge screenshots']
};
/** The gates as written, each with its budget and the figure it was checked against; with @mcp-use/evals' names. */
function gateLines(section, doc, figures) {
    const checks = doc.telemetry?.budgets ?? [];
    const gates = [
        ['toolErrorRateMax', section.gates.toolErrorRateMax, 'max_tool_error_rate', figures.toolErrorRate, `tool error rate ${(0,util_text/* significant */.I1)(figures.toolErrorRate)} (${(0,util_words/* count */.U9)(figures.errors, 'error')} in ${(0,util_words/* count */.U9)(figures.runs, 'run')})`],
        ['agentStepsP95Max', section.gates.agentStepsP95Max, 'max_agent_steps_p95', figures.agentStepsP95, `agent steps p95 ${figures.agentStepsP95}`],
        ['tokensPerSuccessP95Max', section.gates.tokensPerSuccessP95Max, 'max_tokens_per_success_p95', figures.tokensPerSuccessP95, `tokens per success p95 ${figures.tokensPerSuccessP95} (over ${(0,util_words/* count */.U9)(figures.passed, 'run')} that passed)`]
    ];
    const set = gates.filter(([, limit]) => limit !== null);
    if (set.length === 0)
        return ['_No gate set (`metrics.gates`)._', ''];
    return [
        ...set.map(([name, limit, budget, , figure]) => {
            const check = checks.find((c) => c.budget === budget);
            const mark = check ? (check.passed ? '✅' : '❌') : '·';
            return `- ${mark} ${(0,report_escape/* codeSpan */.SS)(`${name}: ${limit}`)} (the budget ${(0,report_escape/* codeSpan */.SS)(budget)}): ${figure}${check ? '' : ' — not checked'}`;
        }),
        ''
    ];
}
function clientLine(client) {
    const models = client.models.length ? client.models.map((m) => (0,report_escape/* escapeMarkdown */.FV)(m)).join(', ') : 'the default model';
    const head = `${(0,report_escape/* escapeMarkdown */.FV)(client.target)} in flow ${(0,report_escape/* escapeMarkdown */.FV)(client.flow)}`;
    return client.run ? `- ✅ ${head}: ${models}` : `- ⏭ ${head}, not run: ${(0,report_escape/* escapeMarkdown */.FV)(client.reason ?? 'not run here')}`;
}
/** The report's section. */
function renderEvalsV1(doc) {
    const section = doc.evals_v1;
    if (!section)
        return [];
    const figures = (0,evals_v1_metrics/* evalsV1Figures */.UQ)(doc.runs);
    const out = [`## evals/v1 suite ${(0,report_escape/* escapeMarkdown */.FV)(section.name)}`, ''];
    if (section.intent)
        out.push((0,report_escape/* blockquote */.aV)(section.intent), '');
    const flows = section.flows.map((f) => `${(0,report_escape/* escapeMarkdown */.FV)(f.id)} (${(0,util_words/* count */.U9)(f.checks.length, 'check')}, ${(0,util_words/* count */.U9)(f.scenarios.length, 'scenario')})`);
    out.push(`${section.flows.length === 1 ? 'Flow' : 'Flows'} ${flows.join(', ')}: the checks ran as tool tests, the scenarios as conversation cases. Context ${(0,report_escape/* codeSpan */.SS)(section.context)} (what \`runOn\` was matched against).`, '');
    out.push('**Clients**', '', ...section.clients.map(clientLine), '');
    const parts = section.not_run.filter((n) => n.what !== 'client');
    if (parts.length > 0)
        out.push('**Not run here**', '', ...parts.map((n) => `- ${WHAT[n.what][0]} at ${(0,report_escape/* codeSpan */.SS)(n.where)}: ${(0,report_escape/* escapeMarkdown */.FV)(n.reason)}`), '');
    out.push('**Gates** (`metrics.gates`, checked as budgets)', '', ...gateLines(section, doc, figures));
    const recorded = [
        section.fail_on.length ? `\`ci.failOn\` ${section.fail_on.map((f) => (0,report_escape/* escapeMarkdown */.FV)(f)).join(', ')} (recorded: the gate decides)` : '',
        section.parallel_cases === null ? '' : `\`ci.parallelCases\` ${section.parallel_cases}`
    ].filter(Boolean);
    if (recorded.length)
        out.push(`_${recorded.join(' · ')}._`, '');
    return out;
}
/** What was not run, counted ("1 client (chatgpt: …), 2 widget screenshots"); empty when everything ran. */
function notRunWords(section) {
    const words = [];
    const clients = section.clients.filter((c) => !c.run);
    if (clients.length > 0) {
        const named = clients.slice(0, NAMED_IN_COMMENT).map((c) => `${(0,report_escape/* escapeMarkdown */.FV)(c.target)}: ${(0,report_escape/* escapeMarkdown */.FV)(c.reason ?? 'not run here')}`);
        const more = clients.length > NAMED_IN_COMMENT ? `, and ${clients.length - NAMED_IN_COMMENT} more` : '';
        words.push(`${(0,util_words/* count */.U9)(clients.length, 'client')} (${named.join('; ')}${more})`);
    }
    for (const what of ['widget_screenshot', 'judge_screenshot']) {
        const n = section.not_run.filter((p) => p.what === what).length;
        if (n > 0)
            words.push(`${n} ${WHAT[what][n === 1 ? 0 : 1]}`);
    }
    return words;
}
/** The comment's form: one line when something of the suite was not run here, else nothing (the gates are in the budgets). */
function evalsV1Digest(doc) {
    const section = doc.evals_v1;
    if (!section)
        return [];
    const words = notRunWords(section);
    if (words.length === 0)
        return [];
    return [`**evals/v1 suite ${(0,report_escape/* escapeMarkdown */.FV)(section.name)}** — not run here: ${words.join(', ')}; see the job summary.`, ''];
}

// EXTERNAL MODULE: ./src/report/html-links.ts
var html_links = __webpack_require__(59417);
// EXTERNAL MODULE: ./src/report/telemetry-budgets.ts
var telemetry_budgets = __webpack_require__(34882);
;// CONCATENATED MODULE: ./src/report/failures.ts








const REASON_CHARS = 300;
const SKIPPED_NAMED = 5;
/** The distinct reasons listed under one case before the rest are counted. */
const REASONS_LISTED = 5;
/** The runs named beside one of those reasons before the rest are counted. */
const RUNS_NAMED = 3;
const runsOf = (doc, group) => group.run_indexes.map((i) => doc.runs.find((r) => r.index === i)).filter((r) => r !== undefined);
const notPassing = (r) => r.status === 'failed' || r.status === 'error';
/** Below its floor only because runs never started (skipped: budget): none of its runs failed or errored. */
function onlySkipped(doc, group) {
    const runs = runsOf(doc, group);
    return runs.some((r) => r.status === 'skipped') && runs.every((r) => r.status === 'passed' || r.status === 'skipped' || r.status === 'cancelled');
}
/**
 * What did not pass, every layer counted in the heading so it agrees with the headline: the
 * behaviour runs grouped by case — regressions first, a reason shared by several runs said once
 * with how many — the groups that fell short only because the spend left their runs unstarted,
 * in one line; then how many runs failed inside a group that still reached its floor. The other
 * layers' failures (tool tests, conformance, cells, budgets) are the sections that follow it.
 */
function renderFailures(doc, heading, seeAlso, limit = 50, html = null) {
    const regressed = new Set(doc.gate?.regressed ?? []);
    // A group cancelled whole is no verdict; one whose runs the budget left unstarted failed (its `cancelled` counts them too).
    const failing = doc.groups.filter((g) => !g.success && (g.cancelled < g.runs || runsOf(doc, g).some((r) => r.status === 'skipped')));
    const skipped = failing.filter((g) => onlySkipped(doc, g));
    const listed = failing.filter((g) => !skipped.includes(g));
    const others = otherLayers(doc);
    if (failing.length === 0) {
        // Nothing of the runs to list: with several failing layers, one line that counts them before their sections.
        return [...(others.length > 1 ? [`**Did not pass:** ${others.join(' · ')}`, ''] : []), ...flakyLine(doc, seeAlso)];
    }
    const ordered = [...listed.filter((g) => regressed.has((0,gate/* groupKey */.$)(g))), ...listed.filter((g) => !regressed.has((0,gate/* groupKey */.$)(g)))];
    const cases = [];
    for (const group of ordered) {
        const known = cases.find((c) => c.id === group.case_id);
        if (known)
            known.failing.push(group);
        else
            cases.push({ id: group.case_id, failing: [group], all: doc.groups.filter((g) => g.case_id === group.case_id) });
    }
    // A group's own counts when its runs are not in the document (a document cut down by hand).
    const runs = listed.reduce((n, g) => n + (runsOf(doc, g).length > 0 ? runsOf(doc, g).filter(notPassing).length : g.runs - g.passed - g.cancelled), 0);
    const tally = [
        ...(listed.length ? [`${(0,util_words/* count */.U9)(runs, 'run')} in ${(0,util_words/* count */.U9)(cases.length, 'case')}`] : []),
        // Counted as the headline counts them: runs, not groups.
        ...(skipped.length ? [`${(0,util_words/* count */.U9)(skipped.flatMap((g) => runsOf(doc, g)).filter((r) => r.status === 'skipped').length, 'run')} skipped (budget)`] : []),
        ...others
    ];
    const out = [`${heading} Did not pass — ${tally.join(' · ')}`, ''];
    for (const c of cases.slice(0, limit))
        out.push(...caseLines(doc, c, regressed, html));
    if (cases.length > limit)
        out.push(`- … and ${(0,util_words/* count */.U9)(cases.length - limit, 'more case')}: see ${seeAlso}`);
    out.push(...skippedLine(doc, skipped));
    out.push('', ...flakyLine(doc, seeAlso));
    return out;
}
/** The other layers that failed, counted as their sections count them: "2 tool tests", "3 resilience cells", "1 budget", "conformance". */
function otherLayers(doc) {
    const v = (0,aggregate_verdict/* verdictOf */.Vj)(doc);
    const tests = v.toolTests && v.toolTests.ran && !v.toolTests.passed ? [(0,util_words/* count */.U9)(v.toolTests.notPassing.length, 'tool test')] : [];
    const cells = v.resilience && !v.resilience.passed ? [(0,util_words/* count */.U9)(v.resilience.reasons.length, 'resilience cell')] : [];
    const budgets = v.budgets.failed.length ? [(0,util_words/* count */.U9)(v.budgets.failed.length, 'budget')] : [];
    const conformance = v.conformance && !v.conformance.passed && !v.conformance.unreachable ? ['protocol conformance'] : [];
    return [...tests, ...cells, ...budgets, ...conformance];
}
/** "- ⏭ 3 groups skipped: budget — the spend reached max_cost_usd ($0.50 of $0.50) before their runs started: `a · m · p`, …". */
function skippedLine(doc, groups) {
    if (groups.length === 0)
        return [];
    const run = groups.flatMap((g) => runsOf(doc, g)).find((r) => r.status === 'skipped');
    const detail = (0,telemetry_budgets/* skipWords */.XY)(run?.skipped?.detail, groups.length > 1 || groups.some((g) => g.runs > 1));
    // Regressions first, each marked: they are named here once, as in the lines above.
    const regressed = new Set(doc.gate?.regressed ?? []);
    const ordered = [...groups.filter((g) => regressed.has((0,gate/* groupKey */.$)(g))), ...groups.filter((g) => !regressed.has((0,gate/* groupKey */.$)(g)))];
    const named = ordered.slice(0, SKIPPED_NAMED).map((g) => `${(0,report_escape/* codeSpan */.SS)((0,gate/* groupKey */.$)(g))}${regressed.has((0,gate/* groupKey */.$)(g)) ? ' **▼ regressed**' : ''}`);
    const more = groups.length > SKIPPED_NAMED ? `, and ${groups.length - SKIPPED_NAMED} more` : '';
    return [`- ⏭ ${(0,util_words/* count */.U9)(groups.length, 'group')} skipped: budget — ${(0,report_escape/* escapeMarkdown */.FV)((0,util_text/* ellipsize */.mc)(detail, REASON_CHARS))}: ${named.join(', ')}${more}`];
}
/**
 * One case: a line naming it, where it failed and why; a reason every failing run shares is said
 * once, different reasons each under it with the runs that gave it.
 */
function caseLines(doc, c, regressed, html) {
    const runs = c.failing.flatMap((g) => runsOf(doc, g)).filter(notPassing);
    const allErrored = c.failing.every((g) => g.errored === g.runs);
    const models = new Set(c.all.map((g) => g.model)).size;
    const prompts = new Set(c.all.map((g) => g.prompt_name)).size;
    const marks = c.failing.filter((g) => regressed.has((0,gate/* groupKey */.$)(g)));
    const only = c.failing.length === 1 ? c.failing[0] : null;
    let head;
    if (only) {
        const where = `${(0,report_escape/* codeSpan */.SS)(c.id)} · ${(0,report_escape/* codeSpan */.SS)(only.model)} · ${(0,report_escape/* escapeMarkdown */.FV)(only.prompt_name)}`;
        const tally = only.runs > 1 ? ` — ${only.passed}/${only.runs} passed, floor ${(0,util_words/* percent */.KN)(only.floor)}` : '';
        head = `${where}${marks.length ? ' **▼ regressed**' : ''}${tally}`;
    }
    else {
        const total = c.all.flatMap((g) => runsOf(doc, g)).filter((r) => r.status === 'passed' || notPassing(r)).length;
        const failed = runs.filter((r) => r.status === 'failed').length;
        const errored = runs.length - failed;
        const outcome = failed && errored ? `${failed} failed and ${errored} errored of ${(0,util_words/* count */.U9)(total, 'run')}` : `${runs.length} of ${(0,util_words/* count */.U9)(total, 'run')} ${failed ? 'failed' : 'errored'}`;
        const mark = marks.length === 0 ? '' : marks.length === c.failing.length ? ' **▼ regressed**' : ` **▼ regressed** on ${marks.map((g) => (0,report_escape/* codeSpan */.SS)(`${g.model} · ${g.prompt_name}`)).join(', ')}`;
        head = `${(0,report_escape/* codeSpan */.SS)(c.id)}${mark} — ${outcome}, ${scope(c, models, prompts)}`;
    }
    const symbol = allErrored ? '⚠' : '✗';
    const said = runs.map((r) => (0,report_reasons/* failureReasons */.O)(r));
    const whole = (reasons) => (0,report_escape/* escapeMarkdown */.FV)((0,util_text/* ellipsize */.mc)(reasons.join('; '), REASON_CHARS));
    if (runs.length === 0)
        return [`- ${symbol} ${head}`];
    const same = said.every((r) => r.join('; ') === said[0].join('; '));
    if (same) {
        // One failing run of repeats: which one, to find it in the table.
        const which = only && only.runs > 1 && runs.length === 1 ? ` (run ${runs[0].attempt})` : '';
        return [`- ${symbol} ${head}${which}${said[0].length ? ` — ${whole(said[0])}` : ''}${(0,html_links/* runLinks */.$E)(runs, html)}`];
    }
    // Several reasons: each once, with the runs that gave it, the most common first.
    const byReason = new Map();
    runs.forEach((run, i) => {
        for (const reason of said[i].length ? said[i] : ['did not pass'])
            byReason.set(reason, [...(byReason.get(reason) ?? []), run]);
    });
    const reasons = [...byReason].sort((a, b) => b[1].length - a[1].length);
    const name = (r) => {
        const parts = [models > 1 ? (0,report_escape/* codeSpan */.SS)(r.model) : '', prompts > 1 ? (0,report_escape/* escapeMarkdown */.FV)(r.prompt_name) : '', (c.all.find((g) => g.model === r.model && g.prompt_name === r.prompt_name)?.runs ?? 1) > 1 ? `run ${r.attempt}` : ''];
        return parts.filter(Boolean).join(' · ') || `run ${r.attempt}`;
    };
    const out = [`- ${symbol} ${head}:`];
    for (const [reason, by] of reasons.slice(0, REASONS_LISTED)) {
        const who = by.length === runs.length ? `all ${runs.length} runs` : `${(0,util_words/* count */.U9)(by.length, 'run')}: ${(0,util_words/* someOf */.yU)(by.map(name), RUNS_NAMED)}`;
        out.push(`  - ${(0,report_escape/* escapeMarkdown */.FV)((0,util_text/* ellipsize */.mc)(reason, REASON_CHARS))} (${who})${(0,html_links/* runLinks */.$E)(by, html)}`);
    }
    if (reasons.length > REASONS_LISTED)
        out.push(`  - … and ${(0,util_words/* count */.U9)(reasons.length - REASONS_LISTED, 'more reason')}`);
    return out;
}
/**
 * Where a case failed: "every model and prompt", "every model", "every prompt"; the models it
 * failed on with every prompt ("on `m`, every prompt"), the prompts it failed with on every model
 * ("with terse, every model"); else the model · prompt pairs.
 */
function scope(c, models, prompts) {
    if (c.failing.length === c.all.length)
        return models > 1 && prompts > 1 ? 'every model and prompt' : models > 1 ? 'every model' : 'every prompt';
    const distinct = (pick) => [...new Set(c.failing.map(pick))];
    const whole = (pick, value) => c.all.filter((g) => pick(g) === value).every((g) => c.failing.includes(g));
    const failedModels = distinct((g) => g.model);
    const failedPrompts = distinct((g) => g.prompt_name);
    if (prompts > 1 && failedModels.every((m) => whole((g) => g.model, m)))
        return `on ${failedModels.map((m) => (0,report_escape/* codeSpan */.SS)(m)).join(', ')}, every prompt`;
    if (models > 1 && failedPrompts.every((p) => whole((g) => g.prompt_name, p)))
        return `with ${failedPrompts.map((p) => (0,report_escape/* escapeMarkdown */.FV)(p)).join(', ')}, every model`;
    const pair = (g) => [models > 1 ? (0,report_escape/* codeSpan */.SS)(g.model) : '', prompts > 1 ? (0,report_escape/* escapeMarkdown */.FV)(g.prompt_name) : ''].filter(Boolean).join(' · ');
    return `on ${c.failing.map(pair).join(', ')}`;
}
/** Runs that failed although their group reached its floor: worth a look, not a failure. */
function flakyLine(doc, seeAlso) {
    const passingGroups = new Set(doc.groups.filter((g) => g.success).flatMap((g) => g.run_indexes));
    const flaky = doc.runs.filter((r) => passingGroups.has(r.index) && notPassing(r));
    if (flaky.length === 0)
        return [];
    return [`_${(0,util_words/* count */.U9)(flaky.length, 'run')} failed inside ${flaky.length === 1 ? 'a group that' : 'groups that'} still reached the pass floor; see ${seeAlso}._`, ''];
}

;// CONCATENATED MODULE: ./src/report/gate-line.ts


/** The gate: which one, against what, and each reason it failed (what changed is its own section). */
function renderGate(gate) {
    const against = gate.baseline ? ` against the baseline ${(0,report_escape/* codeSpan */.SS)(gate.baseline.source)} (${(0,timestamp/* formatTimestamp */.E)(gate.baseline.started_at)})` : '';
    const out = [`**Gate: ${gate.mode}**${against} — ${gate.passed ? '✓ passed' : '✗ failed'}${gate.note ? ` (${(0,report_escape/* escapeMarkdown */.FV)(gate.note)})` : ''}`, ''];
    for (const reason of gate.reasons)
        out.push(`- ${(0,report_escape/* escapeMarkdown */.FV)(reason)}`);
    if (gate.reasons.length)
        out.push('');
    return out;
}

// EXTERNAL MODULE: ./src/report/matrix.ts
var report_matrix = __webpack_require__(53677);
// EXTERNAL MODULE: ./src/report/resilience.ts
var resilience = __webpack_require__(87117);
// EXTERNAL MODULE: ./src/report/runs.ts + 2 modules
var runs = __webpack_require__(67766);
;// CONCATENATED MODULE: ./src/report/mermaid.ts
/**
 * Mermaid bar charts, which GitHub draws from a ```mermaid block in comments and job summaries.
 * A chart only repeats a table that sits beside it (for readers without Mermaid). Its labels come
 * from a server (tool names) or a configuration (model ids): each is cut down to characters that
 * can neither end its quoted string, nor its line, nor the code block.
 */
/** The most bars a chart draws: the highest values; the caller says that the table has them all. */
const MAX_BARS = 15;
/** A label longer than this is cut with an ellipsis. */
const LABEL_CHARS = 40;
/** Anything else becomes `_`: quotes, backticks, brackets, `%`, `#`, `;`, `<`, `>`, newlines and every control or invisible character. */
const UNSAFE = /[^\p{L}\p{M}\p{N} _\-./:+(),@=]/gu;
/**
 * Text safe inside a Mermaid quoted string on one line of a fenced block: letters, digits, spaces
 * and `_-./:+(),@=` are kept, everything else is `_`; spaces are collapsed; at most 40 characters.
 */
function mermaidLabel(text) {
    const safe = text.replace(UNSAFE, '_').replace(/ {2,}/g, ' ').trim();
    const chars = [...safe];
    const cut = chars.length > LABEL_CHARS ? `${chars.slice(0, LABEL_CHARS - 1).join('')}…` : safe;
    return cut === '' ? '_' : cut;
}
/** A number as Mermaid reads it: plain decimal, never `1e-7`, about four significant digits. */
function mermaidNumber(value) {
    if (!Number.isFinite(value) || value === 0)
        return '0';
    const digits = Math.min(12, Math.max(0, 3 - Math.floor(Math.log10(Math.abs(value)))));
    const text = value.toFixed(digits);
    return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
/** Labels made safe and told apart: two that read the same after cleaning get " (2)", " (3)". */
function distinctLabels(bars) {
    const seen = new Map();
    return bars.map((bar) => {
        const label = mermaidLabel(bar.label);
        const n = (seen.get(label) ?? 0) + 1;
        seen.set(label, n);
        return n === 1 ? label : `${label} (${n})`;
    });
}
/** Bars within this share of the highest read as equal: a chart of them shows no difference. */
const SAME_WITHIN = 0.05;
/**
 * An `xychart-beta` bar chart of the highest `MAX_BARS` values, highest first, the y axis from
 * zero. Nothing when fewer than two bars have a finite value (one bar is not a comparison), or
 * when every bar lies within 5% of the highest (two equal bars say nothing the table does not).
 */
function renderBarChart(chart, maxBars = MAX_BARS) {
    const usable = chart.bars.filter((b) => Number.isFinite(b.value) && b.value >= 0);
    if (usable.length < 2)
        return { lines: [], shown: 0, omitted: 0 };
    const bars = [...usable].sort((a, b) => b.value - a.value).slice(0, maxBars);
    const top = Math.max(...bars.map((b) => b.value));
    if (top - Math.min(...bars.map((b) => b.value)) <= top * SAME_WITHIN)
        return { lines: [], shown: 0, omitted: 0 };
    const labels = distinctLabels(bars);
    const lines = [
        '```mermaid',
        'xychart-beta',
        `  title "${mermaidLabel(chart.title)}"`,
        `  x-axis [${labels.map((l) => `"${l}"`).join(', ')}]`,
        `  y-axis "${mermaidLabel(chart.unit)}" 0 --> ${mermaidNumber(top > 0 ? top * 1.1 : 1)}`,
        `  bar [${bars.map((b) => mermaidNumber(b.value)).join(', ')}]`,
        '```'
    ];
    return { lines, shown: bars.length, omitted: usable.length - bars.length };
}

// EXTERNAL MODULE: ./src/report/model-id.ts
var model_id = __webpack_require__(64609);
// EXTERNAL MODULE: ./src/report/telemetry-figures.ts
var telemetry_figures = __webpack_require__(30701);
;// CONCATENATED MODULE: ./src/report/telemetry-models.ts




/** Mean agent tokens per started run; null when none started. */
function meanTokens(t) {
    return t && t.runs > 0 ? t.tokens_per_run.total / t.runs : null;
}
/** The models in the configuration's order, then any other the document measured. */
function modelOrder(doc) {
    return [...new Set([...(doc.config?.models ?? []), ...doc.summary.by_model.map((m) => m.model), ...((0,telemetry_figures/* sectionOf */.ZE)(doc)?.models.map((m) => m.model) ?? [])])];
}
function modelRows(doc) {
    const section = (0,telemetry_figures/* sectionOf */.ZE)(doc);
    const measured = new Set([...doc.summary.by_model.map((m) => m.model), ...(section?.models.map((m) => m.model) ?? [])]);
    const changes = doc.changes?.models ?? [];
    return modelOrder(doc)
        .filter((model) => measured.has(model))
        .map((model) => {
        const metrics = doc.metrics?.by_model[model];
        const t = section?.models.find((m) => m.model === model && m.prompt_name === null);
        const change = changes.find((c) => c.model === model);
        const inBaseline = change !== undefined && Object.values(change).some((f) => typeof f === 'object' && f !== null && f.baseline !== null);
        return {
            model,
            selection: metrics?.tool_selection_accuracy ?? null,
            args: metrics?.argument_correctness ?? null,
            completion: metrics?.task_completion ?? null,
            passRate: doc.summary.by_model.find((m) => m.model === model)?.pass_rate ?? null,
            runs: t?.runs ?? 0,
            p95RunS: t?.run_s.p95 ?? null,
            tokensPerRun: meanTokens(t),
            costPerRun: t?.cost_usd.per_run ?? null,
            change,
            isNew: change !== undefined && !inBaseline
        };
    });
}
/** Models the baseline had and this evaluation did not run. */
function removedModels(doc, rows) {
    const here = new Set(rows.map((r) => r.model));
    return (doc.changes?.models ?? []).filter((c) => !here.has(c.model)).map((c) => c.model);
}
/** A cost cell: "—" when no run started, "unknown" when runs started but the cost is not known. */
const costCell = (row) => (row.runs === 0 ? '—' : (0,telemetry_figures/* cost */.y)(row.costPerRun));
/** The headers, a `<br>` where they may break: eight columns of full words did not fit a page. */
const MODEL_HEADERS = ['Selection<br>accuracy', 'Argument<br>correctness', 'Task<br>completion', 'Pass rate', 'p95 run', 'Tokens<br>per run', 'Cost<br>per run'];
/** Each figure and its change against the baseline (" (▲ +4 pt, better)", or nothing). */
function modelFigures(row) {
    const c = row.change;
    return [
        [(0,telemetry_figures/* shareCell */.wj)(row.selection), (0,telemetry_figures/* shareChange */.AP)(c?.tool_selection_accuracy)],
        [(0,telemetry_figures/* shareCell */.wj)(row.args), (0,telemetry_figures/* shareChange */.AP)(c?.argument_correctness)],
        [(0,telemetry_figures/* shareCell */.wj)(row.completion), (0,telemetry_figures/* shareChange */.AP)(c?.task_completion)],
        [(0,telemetry_figures/* shareCell */.wj)(row.passRate), (0,telemetry_figures/* shareChange */.AP)(c?.pass_rate)],
        [(0,util_words/* seconds */.YA)(row.p95RunS), (0,telemetry_figures/* figureChange */.H3)(c?.p95_run_s, 'lower', util_words/* seconds */.YA)],
        [(0,telemetry_figures/* tokenCount */.jt)(row.tokensPerRun), (0,telemetry_figures/* figureChange */.H3)(c?.tokens_per_run, 'lower', telemetry_figures/* tokenCount */.jt)],
        [costCell(row), (0,telemetry_figures/* figureChange */.H3)(c?.cost_per_run_usd, 'lower', telemetry_figures/* cost */.y)]
    ];
}
/** A change on a line of its own below its figure needs no brackets: "▼ −10%, better". */
const unbracketed = (change) => change.trim().replace(/^\((.*)\)$/, '$1');
/** The figures on a line, each change beside its figure. */
const modelCells = (row) => modelFigures(row).map(([figure, change]) => `${figure}${change}`);
/** "4 runs per model" or "each model's runs (2–8)". */
function runsWords(rows) {
    const runs = [...new Set(rows.map((r) => r.runs))];
    if (runs.length === 1)
        return rows.length === 1 ? (0,util_words/* count */.U9)(runs[0], 'run') : `${(0,util_words/* count */.U9)(runs[0], 'run')} per model`;
    return `each model's runs (${Math.min(...runs)}–${Math.max(...runs)})`;
}
function modelsLegend(doc, rows) {
    const section = (0,telemetry_figures/* sectionOf */.ZE)(doc);
    const unknown = rows.some((r) => r.runs > 0 && r.costPerRun === null);
    const parts = [
        `p95 run: nearest-rank over ${runsWords(rows)}`,
        "tokens and cost: the agent's, mean per run (the judge's are counted apart)",
        unknown ? 'unknown: the provider reported no cost and `pricing:` has no entry' : '',
        doc.changes ? 'a second line: the change against the baseline, where it moved' : '',
        rows.some((r) => r.isNew) ? '*new*: not in the baseline' : ''
    ];
    return section ? `<sub>${parts.filter(Boolean).join(' · ')}</sub>` : '';
}
/**
 * The cross-model table: one row per model — selection accuracy, argument correctness, task
 * completion, pass rate, p95 run time, tokens and cost per run — each beside its change against
 * the baseline when there is one. Nothing when no model was run.
 */
function modelsTable(doc) {
    const rows = modelRows(doc);
    if (rows.length === 0)
        return [];
    const header = `<tr><th>Model</th>${MODEL_HEADERS.map((h) => `<th align="right">${h}</th>`).join('')}</tr>`;
    const body = rows.map((row) => `<tr><td>${(0,model_id/* modelIdHtml */.O)(row.model)}${row.isNew ? ' <em>new</em>' : ''}</td>${modelFigures(row)
        .map(([figure, change]) => `<td align="right">${figure}${change ? `<br>${unbracketed(change)}` : ''}</td>`)
        .join('')}</tr>`);
    const removed = removedModels(doc, rows);
    const out = ['<table>', header, ...body, '</table>', '', modelsLegend(doc, rows), ''];
    if (removed.length)
        out.push(`_In the baseline, not run now: ${removed.map(report_escape/* codeSpan */.SS).join(', ')}._`, '');
    return out;
}
/** A model's row in words: "selection 100% · arguments 92% (▲ +4 pt) · … · $0.0012 / run". */
function modelWords(row) {
    const [selection, args, completion, passRate, p95, tokens, perRun] = modelCells(row);
    const costWords = row.runs > 0 && row.costPerRun === null ? 'cost unknown' : `${perRun} / run`;
    return `selection ${selection} · arguments ${args} · completion ${completion} · pass rate ${passRate} · p95 run ${p95} · ${tokens} tokens / run · ${costWords}`;
}
/** The Models table in a line per model, for a comment over GitHub's limit (and the comment's view of a single model). */
function modelsBrief(doc) {
    const rows = modelRows(doc);
    if (rows.length === 0)
        return [];
    if (rows.length === 1)
        return [`**Model** ${(0,report_escape/* codeSpan */.SS)(rows[0].model)}: ${modelWords(rows[0])}`, ''];
    return ['**Models**', '', ...rows.map((row) => `- ${(0,report_escape/* codeSpan */.SS)(row.model)}${row.isNew ? ' *new*' : ''}: ${modelWords(row)}`), ''];
}
// ——— The comment ———
/** "p95 run 2.9s–3.9s · $0.0005–$0.0115 / run": the models' range, for a collapsed table's summary. */
function rangeWords(rows) {
    const range = (values, format) => {
        const known = values.filter((v) => v !== null);
        return known.length === 0 ? null : (0,telemetry_figures/* spread */.il)(known, format);
    };
    const p95 = range(rows.map((r) => r.p95RunS), util_words/* seconds */.YA);
    const perRun = range(rows.map((r) => (r.runs > 0 ? r.costPerRun : null)), telemetry_figures/* cost */.y);
    const unknown = rows.some((r) => r.runs > 0 && r.costPerRun === null);
    return [p95 ? `p95 run ${p95}` : '', perRun ? `${perRun} / run${unknown ? ' (some unknown)' : ''}` : unknown ? 'cost unknown' : ''].filter(Boolean).join(' · ');
}
/**
 * The comment's Models: one model in a line; several in the table — open when the evaluation
 * failed, one click away when it passed (a passing comment stays short).
 */
function modelsDigest(doc) {
    const section = (0,telemetry_figures/* sectionOf */.ZE)(doc);
    if (!section || doc.summary.by_model.length === 0 || !section.models.some((m) => m.runs > 0))
        return [];
    const rows = modelRows(doc);
    if (rows.length === 0)
        return [];
    if (rows.length === 1 && removedModels(doc, rows).length === 0)
        return modelsBrief(doc);
    const table = modelsTable(doc);
    if (!doc.passed)
        return ['#### Models', '', ...table];
    return [`<details><summary>Models: ${rows.length} compared · ${(0,report_escape/* escapeHtml */.ZD)(rangeWords(rows))}</summary>`, '', ...table, '</details>', ''];
}

;// CONCATENATED MODULE: ./src/report/telemetry-charts.ts


/** The cost per run of each model whose cost is known, as a chart beside the Models table. */
function costChart(doc) {
    const bars = modelRows(doc)
        .filter((r) => r.runs > 0 && r.costPerRun !== null)
        .map((r) => ({ label: r.model, value: r.costPerRun }));
    return chartLines(renderBarChart({ title: 'Cost per run (USD)', unit: 'USD per run', bars }), 'models');
}
/** The p95 latency of each tool, as a chart beside its table. */
function latencyChart(tools) {
    const bars = tools.filter((t) => t.latency_ms.p95 !== null).map((t) => ({ label: t.name, value: t.latency_ms.p95 }));
    return chartLines(renderBarChart({ title: 'p95 latency per tool (ms)', unit: 'ms', bars }), 'tools');
}
/** A chart and, when it left bars out, a line saying so. */
function chartLines(chart, what) {
    if (chart.lines.length === 0)
        return [];
    const note = chart.omitted > 0 ? [`_The chart shows the ${chart.shown} highest of ${chart.shown + chart.omitted} ${what}; the table has them all._`, ''] : [];
    return [...chart.lines, '', ...note];
}

;// CONCATENATED MODULE: ./src/report/telemetry.ts







// ——— Per model in detail, and per model × prompt ———
const p50p95 = (d, format) => (d.samples === 0 ? '—' : `${format(d.p50)} / ${format(d.p95)}`);
const hasRuns = (m) => m.runs > 0;
const TIME_COLUMNS = [
    ['Runs', (m) => String(m.runs)],
    ['Run<br>p50 / p95', (m) => p50p95(m.run_s, util_words/* seconds */.YA)],
    ['LLM call<br>p50 / p95', (m) => p50p95(m.turn_ms, util_words/* milliseconds */.Rz)],
    ['Tool calls<br>per run', (m) => (m.tool_calls_per_run === null ? '—' : String(Math.round(m.tool_calls_per_run * 10) / 10))]
];
const TOKEN_COLUMNS = [
    ['Input tokens<br>p50 / p95', (m) => p50p95(m.input_tokens, telemetry_figures/* tokenCount */.jt)],
    ['Output tokens<br>p50 / p95', (m) => p50p95(m.output_tokens, telemetry_figures/* tokenCount */.jt)],
    ['Agent cost<br>p95 per run', (m) => (hasRuns(m) ? (0,telemetry_figures/* cost */.y)(m.cost_usd.p95_per_run) : '—')],
    ['Agent cost', (m) => (hasRuns(m) ? (0,telemetry_figures/* cost */.y)(m.cost_usd.total) : '—')],
    ['Judge tokens', (m) => (0,telemetry_figures/* tokenCount */.jt)(m.judge.tokens.total)],
    ['Judge cost', (m) => (m.judge.tokens.total === 0 ? '—' : (0,telemetry_figures/* cost */.y)(m.judge.cost_usd))]
];
/**
 * Per model (or model × prompt) in two tables that each fit a page, where one of twelve columns
 * did not: runs, run and turn time and tool calls; then tokens in and out, the agent's cost and the judge's.
 */
function modelDetailTables(list, withPrompt) {
    if (list.length === 0)
        return [];
    const names = ['Model', ...(withPrompt ? ['Prompt'] : [])];
    const table = (columns) => [
        '<table>',
        `<tr>${names.map((h) => `<th>${h}</th>`).join('')}${columns.map(([h]) => `<th align="right">${h}</th>`).join('')}</tr>`,
        ...list.map((m) => {
            const name = [`<td>${(0,report_escape/* codeHtml */.v1)(m.model)}</td>`, ...(withPrompt ? [`<td>${(0,report_escape/* escapeHtml */.ZD)(m.prompt_name ?? '')}</td>`] : [])];
            return `<tr>${name.join('')}${columns.map(([, cell]) => `<td align="right">${cell(m)}</td>`).join('')}</tr>`;
        }),
        '</table>',
        ''
    ];
    return [...table(TIME_COLUMNS), ...table(TOKEN_COLUMNS)];
}
// ——— Tools ———
/** With fewer than 20 samples the nearest-rank p95 is the largest one. */
const P95_SAMPLES = 20;
function toolsTable(doc, tools) {
    const faults = tools.some((t) => t.faulted > 0);
    const changes = doc.changes?.tool_latency ?? [];
    const headers = ['Tool', 'Calls', 'Errors', ...(faults ? ['Faulted'] : []), 'p50', 'p95', 'max', 'Result p50', 'Result p95'];
    const rows = tools.map((t) => {
        const change = changes.find((c) => c.name === t.name)?.p95_ms;
        const cells = [
            t.calls.toLocaleString('en-US'),
            t.errors.toLocaleString('en-US'),
            ...(faults ? [t.faulted.toLocaleString('en-US')] : []),
            (0,util_words/* milliseconds */.Rz)(t.latency_ms.p50),
            `${(0,util_words/* milliseconds */.Rz)(t.latency_ms.p95)}${(0,telemetry_figures/* figureChange */.H3)(change, 'lower', util_words/* milliseconds */.Rz)}`,
            (0,util_words/* milliseconds */.Rz)(t.latency_ms.max),
            (0,telemetry_figures/* byteSize */.mz)(t.result_bytes.p50),
            (0,telemetry_figures/* byteSize */.mz)(t.result_bytes.p95)
        ];
        return `<tr><td>${(0,report_escape/* codeHtml */.v1)(t.name)}</td>${cells.map((c) => `<td align="right">${c}</td>`).join('')}</tr>`;
    });
    const samples = tools.map((t) => t.latency_ms.samples).filter((n) => n > 0);
    const range = samples.length === 0 ? 'no samples' : Math.min(...samples) === Math.max(...samples) ? (0,util_words/* count */.U9)(samples[0], 'sample') : `${Math.min(...samples)}–${Math.max(...samples)} samples`;
    const legend = [
        `latency and result size: nearest-rank percentiles over each tool's calls that reached the server, behaviour runs and tool tests (${range})`,
        samples.some((n) => n < P95_SAMPLES) ? `under ${P95_SAMPLES} samples the p95 is the slowest call` : '',
        faults ? 'faulted: calls a Layer 2 fault replaced or delayed, counted apart and measured nowhere' : '',
        changes.length ? '(…): p95 against the baseline, where it moved' : ''
    ];
    return ['<table>', `<tr>${headers.map((h, i) => `<th${i === 0 ? '' : ' align="right"'}>${h}</th>`).join('')}</tr>`, ...rows, '</table>', '', `<sub>${legend.filter(Boolean).join(' · ')}</sub>`, ''];
}
// ——— Time, tokens and cost ———
/** Share of a whole, as "27%"; nothing when the whole is zero. */
const shareOf = (part, whole) => (whole > 0 ? ` (${(0,util_words/* percent */.KN)(part / whole)})` : '');
function timeLines(doc, section) {
    const o = section.overall;
    const started = section.models.reduce((n, m) => n + m.runs, 0);
    const concurrency = doc.config?.concurrency ?? 1;
    // A simulated user is an LLM too: its time is the model's share, not the harness's.
    const model = doc.runs.some((r) => r.dialogue?.user_latency_ms) ? 'the models (the simulated user included)' : 'the model';
    return [
        `- **Wall clock:** ${(0,util_words/* seconds */.YA)(o.wall_s)} for the whole evaluation`,
        `- **Agent loop:** ${(0,util_words/* seconds */.YA)(o.runs_s)} summed over ${(0,util_words/* count */.U9)(started, 'run')} — ${model} ${(0,util_words/* seconds */.YA)(o.llm_s)}${shareOf(o.llm_s, o.runs_s)}, the tools ${(0,util_words/* seconds */.YA)(o.tool_s)}${shareOf(o.tool_s, o.runs_s)}, the harness (the rest) ${(0,util_words/* seconds */.YA)(o.harness_s)}${shareOf(o.harness_s, o.runs_s)}`,
        `- **Server start-up:** ${(0,util_words/* seconds */.YA)(o.server_start_s)} summed (spawn or connect, handshake, listing) · **Judge:** ${(0,util_words/* seconds */.YA)(o.judge_s)} summed`,
        '',
        `_Sums over runs overlap when runs are concurrent${concurrency > 1 ? ` (concurrency ${concurrency})` : ''}: they can exceed the wall clock._`,
        ''
    ];
}
function tokensTable(section) {
    const { tokens, cost_usd: costs } = section.overall;
    const row = (label, t, usdValue) => `<tr><td>${label}</td><td align="right">${(0,telemetry_figures/* tokenCount */.jt)(t.input)}</td><td align="right">${(0,telemetry_figures/* tokenCount */.jt)(t.output)}</td><td align="right">${(0,telemetry_figures/* tokenCount */.jt)(t.total)}</td><td align="right">${t.total === 0 && usdValue === null ? '—' : (0,telemetry_figures/* cost */.y)(usdValue)}</td></tr>`;
    const total = { input: tokens.agent.input + tokens.judge.input, output: tokens.agent.output + tokens.judge.output, total: tokens.total };
    return [
        '<table>',
        '<tr><th></th><th align="right">Input tokens</th><th align="right">Output tokens</th><th align="right">Total</th><th align="right">Cost</th></tr>',
        row('Agent', tokens.agent, costs.agent),
        row('Judge', tokens.judge, costs.judge),
        row('<b>Total</b>', total, costs.total),
        '</table>',
        ''
    ];
}
/** Spent against nominal (replayed answers cost nothing now), the cache, and where costs came from. */
function spendLines(section) {
    const o = section.overall;
    const lines = [];
    const cache = o.cache;
    if (cache && cache.hits > 0) {
        const saved = cache.saved_cost_usd === null ? '' : ` (${(0,telemetry_figures/* cost */.y)(cache.saved_cost_usd)})`;
        lines.push(`- **Spent:** ${(0,telemetry_figures/* cost */.y)(o.spent_usd)} of ${(0,telemetry_figures/* cost */.y)(o.cost_usd.total)} nominal — ${(0,util_words/* count */.U9)(cache.hits, 'replayed answer')} from the cache saved ${(0,util_words/* count */.U9)(cache.saved_tokens, 'token')}${saved}`);
    }
    else
        lines.push(`- **Spent:** ${(0,telemetry_figures/* cost */.y)(o.spent_usd)}${cache ? ' (no answer was replayed from the cache)' : ''}`);
    const s = section.cost_sources;
    const calls = s.provider + s.pricing + s.unknown;
    if (calls > 0)
        lines.push(`- **Where the costs come from:** of ${(0,util_words/* count */.U9)(calls, 'LLM call')}, ${s.provider} reported by the provider, ${s.pricing} from \`pricing:\`, ${s.unknown} unknown`);
    return [...lines, ''];
}
/** "> 4 runs · p95 run 1.5s · slowest p95 tool `search` 1,240 ms · 1,200 tokens · $0.0123": the section at a glance. */
function glanceLine(section) {
    const runs = section.models.reduce((n, m) => n + m.runs, 0);
    const p95 = section.models.map((m) => m.run_s.p95).filter((v) => v !== null);
    const slowest = [...section.tools].filter((t) => t.latency_ms.p95 !== null).sort((a, b) => (b.latency_ms.p95 ?? 0) - (a.latency_ms.p95 ?? 0))[0];
    const parts = [
        runs > 0 ? (0,util_words/* count */.U9)(runs, 'run') : '',
        p95.length ? `p95 run ${(0,telemetry_figures/* spread */.il)(p95, util_words/* seconds */.YA)}` : '',
        slowest ? `slowest tool ${(0,report_escape/* codeSpan */.SS)(slowest.name)} p95 ${(0,util_words/* milliseconds */.Rz)(slowest.latency_ms.p95)}` : '',
        ...(section.overall.tokens.total > 0 ? [`${(0,telemetry_figures/* tokenCount */.jt)(section.overall.tokens.total)} tokens`, section.overall.cost_usd.total === null ? 'cost unknown' : (0,telemetry_figures/* cost */.y)(section.overall.cost_usd.total)] : [])
    ];
    return `> ${parts.filter(Boolean).join(' · ')}`;
}
/** Whether there is anything to show: a run that started, a tool call measured, a budget checked, a run skipped. */
function hasTelemetry(doc, section) {
    return section.models.some((m) => m.runs > 0) || section.tools.length > 0 || [...section.budgets, ...(doc.gate?.trends ?? [])].length > 0 || (0,aggregate_verdict/* skippedRuns */.vr)(doc).length > 0;
}
/**
 * The report's "Layer 3 — latency, tokens and cost" section: the budgets' verdict and the figures
 * at a glance; the Models table with a chart of cost per run; each model (and model × system
 * prompt) in detail; each tool's calls, errors and latency and result size percentiles with a
 * chart of p95 latency; where the time went; tokens and cost, agent and judge, spent against
 * nominal; unknown costs and how to price them; every budget with its verdict, and the runs the
 * spend left unstarted. Nothing in a document without telemetry.
 */
function renderTelemetry(doc, heading = '##') {
    const section = (0,telemetry_figures/* sectionOf */.ZE)(doc);
    if (!section || !hasTelemetry(doc, section))
        return [];
    const sub = `${heading}#`;
    const verdict = (0,telemetry_budgets/* verdictWords */.L2)(doc);
    const out = [`${heading} Layer 3 — latency, tokens and cost${verdict ? ` — ${verdict}` : ''}`, '', glanceLine(section), ''];
    const started = section.models.some((m) => m.runs > 0) || (0,aggregate_verdict/* skippedRuns */.vr)(doc).length > 0;
    if (started && doc.summary.by_model.length > 0)
        out.push(`${sub} Models`, '', ...modelsTable(doc), ...costChart(doc));
    const perModel = section.models.filter((m) => m.runs > 0);
    const prompts = new Set(section.model_prompts.map((m) => m.prompt_name));
    const detail = [
        ...(perModel.length ? [`${sub} Per model`, '', ...modelDetailTables(perModel, false)] : []),
        ...(prompts.size > 1 ? [`${sub} Per model and system prompt`, '', ...modelDetailTables(section.model_prompts.filter((m) => m.runs > 0), true)] : [])
    ];
    // Every budget held: the figures behind the Models table are detail, folded; one exceeded, they are the evidence, open.
    if (detail.length > 0 && (0,aggregate_verdict/* telemetryPassed */.SE)(doc))
        out.push(`<details><summary>Per model${prompts.size > 1 ? ' and system prompt' : ''}: run and LLM call times, tool calls, tokens and cost</summary>`, '', ...detail, '</details>', '');
    else
        out.push(...detail);
    if (section.tools.length)
        out.push(`${sub} Tools`, '', ...toolsTable(doc, section.tools), ...latencyChart(section.tools));
    if (section.models.some((m) => m.runs > 0))
        out.push(`${sub} Where the time went`, '', ...timeLines(doc, section));
    if (section.overall.tokens.total > 0)
        out.push(`${sub} Tokens and cost`, '', ...tokensTable(section), ...spendLines(section), ...(0,telemetry_budgets/* unknownCostHint */.XT)(section));
    out.push(...(0,telemetry_budgets/* budgetsSection */.Gi)(doc, sub));
    return out;
}

// EXTERNAL MODULE: ./src/report/tool-tests.ts + 1 modules
var tool_tests = __webpack_require__(14772);
// EXTERNAL MODULE: ./src/report/usage.ts
var usage = __webpack_require__(22281);
;// CONCATENATED MODULE: ./src/report/sections.ts



















function sectionContext(doc, unreachable, html = null) {
    return { doc, verdict: (0,aggregate_verdict/* verdictOf */.Vj)(doc), unreachable, newIds: new Set(doc.changes?.conformance?.new.map((f) => f.id) ?? []), shown: new Set(), html };
}
const collapsed = (summary, lines) => [`<details><summary>${summary}</summary>`, '', ...lines, '</details>', ''];
/** A section that is as good as the evaluation: open when it failed, collapsed when it passed. */
const overall = (ctx) => (ctx.verdict.passed ? 'passed' : 'failed');
const sections_layer = (verdict) => (verdict === null ? null : verdict.passed ? 'passed' : 'failed');
/** The tool tests the comment speaks of: none when the server was unreachable (the headline says it). */
const toolTestsOf = (ctx) => (ctx.unreachable === null ? ctx.doc.tool_tests : null);
/** The sections by the name the comment's fit note gives them ("Left out …: matrix"). */
const SECTIONS = {
    // One statement: what the server answered, if anything; nothing else ran (they need a server that answers).
    server: {
        state: (ctx) => (ctx.unreachable !== null ? 'failed' : null),
        full: ({ doc, unreachable }) => [
            ...(doc.conformance ? (0,conformance/* renderConformance */.QE)(doc.conformance) : ['## Server unreachable', '', `> ${(0,report_escape/* escapeMarkdown */.FV)(unreachable ?? '')}`, '']),
            `_Not run: ${doc.tool_tests ? 'the tool tests and ' : ''}the behaviour evals; they need a server that answers._`,
            ''
        ],
        digest: ({ doc, html }) => (doc.conformance ? (0,conformance/* conformanceDigest */.Gr)(doc.conformance, new Set(), html) : [])
    },
    'what changed': {
        state: (ctx) => (ctx.doc.gate && ctx.doc.changes ? overall(ctx) : null),
        full: ({ doc }) => [...renderWhatChanged(doc.gate, doc.changes, '##'), ...renderRegressions(doc.changes, doc.runs)],
        // A passing comment stays short: what changed is one click away, its counts in the summary line.
        digest: (ctx) => {
            const g = ctx.doc.gate;
            return ctx.verdict.passed
                ? collapsed(`What changed since the baseline: ${g.regressed.length} regressed · ${g.fixed.length} fixed · ${g.added.length} new · ${g.removed.length} removed`, renderWhatChanged(g, ctx.doc.changes).slice(2))
                : renderWhatChanged(g, ctx.doc.changes);
        }
    },
    gate: {
        state: (ctx) => (ctx.doc.gate ? overall(ctx) : null),
        full: ({ doc }) => renderGate(doc.gate),
        digest: ({ doc }) => collapsed(`Gate: ${doc.gate.mode} — ${doc.gate.passed ? '✓ passed' : '✗ failed'}`, renderGate(doc.gate))
    },
    // What did not pass: its forms say nothing when nothing failed.
    failures: {
        state: () => 'failed',
        full: ({ doc }) => (doc.runs.length > 0 ? renderFailures(doc, '##', 'the table below') : []),
        digest: ({ doc, html }) => renderFailures(doc, '####', 'the job summary', undefined, html)
    },
    resilience: {
        state: (ctx) => sections_layer(ctx.verdict.resilience),
        full: ({ doc }) => (0,resilience/* renderResilience */.SW)(doc),
        digest: ({ doc }) => (0,resilience/* resilienceDigest */.ac)(doc),
        brief: ({ doc }) => (0,resilience/* resilienceBrief */.AN)(doc)
    },
    // Layer 3: the report's whole section; the comment's budgets, only when one was exceeded or runs never started.
    budgets: {
        state: (ctx) => sections_layer(ctx.verdict.budgets),
        full: ({ doc }) => renderTelemetry(doc),
        digest: ({ doc }) => (0,telemetry_budgets/* budgetsDigest */.Je)(doc),
        brief: ({ doc }) => (0,telemetry_budgets/* budgetsBrief */.P)(doc)
    },
    'tool tests': {
        state: (ctx) => {
            const tests = toolTestsOf(ctx);
            return tests === null ? null : tests.status === 'skipped' ? 'skipped' : sections_layer(ctx.verdict.toolTests);
        },
        full: ({ doc }) => (0,tool_tests/* renderToolTests */.Av)(doc),
        digest: (ctx) => (0,tool_tests/* toolTestsDigest */.G8)(toolTestsOf(ctx), 'the job summary')
    },
    // MCP Apps rendered in a browser: failed when a render did; skipped (no browser) is a notice, never a pass.
    'mcp apps': {
        state: ({ doc, unreachable }) => {
            if (!doc.apps || unreachable !== null)
                return null;
            if (doc.apps.status === 'skipped')
                return 'skipped';
            return doc.apps.failed > 0 || (0,app_findings/* appRendersOf */.uY)(doc).some((p) => (0,app_findings/* renderStanding */.F8)(p.render) === 'failed') ? 'failed' : 'passed';
        },
        full: ({ doc }) => (0,apps/* renderApps */.z5)(doc),
        digest: ({ doc }) => appsDigest(doc),
        brief: ({ doc }) => appsBrief(doc)
    },
    conformance: {
        state: (ctx) => (ctx.unreachable === null ? sections_layer(ctx.verdict.conformance) : null),
        full: ({ doc, newIds }) => (0,conformance/* renderConformance */.QE)(doc.conformance, newIds),
        digest: ({ doc, newIds, html }) => (0,conformance/* conformanceDigest */.Gr)(doc.conformance, newIds, html)
    },
    // An evals/v1 suite: what it said beyond its cases and tool tests, and what of it did not run here.
    'evals/v1 suite': {
        state: (ctx) => (ctx.doc.evals_v1 ? overall(ctx) : null),
        full: ({ doc }) => renderEvalsV1(doc),
        digest: ({ doc }) => evalsV1Digest(doc)
    },
    behaviour: {
        state: ({ doc, unreachable }) => (doc.behaviour.status === 'skipped' && doc.fatal_error === null && unreachable === null ? 'skipped' : null),
        full: ({ doc }) => ['## Behaviour evals — skipped', '', `> ${(0,report_escape/* escapeMarkdown */.FV)(doc.behaviour.reason ?? 'skipped')}`, ''],
        // With tool tests the headline already says why the behaviour runs were skipped.
        digest: ({ doc }) => (doc.tool_tests !== null && doc.tool_tests.status === 'ran' ? [] : [`**Behaviour evals skipped:** ${(0,report_escape/* escapeMarkdown */.FV)(doc.behaviour.reason ?? '')}`, ''])
    },
    // The report's behaviour runs: the matrix, the table, the usage, the metrics and every run in detail.
    runs: {
        state: (ctx) => (ctx.doc.behaviour.status === 'ran' && ctx.doc.runs.length > 0 ? overall(ctx) : null),
        full: (ctx) => {
            const { doc, verdict, shown } = ctx;
            // Their own heading when another layer's section came before them (or failed, though it showed nothing).
            const layers = doc.conformance || doc.tool_tests || shown.has('resilience') || shown.has('budgets') || shown.has('evals/v1 suite') || (verdict.resilience !== null && !verdict.resilience.passed) || !verdict.budgets.passed;
            return [...(layers ? ['## Behaviour evals', ''] : []), ...(0,runs/* renderRuns */.J)(doc)];
        }
    },
    matrix: {
        state: (ctx) => (ctx.doc.groups.length > 0 ? overall(ctx) : null),
        digest: (ctx) => {
            const { groups } = ctx.doc;
            const matrix = (0,report_matrix/* renderMatrix */.C)(groups, ctx.doc.gate, ctx.doc.runs);
            const distinct = (key) => new Set(groups.map(key)).size;
            const prompts = distinct((g) => g.prompt_name);
            const shape = [(0,util_words/* count */.U9)(distinct((g) => g.case_id), 'case'), (0,util_words/* count */.U9)(distinct((g) => g.model), 'model'), ...(prompts > 1 ? [(0,util_words/* count */.U9)(prompts, 'system prompt')] : [])].join(' × ');
            return ctx.verdict.passed ? collapsed(`Results: ${shape}`, matrix) : ['#### Results', '', ...matrix];
        }
    },
    // The cross-model table: open when a failing evaluation compares models, collapsed when it passed, a line for a single model.
    // It has no briefer form: over the limit the sections that have one shorten first, and it is left out whole if that is not enough.
    models: {
        state: overall,
        digest: ({ doc }) => modelsDigest(doc)
    },
    'regressed runs': {
        state: ({ doc }) => (doc.changes && doc.changes.regressions.length > 0 ? 'failed' : null),
        digest: ({ doc }) => renderRegressions(doc.changes, doc.runs)
    },
    usage: {
        state: (ctx) => (ctx.doc.runs.length > 0 ? overall(ctx) : null),
        digest: ({ doc }) => collapsed('Tokens, calls and cache', [(0,usage/* usageLine */.U)(doc), ''])
    }
};
const ANY = ['failed', 'passed', 'skipped'];
const slot = (name, states = ANY, when) => ({ name, states, when });
/**
 * The report in the order a reviewer needs it: what did not pass and why, the failing layers
 * beside it; then what changed since the baseline (the baseline's run beside each regressed one,
 * below the reason it fails now) and the gate; the passing layers; then the behaviour runs — or,
 * when they were skipped, why.
 */
const REPORT_ORDER = [
    slot('failures'),
    // A cell below its floor is a failure of the runs just listed, expanded to the call that crossed
    // the line: right after them. All passing, it is two small tables, with the behaviour runs.
    slot('resilience', ['failed']),
    // An exceeded budget or a run the spend left unstarted is a failure too: beside them.
    slot('budgets', ['failed']),
    // A failing tool test is a failure as certain as a failing run, and cheaper to reproduce.
    slot('tool tests', ['failed']),
    // A view that breaks is the tool test's or the run's failure, shown as the reviewer would see it.
    slot('mcp apps', ['failed']),
    slot('conformance', ['failed']),
    // What changed explains the failures above it; it never comes before them.
    slot('what changed'),
    slot('gate'),
    // Passing (or skipped), the tool tests are a line and a table.
    slot('tool tests', ['passed', 'skipped']),
    slot('conformance', ['passed', 'skipped']),
    slot('mcp apps', ['passed', 'skipped']),
    // What the suite said beyond its cases, the clients and screenshots not run, its gates: before the runs.
    slot('evals/v1 suite'),
    slot('behaviour', ['skipped']),
    slot('resilience', ['passed'], ({ doc }) => doc.behaviour.status === 'ran' && doc.runs.length > 0),
    // Behaviour skipped, the tool tests' calls are measured too.
    slot('budgets', ['passed'], ({ doc }) => doc.behaviour.status === 'skipped' || doc.runs.length > 0),
    slot('runs')
];
/**
 * The sticky comment in the order a reviewer needs it: the verdict (the comment's head), what did
 * not pass and why — failing layers next to the failing runs, before anything else drops — then
 * what changed since the baseline (the metrics that moved; those that did not in a line), the
 * cases × models matrix, and the rest, passing layers last. Over GitHub's limit the comment
 * degrades from the end of this list: the sections that have a brief form take it, the last ones
 * first; then sections are left out whole, the last ones first.
 */
const COMMENT_ORDER = [
    slot('server'),
    slot('failures'),
    // A cell below its floor (an attack that succeeded, a fault not recovered from) is a failure: next to the failing runs.
    slot('resilience', ['failed']),
    // An exceeded budget, or runs the spend left unstarted, fail the evaluation as surely: beside them too.
    slot('budgets', ['failed']),
    // Failing tool tests are failures as much as failing runs: right after them, before anything else drops.
    slot('tool tests', ['failed']),
    // The worst app finding per tool, beside the tool tests and runs it failed.
    slot('mcp apps', ['failed']),
    slot('conformance', ['failed']),
    slot('what changed'),
    slot('tool tests', ['skipped']),
    // No browser: said early, so nobody reads the comment as the apps having passed.
    slot('mcp apps', ['skipped']),
    slot('behaviour', ['skipped']),
    // One line, only when part of the suite (a client, a screenshot) was not run here.
    slot('evals/v1 suite'),
    slot('matrix'),
    slot('models'),
    slot('resilience', ['passed']),
    // Passing, with its screenshots changed or its warnings in a line each; all quiet, collapsed.
    slot('mcp apps', ['passed']),
    slot('tool tests', ['passed']),
    slot('conformance', ['passed']),
    // Below the reason each fails now (in the failures, and in its block).
    slot('regressed runs'),
    // A failing evaluation's gate and usage, collapsed; a passing one names its gate in the headline.
    slot('gate', ['failed']),
    slot('usage', ['failed'])
];
/**
 * The sections of `order` that stand in one of their slot's states, each in `form` (a section
 * without that form is skipped). The report's forms see which sections came before them.
 */
function placeSections(order, ctx, form) {
    const shown = new Set(ctx.shown);
    const placed = [];
    for (const { name, states, when } of order) {
        const section = SECTIONS[name];
        const render = section[form];
        const state = section.state(ctx);
        if (!render || state === null || !states.includes(state) || (when && !when(ctx)))
            continue;
        const lines = render({ ...ctx, shown });
        if (lines.length > 0)
            shown.add(name);
        placed.push({ name, lines, ...(form === 'digest' && section.brief ? { brief: section.brief(ctx) } : {}) });
    }
    return placed;
}


/***/ }),

/***/ 22281:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   U: () => (/* binding */ usageLine)
/* harmony export */ });
/* harmony import */ var _util_words_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(90333);
/* harmony import */ var _escape_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(14031);
/* harmony import */ var _progress_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(18991);
/* harmony import */ var _telemetry_figures_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(30701);




/** Tokens, LLM and tool calls, the judge and the response cache, on one line. */
function usageLine(doc) {
    const { summary } = doc;
    return [
        `**Tokens:** ${summary.tokens.agent.total_tokens.toLocaleString('en-US')} agent + ${summary.tokens.judge.total_tokens.toLocaleString('en-US')} judge${costNote(summary.tokens.agent.cost_usd, summary.tokens.judge.cost_usd, doc.telemetry ?? null)}`,
        `**LLM calls:** ${summary.llm_calls}`,
        `**Tool calls:** ${summary.tool_calls} (${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_0__/* .count */ .U9)(summary.tool_errors, 'error')}, ${summary.schema_invalid_calls} outside the input schema)`,
        `**Judge:** ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_3__/* .codeSpan */ .SS)(doc.config?.judge_model ?? '')}`,
        ...(summary.cache && summary.cache.mode !== 'off'
            ? [
                `**Cache (${summary.cache.mode}):** ${(0,_progress_js__WEBPACK_IMPORTED_MODULE_1__/* .describeCache */ .e7)(summary.cache)}`
            ]
            : [])
    ].join(' · ');
}
/** The cost after the tokens: Layer 3's total (the provider's figures, else `pricing:`), "cost unknown" when any call's is; a document without telemetry says what the provider reported. */
function costNote(agent, judge, telemetry) {
    if (telemetry)
        return telemetry.overall.tokens.total === 0 ? '' : ` (${telemetry.overall.cost_usd.total === null ? 'cost unknown' : (0,_telemetry_figures_js__WEBPACK_IMPORTED_MODULE_2__/* .cost */ .y)(telemetry.overall.cost_usd.total)})`;
    if (agent === undefined && judge === undefined)
        return '';
    return ` (${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_0__/* .usd */ .dR)((agent ?? 0) + (judge ?? 0))} as the provider reported)`;
}


/***/ })

};
