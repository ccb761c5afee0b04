export const id = 446;
export const ids = [446];
export const modules = {

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
