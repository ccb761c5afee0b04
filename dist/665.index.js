export const id = 665;
export const ids = [665];
export const modules = {

/***/ 67665:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  mergeShards: () => (/* binding */ mergeShards)
});

// EXTERNAL MODULE: ./src/execute/baseline.ts + 5 modules
var baseline = __webpack_require__(19574);
// EXTERNAL MODULE: ./src/execute/journal.ts
var journal = __webpack_require__(87140);
// EXTERNAL MODULE: ./src/util/write-file.ts
var write_file = __webpack_require__(37238);
// EXTERNAL MODULE: ./src/apps/section.ts
var section = __webpack_require__(76183);
// EXTERNAL MODULE: ./src/conformance/expected-failures.ts + 1 modules
var expected_failures = __webpack_require__(78943);
// EXTERNAL MODULE: ./src/conformance/observed.ts
var observed = __webpack_require__(30709);
// EXTERNAL MODULE: ./src/conformance/wire-schema/merge.ts
var merge = __webpack_require__(19013);
// EXTERNAL MODULE: ./src/conformance/run.ts + 16 modules
var run = __webpack_require__(21679);
// EXTERNAL MODULE: ./src/llm/chat.ts + 1 modules
var chat = __webpack_require__(40846);
;// CONCATENATED MODULE: ./src/merge/merge-shards.ts







const OBSERVED_IDS = new Set(observed/* OBSERVED_CHECKS */.vQ.map((check) => check.id));
/**
 * The run journal one unsharded run of the suite would have written, from its shards' documents
 * (checked by checkShardSet, in shard order): the document is then built from it as a run's is
 * (documentFromJournal, then the gate), so the merge cannot drift from what a run computes.
 * Shard 1 ran the free layers (conformance and the tool tests) and gives them; every shard gives
 * its runs; the timings span the earliest start to the latest end; what was spent outside the runs
 * (the judge's evaluation steps, generated once in each shard) is the shards' sum. Pure.
 */
function mergedJournal(shards, gate) {
    const first = shards[0];
    const { shard } = first;
    const records = [
        {
            type: 'header',
            version: journal/* JOURNAL_VERSION */.dt,
            suite_hash: shard.suite_hash,
            started_at: new Date(Math.min(...shards.map(startOf))).toISOString(),
            planned: shard.planned_total,
            reused: shards.reduce((sum, s) => sum + (s.journal?.reused ?? 0), 0),
            config: first.config,
            cases: shard.cases,
            behaviour: plannedBehaviour(first),
            gate,
            tool_tests: shard.tool_tests_plan,
            // Shard 1's (checkShardSet has made sure every shard's is the same).
            ...(first.evals_v1 ? { evals_v1: first.evals_v1 } : {}),
            // MCP Apps: the section is computed again over every shard's renders.
            ...(first.apps ? { apps: { visual_diff: first.apps.visual_diff, visual_threshold: first.apps.visual_threshold } } : {})
        }
    ];
    const opened = openedApps(shards);
    if (opened)
        records.push(opened);
    if (first.conformance)
        records.push({ type: 'conformance', section: probedChecksOnly(first.conformance) });
    // A layer planned but then not run (the server could not be reached), as the run journaled it.
    const unreachable = shards.find((s) => s.behaviour.status === 'skipped' && s.shard.planned_total > 0);
    if (unreachable)
        records.push({ type: 'skipped', layer: 'behaviour', reason: unreachable.behaviour.reason ?? 'skipped' });
    if (shard.tool_tests_plan?.status === 'ran' && first.tool_tests?.status === 'skipped')
        records.push({ type: 'skipped', layer: 'tool_tests', reason: first.tool_tests.reason ?? 'skipped' });
    // Behind a server shard 1 could not reach, an unsharded run runs nothing: the other shards'
    // runs (each errored on it) and what they spent are left out, as it would have.
    const counted = unreachable ? [unreachable] : shards;
    for (const s of counted)
        for (const run of s.runs)
            records.push({ type: 'run', run });
    for (const test of first.tool_tests?.tests ?? [])
        records.push({ type: 'tool_test', test });
    const overhead = (0,chat/* emptyUsage */.ly)();
    for (const s of counted)
        (0,chat/* addUsage */.vk)(overhead, s.shard.overhead);
    records.push({
        type: 'end',
        duration_s: Math.round((Math.max(...shards.map((s) => startOf(s) + s.duration_s * 1000)) - Math.min(...shards.map(startOf))) / 100) / 10,
        overhead,
        cache: summedCache(counted.map((s) => s.summary.cache)),
        cancelled: mergedCancellation(shards)
    });
    return records;
}
/**
 * How the browser host's opening went, for the whole suite: the first shard that had a browser
 * (its browser), else the first that looked for one and found none (its reason); null when no
 * shard opened it (nothing reached a render).
 */
function openedApps(shards) {
    const ran = shards.find((s) => s.apps?.status === 'ran' && s.apps.browser);
    if (ran?.apps)
        return { type: 'apps', status: 'ran', reason: null, browser: ran.apps.browser };
    const looked = shards.find((s) => s.apps?.status === 'skipped' && s.apps.reason !== section/* NOT_REACHED */.rA);
    if (looked?.apps)
        return { type: 'apps', status: 'skipped', reason: looked.apps.reason, browser: null };
    return null;
}
function startOf(doc) {
    return Date.parse(doc.started_at);
}
/**
 * The behaviour as the header plans it: a suite with runs planned ran (a shard that found the
 * server unreachable adds a `skipped` record, as a run does); one with none planned was skipped
 * from the start (conformance only, no API key, a filter selecting no case), as every shard says.
 */
function plannedBehaviour(first) {
    return first.shard.planned_total > 0 ? { status: 'ran', reason: null } : first.behaviour;
}
/**
 * Shard 1's conformance section as its journal held it: the probes' checks alone. The checks
 * observed on real calls are computed again over every shard's runs when the document is built.
 */
function probedChecksOnly(section) {
    // As the run journaled it: the probes' own checks (no catalog fields, wire-schema-valid without
    // the sessions' part), the expected failures applied to them as record-conformance applies them.
    const checks = section.checks.filter((check) => !OBSERVED_IDS.has(check.id)).map(withoutCatalog).map(merge/* probeOwnVerdict */.s);
    const probed = (0,expected_failures/* applyExpectedFailures */.Q5)({ ...section, checks }, OBSERVED_IDS);
    return { ...probed, passed: (0,run/* conformancePassed */.Qs)(probed, section.fail_on) };
}
function withoutCatalog(check) {
    const { revision: _revision, official: _official, ...rest } = check;
    return rest;
}
/** The response cache's figures of all shards (each kept its own); null when none used it. */
function summedCache(caches) {
    const used = caches.filter((c) => c !== null);
    if (used.length === 0)
        return null;
    const costs = used.flatMap((c) => (c.saved_cost_usd === null ? [] : [c.saved_cost_usd]));
    return {
        mode: used[0].mode,
        hits: used.reduce((sum, c) => sum + c.hits, 0),
        misses: used.reduce((sum, c) => sum + c.misses, 0),
        saved_tokens: used.reduce((sum, c) => sum + c.saved_tokens, 0),
        saved_cost_usd: costs.length === 0 ? null : Math.round(costs.reduce((sum, c) => sum + c, 0) * 1e8) / 1e8
    };
}
/**
 * A cancelled shard makes the suite's run cancelled: its signal and time, out of the whole plan,
 * with the runs every shard finished. Null when no shard was cancelled.
 */
function mergedCancellation(shards) {
    const cancelled = shards.find((s) => s.cancelled !== null)?.cancelled;
    if (!cancelled)
        return null;
    const finished = shards.reduce((sum, s) => sum + s.runs.filter((r) => r.status !== 'cancelled').length, 0);
    return { ...cancelled, planned: shards[0].shard.planned_total, finished };
}

;// CONCATENATED MODULE: ./src/merge/merge-document.ts




/**
 * The results of the whole suite from its checked shards, built as a run builds its own: the
 * merged journal is written to `journalPath` (so `report --from` on it gives this document again),
 * read back, made a document and gated with the merge's own gate settings. Written in one go, not
 * through JournalWriter: there is no run in flight to protect, and its header counts the shards'
 * reused runs, which JournalWriter would count from runs it writes itself.
 */
function mergeShards(shards, options) {
    const records = mergedJournal(shards.map((s) => s.document), options.gate);
    // A line at a time: thousands of runs never become one string; replaced, never written through a planted link.
    (0,write_file/* writeFileReplacingWith */.lM)(options.journalPath, (write) => {
        for (const record of records)
            write(`${JSON.stringify(record)}\n`);
    });
    const { state } = (0,journal/* readJournal */.a0)(options.journalPath);
    return (0,baseline/* applyGate */.e)((0,journal/* documentFromJournal */.Fl)(state), state.header.gate, options.warn);
}


/***/ })

};
