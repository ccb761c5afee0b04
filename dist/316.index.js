export const id = 316;
export const ids = [316,446];
export const modules = {

/***/ 57316:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   checkOutputsApart: () => (/* binding */ checkOutputsApart),
/* harmony export */   checkShardSet: () => (/* binding */ checkShardSet)
/* harmony export */ });
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _plan_expand_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(53279);
/* harmony import */ var _util_text_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(49997);
/* harmony import */ var _version_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(71013);
/* harmony import */ var _read_shards_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(76446);





/**
 * The shards as one whole suite, in shard order, or a MergeError naming the file that does not
 * belong and what differs: every shard was written by this tool and version, of the same suite
 * (suite hash, configuration, cases, plan size), and together they cover the plan exactly once —
 * no shard index twice, none missing, no run in two files, and the shards' runs add up to the plan.
 */
function checkShardSet(files) {
    const shards = [...files].sort((a, b) => a.document.shard.index - b.document.shard.index);
    for (const file of shards)
        checkTool(file);
    const [reference] = shards;
    for (const file of shards.slice(1))
        checkSameSuite(file, reference);
    checkCoverage(shards);
    return shards;
}
/** The merged document is assembled by this version: a shard of another could hold records it reads otherwise. */
function checkTool({ path, document }) {
    const { name, version } = document.tool;
    if (name === _version_js__WEBPACK_IMPORTED_MODULE_1__/* .TOOL_NAME */ .l && version === _version_js__WEBPACK_IMPORTED_MODULE_1__/* .TOOL_VERSION */ .w)
        return;
    throw new _read_shards_js__WEBPACK_IMPORTED_MODULE_2__.MergeError(`${path}: was written by ${name} ${version}, and this merge is ${_version_js__WEBPACK_IMPORTED_MODULE_1__/* .TOOL_NAME */ .l} ${_version_js__WEBPACK_IMPORTED_MODULE_1__/* .TOOL_VERSION */ .w}: merge with the version that ran the shards`);
}
function checkSameSuite(file, reference) {
    const mine = file.document;
    const theirs = reference.document;
    const differs = (what, a, b) => new _read_shards_js__WEBPACK_IMPORTED_MODULE_2__.MergeError(`${file.path}: ${what} differs from ${reference.path}'s (${show(a)}, not ${show(b)}): the shards are not of one suite run; merge the shards of one run`);
    if (mine.shard.count !== theirs.shard.count)
        throw differs('the shard count', mine.shard.count, theirs.shard.count);
    const config = firstDifference(mine.config ?? {}, theirs.config ?? {});
    if (config)
        throw differs(`config.${config.key}`, config.mine, config.theirs);
    const cases = Math.max(mine.shard.cases.length, theirs.shard.cases.length);
    for (let i = 0; i < cases; i++) {
        const [a, b] = [mine.shard.cases[i], theirs.shard.cases[i]];
        if (same(a, b))
            continue;
        // The same case changed: the field that differs; else which case is where.
        const field = a && b && a.id === b.id ? firstDifference(a, b) : null;
        throw field ? differs(`cases[${i}].${field.key} (case ${a.id})`, field.mine, field.theirs) : differs(`cases[${i}]`, a?.id, b?.id);
    }
    // An evals/v1 suite's own section (clients, gates, what was not run): one suite's shards say the same.
    if (!same(mine.evals_v1 ?? null, theirs.evals_v1 ?? null)) {
        const field = mine.evals_v1 && theirs.evals_v1 ? firstDifference(mine.evals_v1, theirs.evals_v1) : null;
        throw field ? differs(`evals_v1.${field.key}`, field.mine, field.theirs) : differs('evals_v1', mine.evals_v1 ? 'an evals/v1 suite' : 'none', theirs.evals_v1 ? 'an evals/v1 suite' : 'none');
    }
    if (mine.shard.planned_total !== theirs.shard.planned_total)
        throw differs('the planned runs of the whole suite (planned_total)', mine.shard.planned_total, theirs.shard.planned_total);
    if (mine.shard.groups_total !== theirs.shard.groups_total)
        throw differs('the groups of the whole suite (groups_total)', mine.shard.groups_total, theirs.shard.groups_total);
    // What the configuration does not show: the eval cases file as written, the server's cwd and the names of its variables.
    if (mine.shard.suite_hash !== theirs.shard.suite_hash) {
        throw differs('the suite (suite_hash: the eval cases file, models, judge, server, base URL, max_steps or max_tool_result_chars)', mine.shard.suite_hash, theirs.shard.suite_hash);
    }
}
/** Every shard index once, and every run of the plan in one shard only. */
function checkCoverage(shards) {
    const { count, planned_total, groups_total } = shards[0].document.shard;
    const byIndex = new Map();
    for (const file of shards) {
        const { index } = file.document.shard;
        const other = byIndex.get(index);
        if (other)
            throw new _read_shards_js__WEBPACK_IMPORTED_MODULE_2__.MergeError(`${other.path} and ${file.path} are both shard ${index} of ${count}: give each shard once`);
        byIndex.set(index, file);
    }
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
    if (missing.length > 0) {
        const given = shards.map((f) => `${f.document.shard.index} (${f.path})`).join(', ');
        throw new _read_shards_js__WEBPACK_IMPORTED_MODULE_2__.MergeError(`${missing.length === 1 ? 'shard' : 'shards'} ${missing.join(', ')} of ${count} ${missing.length === 1 ? 'is' : 'are'} missing: given were shard ${given}; did a shard job fail before it uploaded its results?`);
    }
    const runs = new Map();
    for (const file of shards) {
        for (const run of file.document.runs) {
            const key = (0,_plan_expand_js__WEBPACK_IMPORTED_MODULE_3__/* .runKey */ .r7)(run);
            const other = runs.get(key);
            if (other !== undefined)
                throw new _read_shards_js__WEBPACK_IMPORTED_MODULE_2__.MergeError(`the run ${run.case_id} · ${run.model} · ${run.prompt_name} (attempt ${run.attempt}) is in both ${other} and ${file.path}: the shards overlap`);
            runs.set(key, file.path);
        }
    }
    const planned = shards.reduce((sum, f) => sum + f.document.shard.planned, 0);
    const groups = shards.reduce((sum, f) => sum + f.document.shard.groups, 0);
    if (planned !== planned_total || groups !== groups_total) {
        const each = shards.map((f) => `${f.path}: ${f.document.shard.planned}`).join(', ');
        throw new _read_shards_js__WEBPACK_IMPORTED_MODULE_2__.MergeError(`the shards plan ${planned} runs in ${groups} groups, and the suite ${planned_total} runs in ${groups_total} groups (${each}): they do not split one plan`);
    }
}
/** The first key (in the reference's order, then the other's) whose values differ, with both values; null when none does. */
function firstDifference(mine, theirs) {
    const [a, b] = [mine, theirs];
    const key = [...new Set([...Object.keys(b), ...Object.keys(a)])].find((k) => !same(a[k], b[k]));
    return key === undefined ? null : { key, mine: a[key], theirs: b[key] };
}
function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
}
/** A value in a message: short, and plain JSON (a model list, a number, a hash). */
function show(value) {
    return (0,_util_text_js__WEBPACK_IMPORTED_MODULE_4__/* .ellipsize */ .mc)(value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value), 120);
}
/** A merge writes its files beside the shards': never over one of them. */
function checkOutputsApart(shards, outputs) {
    const inputs = new Map(shards.map((s) => [(0,node_path__WEBPACK_IMPORTED_MODULE_0__.resolve)(s.path), s.path]));
    for (const { path, what } of outputs) {
        const input = inputs.get((0,node_path__WEBPACK_IMPORTED_MODULE_0__.resolve)(path));
        if (input !== undefined)
            throw new _read_shards_js__WEBPACK_IMPORTED_MODULE_2__.MergeError(`${input}: is a shard's results, and the merged ${what} would be written over it: write the merge elsewhere, or match only the shards' files (eval-results.shard-*.json)`);
    }
}


/***/ }),

/***/ 76446:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   MergeError: () => (/* binding */ MergeError),
/* harmony export */   readShardFiles: () => (/* binding */ readShardFiles)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var tinyglobby__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(73382);
/* harmony import */ var _config_errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(37827);
/* harmony import */ var _results_upgrade_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(34526);
/* harmony import */ var _aggregate_upgrade_document_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(60397);
/* harmony import */ var _execute_record_shapes_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(18);
/* harmony import */ var _util_read_file_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(45201);
/* harmony import */ var _util_text_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(49997);









/** The results version that brought the shard section. */
const SHARDS_SINCE = 8;
/**
 * Why the shards cannot be merged: a file that is missing, unreadable or not a shard's results, or
 * a set of shards that is not one whole suite. The message names the file (or files) and what is
 * wrong. A configuration error: the CLI exits 2, the action writes a fatal document and fails.
 */
class MergeError extends _config_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ConfigError */ .xL {
    constructor(message) {
        super(message);
        this.name = 'MergeError';
    }
}
/**
 * The files the patterns name, in the order given: a path to an existing file as it is (a name
 * the shell already expanded may hold glob characters), anything else as a glob whose matches
 * are sorted. A pattern that matches nothing is an error naming it; a file named twice is read once.
 */
function expandShardPatterns(patterns) {
    const cwd = process.cwd();
    if (patterns.length === 0)
        throw new MergeError("no shard results given: name the shards' results documents (eval-results.shard-*.json), as paths or a glob");
    const files = [];
    const seen = new Set();
    for (const pattern of patterns) {
        const kind = fileKind((0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(cwd, pattern));
        if (kind === 'directory')
            throw new MergeError(`'${pattern}' is a directory: name the shards' files in it, as '${pattern.replace(/\/+$/, '')}/eval-results.shard-*.json'`);
        const matched = kind === 'file' ? [pattern] : (0,tinyglobby__WEBPACK_IMPORTED_MODULE_7__/* .globSync */ .AZ)(pattern, { cwd, onlyFiles: true, expandDirectories: false }).sort(_util_text_js__WEBPACK_IMPORTED_MODULE_8__/* .byCodeUnits */ .CA);
        if (matched.length === 0)
            throw new MergeError(`'${pattern}' matches no file: were the shards' results downloaded (or written) there?`);
        for (const file of matched) {
            const key = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(cwd, file);
            if (seen.has(key))
                continue;
            seen.add(key);
            files.push(file);
        }
    }
    return files;
}
function fileKind(path) {
    try {
        const stat = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.statSync)(path);
        return stat.isDirectory() ? 'directory' : 'file';
    }
    catch {
        return null;
    }
}
/**
 * One shard's results document, refused with a message naming the file when it cannot be read,
 * is not a results document, has no shard section (an unsharded run, or a version before shards)
 * or holds a shard whose evaluation could not run.
 */
function readShardFile(path) {
    let text;
    try {
        text = (0,_util_read_file_js__WEBPACK_IMPORTED_MODULE_6__/* .readBoundedFile */ .Mv)(path, _util_read_file_js__WEBPACK_IMPORTED_MODULE_6__/* .FileLimits */ .pr.document);
    }
    catch (error) {
        throw new MergeError(`${path}: cannot be read (${error.code ?? error.message})`);
    }
    let data;
    try {
        data = JSON.parse(text);
    }
    catch {
        throw new MergeError(`${path}: is not JSON, so not a shard's results document (eval-results.shard-I-of-N.json)`);
    }
    const document = (0,_aggregate_upgrade_document_js__WEBPACK_IMPORTED_MODULE_4__/* .upgradeDocument */ .E)(data);
    if (!document)
        throw new MergeError(`${path}: is JSON but not a results document (eval-results.json, version ${_results_upgrade_js__WEBPACK_IMPORTED_MODULE_3__/* .READABLE_VERSIONS_TEXT */ .vo})`);
    const problem = (0,_execute_record_shapes_js__WEBPACK_IMPORTED_MODULE_5__/* .shapeProblem */ .j)('document', document, '');
    if (problem)
        throw new MergeError(`${path}: is not a results document this version can merge: ${problem}`);
    if (document.fatal_error !== null)
        throw new MergeError(`${path}: this shard's evaluation could not run: ${document.fatal_error}; fix that and run the shard again`);
    if (!document.shard) {
        const version = data.version;
        const why = version < SHARDS_SINCE ? `it was written by results version ${version}, before shards existed (version ${SHARDS_SINCE})` : 'it is the results of an unsharded run';
        throw new MergeError(`${path}: is not a shard's results (it has no shard section: ${why}); merge the results of runs with shard: I/N`);
    }
    return { path, document: document };
}
/** Every shard the patterns name, each read and checked on its own (checkShardSet checks them together). */
function readShardFiles(patterns) {
    return expandShardPatterns(patterns).map(readShardFile);
}


/***/ })

};
