export const id = 721;
export const ids = [721];
export const modules = {

/***/ 49721:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   htmlArtifactName: () => (/* binding */ htmlArtifactName),
/* harmony export */   uploadHtmlArtifact: () => (/* binding */ uploadHtmlArtifact),
/* harmony export */   uploadResultsArtifact: () => (/* binding */ uploadResultsArtifact)
/* harmony export */ });
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(90787);
/* harmony import */ var _actions_artifact__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(77935);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(48161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_4___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_4__);
// Log lines through the neutraliser; setOutput and the summary as @actions/core has them.





/** Where the artifact service is, when this runs on a runner that has one. */
function serviceAvailable() {
    return Boolean(process.env.ACTIONS_RUNTIME_TOKEN && process.env.ACTIONS_RESULTS_URL);
}
/**
 * Upload the results as one artifact. Where the artifact service is unavailable (outside a
 * runner, GHES) or the upload fails, warn and go on: an upload never fails the evaluation.
 */
async function uploadResultsArtifact(name, files, rootDirectory, retentionDays) {
    if (!serviceAvailable()) {
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
/** The non-zipped HTML artifact's name: the file's own name, so made unique per artifact (and per shard). */
const htmlArtifactName = (artifactName) => `${artifactName}-report.html`;
/**
 * Upload eval-report.html on its own, not zipped, so that GitHub serves it to the browser and
 * `…/artifacts/<id>#run-17` opens that run. A non-zipped artifact is named after its file, so the
 * page is copied first to a name of its own (`<artifact_name>-report.html`, in RUNNER_TEMP). An
 * unavailable service or a failed upload is a warning, as for the results artifact; returns the
 * artifact's id, or undefined.
 */
async function uploadHtmlArtifact(artifactName, htmlPath, retentionDays) {
    const name = htmlArtifactName(artifactName);
    // Said once already by the results artifact's upload; silent here.
    if (!serviceAvailable())
        return undefined;
    try {
        const dir = (0,node_fs__WEBPACK_IMPORTED_MODULE_2__.mkdtempSync)((0,node_path__WEBPACK_IMPORTED_MODULE_4__.join)(process.env.RUNNER_TEMP || (0,node_os__WEBPACK_IMPORTED_MODULE_3__.tmpdir)(), 'mcp-server-evals-html-'));
        const file = (0,node_path__WEBPACK_IMPORTED_MODULE_4__.join)(dir, name);
        (0,node_fs__WEBPACK_IMPORTED_MODULE_2__.copyFileSync)(htmlPath, file);
        const { id } = await new _actions_artifact__WEBPACK_IMPORTED_MODULE_1__/* .DefaultArtifactClient */ .t9().uploadArtifact(name, [file], dir, { skipArchive: true, ...(retentionDays ? { retentionDays } : {}) });
        _log_js__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Uploaded the HTML report as the artifact ${name} (opens in the browser).`);
        return id;
    }
    catch (error) {
        _log_js__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`Could not upload the HTML report as the artifact ${name}: ${error.message}`);
        return undefined;
    }
}


/***/ })

};
