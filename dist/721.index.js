export const id = 721;
export const ids = [721];
export const modules = {

/***/ 49721:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   uploadResultsArtifact: () => (/* binding */ uploadResultsArtifact)
/* harmony export */ });
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(90787);
/* harmony import */ var _actions_artifact__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(77935);
// Log lines through the neutraliser; setOutput and the summary as @actions/core has them.


/**
 * Upload the results as one artifact. Where the artifact service is unavailable (outside a
 * runner, GHES) or the upload fails, warn and go on: an upload never fails the evaluation.
 */
async function uploadResultsArtifact(name, files, rootDirectory, retentionDays) {
    if (!process.env.ACTIONS_RUNTIME_TOKEN || !process.env.ACTIONS_RESULTS_URL) {
        _log_js__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e('The artifact service is not available here (no ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL); the results were not uploaded as an artifact.');
        return undefined;
    }
    try {
        const { id } = await new _actions_artifact__WEBPACK_IMPORTED_MODULE_1__/* .DefaultArtifactClient */ .t9().uploadArtifact(name, files, rootDirectory, retentionDays ? { retentionDays } : {});
        _log_js__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Uploaded the artifact ${name} (${files.length} files).`);
        return id;
    }
    catch (error) {
        _log_js__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`Could not upload the artifact ${name}: ${error.message}`);
        return undefined;
    }
}


/***/ })

};
