export const id = 274;
export const ids = [274];
export const modules = {

/***/ 85274:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   formatMergeLines: () => (/* binding */ formatMergeLines)
/* harmony export */ });
/* harmony import */ var _util_words_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(90333);

/**
 * What a merge read, said before its verdict: the plan as a whole, then one line per shard with its
 * file, its runs and what else it brought (shard 1: conformance and the tool tests).
 */
function formatMergeLines(shards) {
    const { count: total, planned_total, groups_total } = shards[0].document.shard;
    const lines = [`Merging ${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_0__/* .count */ .U9)(total, 'shard')}: ${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_0__/* .count */ .U9)(planned_total, 'planned run')} in ${(0,_util_words_js__WEBPACK_IMPORTED_MODULE_0__/* .count */ .U9)(groups_total, 'group')} (case × model × prompt)`];
    for (const { path, document } of shards) {
        const extras = [document.conformance ? 'conformance' : '', document.tool_tests?.total ? (0,_util_words_js__WEBPACK_IMPORTED_MODULE_0__/* .count */ .U9)(document.tool_tests.total, 'tool test') : ''].filter(Boolean);
        const runs = `${document.runs.length}/${document.shard.planned} runs`;
        const state = document.cancelled ? ', cancelled' : (document.journal?.missing ?? 0) > 0 ? `, ${document.journal.missing} missing` : '';
        lines.push(`  shard ${document.shard.index}: ${[runs, ...extras].join(', ')}${state} (${path})`);
    }
    return lines;
}


/***/ })

};
