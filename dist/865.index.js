export const id = 865;
export const ids = [865];
export const modules = {

/***/ 42865:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   copyBaselineScreenshots: () => (/* binding */ copyBaselineScreenshots),
/* harmony export */   restoreBaseline: () => (/* binding */ restoreBaseline),
/* harmony export */   restoreJournal: () => (/* binding */ restoreJournal),
/* harmony export */   restoreResponses: () => (/* binding */ restoreResponses),
/* harmony export */   saveBaseline: () => (/* binding */ saveBaseline),
/* harmony export */   saveJournal: () => (/* binding */ saveJournal),
/* harmony export */   saveResponses: () => (/* binding */ saveResponses),
/* harmony export */   shouldSaveBaseline: () => (/* binding */ shouldSaveBaseline)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(90787);
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(61351);



// Log lines through the neutraliser; setOutput and the summary as @actions/core has them.


/**
 * The Actions cache keeps two things between workflow runs: the recorded LLM answers (so an
 * unchanged suite re-runs without API calls) and the last green results of the default branch
 * (the baseline, with its MCP Apps screenshots in `apps/`). Cache keys are immutable, so each run
 * saves under a new key and restores by prefix. Where the cache service is unavailable, warn and go on without.
 */
const runSuffix = () => `${_actions_github__WEBPACK_IMPORTED_MODULE_4__/* .context */ ._.runId}-${process.env.GITHUB_RUN_ATTEMPT ?? '1'}`;
const safe = (text) => text.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 200);
/**
 * @actions/cache where its service is there, else undefined. Its isFeatureAvailable needs
 * ACTIONS_CACHE_URL (service v1) or ACTIONS_RESULTS_URL (v2): without either the package is not
 * even loaded, since loading it is a tenth of a second of the action's start.
 */
async function actionsCache() {
    if (!process.env.ACTIONS_CACHE_URL && !process.env.ACTIONS_RESULTS_URL)
        return undefined;
    const cache = await Promise.all(/* import() */[__webpack_require__.e(30), __webpack_require__.e(692)]).then(__webpack_require__.bind(__webpack_require__, 45692));
    return cache.isFeatureAvailable() ? cache : undefined;
}
/** @actions/cache, or undefined after a warning that says what is not done without it. */
async function available(what) {
    const cache = await actionsCache();
    if (!cache)
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e(`The Actions cache is not available here: ${what}.`);
    return cache;
}
/** Restore recorded LLM answers for this suite (or, failing that, any suite's) into `dir`. */
async function restoreResponses(dir, suiteHash) {
    const cache = await available('no recorded LLM answers are restored');
    if (!cache)
        return;
    try {
        const hit = await cache.restoreCache([dir], `mcp-evals-llm-${suiteHash}-${runSuffix()}`, [`mcp-evals-llm-${suiteHash}-`, 'mcp-evals-llm-']);
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .info */ .pq(hit ? `Restored recorded LLM answers (${hit}).` : 'No recorded LLM answers to restore.');
    }
    catch (error) {
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e(`Could not restore recorded LLM answers: ${error.message}`);
    }
}
async function saveResponses(dir, suiteHash) {
    await saveEntry(dir, `mcp-evals-llm-${suiteHash}-${runSuffix()}`, 'recorded LLM answers');
}
/** Save `path` under `key` where it exists and the service is there; a failure is a warning. */
async function saveEntry(path, key, what, saved) {
    if (!(0,node_fs__WEBPACK_IMPORTED_MODULE_1__.existsSync)(path))
        return;
    const cache = await actionsCache();
    if (!cache)
        return;
    try {
        await cache.saveCache([path], key);
        if (saved)
            _log_js__WEBPACK_IMPORTED_MODULE_3__/* .info */ .pq(saved);
    }
    catch (error) {
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e(`Could not save the ${what}: ${error.message}`);
    }
}
/** The last green results of the default branch, restored into `dir`; its path, or '' when there is none. */
async function restoreBaseline(dir, key) {
    const cache = await available('no baseline is restored (the pass floors decide)');
    if (!cache)
        return '';
    try {
        const hit = await cache.restoreCache([dir], `mcp-evals-baseline-${safe(key)}-${runSuffix()}`, [`mcp-evals-baseline-${safe(key)}-`]);
        const file = (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(dir, 'eval-results.json');
        if (hit && (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.existsSync)(file)) {
            _log_js__WEBPACK_IMPORTED_MODULE_3__/* .info */ .pq(`Restored the baseline (${hit}).`);
            return file;
        }
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e('No baseline in the Actions cache yet (it is saved after a green run on the default branch): the pass floors decide.');
    }
    catch (error) {
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e(`Could not restore the baseline: ${error.message}`);
    }
    return '';
}
/** Only green results become the baseline: on the default branch (auto), anywhere (always), or never. */
function shouldSaveBaseline(when, passed, ref, defaultBranch) {
    if (when === 'never' || !passed)
        return false;
    return when === 'always' || (defaultBranch !== undefined && ref === `refs/heads/${defaultBranch}`);
}
/**
 * The MCP Apps screenshots of the results being saved (`<appsDir>/*.png`, not the baseline's or
 * the diff images beside them) copied into `<dir>/apps/`, in place of the earlier baseline's:
 * the next run's visual diff compares with them. Nothing when there is no such directory.
 */
function copyBaselineScreenshots(appsDir, dir) {
    const target = (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(dir, 'apps');
    (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.rmSync)(target, { recursive: true, force: true });
    if (!appsDir || !(0,node_fs__WEBPACK_IMPORTED_MODULE_1__.existsSync)(appsDir))
        return 0;
    const names = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readdirSync)(appsDir, { withFileTypes: true }).filter((e) => e.isFile() && /^[A-Za-z0-9][A-Za-z0-9._-]*\.png$/.test(e.name));
    if (names.length === 0)
        return 0;
    (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.mkdirSync)(target, { recursive: true });
    for (const e of names)
        (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.copyFileSync)((0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(appsDir, e.name), (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(target, e.name));
    return names.length;
}
async function saveBaseline(resultsPath, dir, key, when, passed, appsDir) {
    const defaultBranch = _actions_github__WEBPACK_IMPORTED_MODULE_4__/* .context */ ._.payload.repository?.default_branch;
    if (!shouldSaveBaseline(when, passed, _actions_github__WEBPACK_IMPORTED_MODULE_4__/* .context */ ._.ref, defaultBranch))
        return;
    const cache = await actionsCache();
    if (!cache) {
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e('The Actions cache is not available here: the results are not saved as the baseline.');
        return;
    }
    try {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.mkdirSync)(dir, { recursive: true });
        (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.copyFileSync)(resultsPath, (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(dir, 'eval-results.json'));
        const screenshots = copyBaselineScreenshots(appsDir, dir);
        await cache.saveCache([dir], `mcp-evals-baseline-${safe(key)}-${runSuffix()}`);
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .info */ .pq(`Saved these results as the new baseline${screenshots > 0 ? ` (with ${screenshots} MCP Apps screenshot${screenshots === 1 ? '' : 's'})` : ''}.`);
    }
    catch (error) {
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e(`Could not save the baseline: ${error.message}`);
    }
}
/**
 * The run journal of an earlier attempt of this workflow run (a re-run of a cancelled or failed
 * job), restored to `path` so the evaluation can resume from it. Other workflow runs never match.
 */
async function restoreJournal(path, journalHash, jobKey) {
    const cache = await available('no run journal of an earlier attempt is restored (everything runs)');
    if (!cache)
        return;
    try {
        const prefix = journalPrefix(journalHash, jobKey);
        const hit = await cache.restoreCache([path], `${prefix}${process.env.GITHUB_RUN_ATTEMPT ?? '1'}`, [prefix]);
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .info */ .pq(hit ? `Restored the run journal of an earlier attempt (${hit}).` : 'No run journal of an earlier attempt to resume from.');
    }
    catch (error) {
        _log_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e(`Could not restore the run journal: ${error.message}`);
    }
}
async function saveJournal(path, journalHash, jobKey) {
    await saveEntry(path, `${journalPrefix(journalHash, jobKey)}${process.env.GITHUB_RUN_ATTEMPT ?? '1'}`, 'run journal', 'Saved the run journal: a re-run of this job resumes from it.');
}
/**
 * One journal per suite, job and matrix leg of this workflow run. A matrix leg is told apart by
 * the runner's OS and architecture and by `jobKey` (the comment key): legs that differ in
 * something else need their own comment_key, as they do for their own comments.
 */
function journalPrefix(journalHash, jobKey) {
    const job = [process.env.GITHUB_JOB ?? '', process.env.RUNNER_OS ?? '', process.env.RUNNER_ARCH ?? '', jobKey].join('/');
    const jobHash = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(job).digest('hex').slice(0, 12);
    return `mcp-evals-journal-${journalHash}-${jobHash}-${_actions_github__WEBPACK_IMPORTED_MODULE_4__/* .context */ ._.runId}-`;
}


/***/ })

};
