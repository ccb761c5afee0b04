export const id = 818;
export const ids = [818];
export const modules = {

/***/ 23818:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  annotateResults: () => (/* binding */ annotateResults),
  publishComment: () => (/* binding */ publishComment),
  setActionOutputs: () => (/* binding */ setActionOutputs),
  writeJobSummary: () => (/* binding */ writeJobSummary)
});

// EXTERNAL MODULE: ./src/github/log.ts + 1 modules
var log = __webpack_require__(90787);
// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js
var github = __webpack_require__(61351);
// EXTERNAL MODULE: ./src/constants.ts
var constants = __webpack_require__(27242);
// EXTERNAL MODULE: ./src/execute/run-dirs.ts
var run_dirs = __webpack_require__(68007);
// EXTERNAL MODULE: ./src/report/reasons.ts
var reasons = __webpack_require__(67063);
// EXTERNAL MODULE: ./src/report/cancelled.ts
var cancelled = __webpack_require__(84733);
// EXTERNAL MODULE: ./src/report/escape.ts
var report_escape = __webpack_require__(14031);
// EXTERNAL MODULE: ./src/report/headline.ts
var headline = __webpack_require__(14512);
// EXTERNAL MODULE: ./src/report/model-view.ts
var model_view = __webpack_require__(28617);
// EXTERNAL MODULE: ./src/report/html-links.ts
var html_links = __webpack_require__(59417);
// EXTERNAL MODULE: ./src/report/sections.ts + 9 modules
var report_sections = __webpack_require__(55241);
;// CONCATENATED MODULE: ./src/report/comment.ts






/** GitHub rejects issue and PR comments over this many characters. */
const COMMENT_MAX_CHARS = 65_536;
/**
 * The sticky PR comment says what a reviewer needs, in the order they need it: the verdict, what
 * changed since the baseline, what did not pass and why, the cases × models matrix, and the rest
 * collapsed. A passing comment is short. Over GitHub's limit, the sections that have a briefer
 * form take it first (the last ones first): less detail before anything is cut. Then sections are
 * left out whole, the last ones first, with a note saying where the full report is.
 */
function renderComment(doc, context) {
    const max = context.maxChars ?? COMMENT_MAX_CHARS;
    const unreachable = doc.fatal_error === null && !doc.cancelled ? (0,headline/* unreachableReason */.N4)(doc) : null;
    const head = [`### MCP Server Evals — ${(0,headline/* verdictWords */.L2)(doc)}`, '', (0,headline/* headerLine */.iH)(doc, { gate: true }), ''];
    if (doc.fatal_error !== null)
        head.push((0,report_escape/* codeBlock */.DV)(doc.fatal_error), '');
    head.push(...(0,cancelled/* renderCancelled */.e)(doc));
    // What the models were not shown (cut results, images as text) qualifies every verdict below: said up front.
    head.push(...(0,model_view/* modelViewNotice */.R5)(doc));
    const html = (0,html_links/* htmlLinks */.Lb)(context.links.html);
    const links = [
        context.links.summary ? `[job summary](${context.links.summary})` : '',
        context.links.artifact ? `[artifact](${context.links.artifact})` : '',
        html ? `[HTML report](${context.links.html})` : ''
    ].filter(Boolean);
    const footer = links.length ? [`Full report: ${links.join(' · ')}`, ''] : [];
    // The sections and their order are the registry's (sections.ts); so is the order they degrade in.
    const sections = (0,report_sections/* placeSections */.k1)(report_sections/* COMMENT_ORDER */.tc, (0,report_sections/* sectionContext */.dp)(doc, unreachable, html), 'digest');
    const render = (kept, leftOut, shortened) => [
        ...head,
        ...kept.flatMap((s) => s.lines),
        ...(leftOut.length || shortened.length ? [`${fitNote(leftOut, shortened)} The full report is in the job summary and the artifact._`, ''] : []),
        ...footer,
        context.marker
    ].join('\n');
    const kept = sections.filter((s) => s.lines.length > 0);
    const leftOut = [];
    const shortened = [];
    let body = render(kept, leftOut, shortened);
    for (let i = kept.length - 1; i >= 0 && body.length > max; i--) {
        const brief = kept[i].brief;
        if (!brief || brief.length === 0)
            continue;
        kept[i] = { name: kept[i].name, lines: brief };
        shortened.unshift(kept[i].name);
        body = render(kept, leftOut, shortened);
    }
    while (body.length > max && kept.length > 0) {
        const dropped = kept.pop().name;
        leftOut.unshift(dropped);
        // A section left out is not also "shortened".
        if (shortened.includes(dropped))
            shortened.splice(shortened.indexOf(dropped), 1);
        body = render(kept, leftOut, shortened);
    }
    if (body.length > max) {
        // Even the verdict is too long (a huge fatal error): cut it, keep the marker.
        const room = max - context.marker.length - 40;
        body = `${body.slice(0, room)}\n\n_(cut to fit)_\n${context.marker}`;
    }
    return body;
}
/** "_Left out to fit GitHub's comment limit: matrix. Shortened: resilience." (the caller closes it). */
function fitNote(leftOut, shortened) {
    const parts = [leftOut.length ? `Left out to fit GitHub's comment limit: ${leftOut.join(', ')}.` : '', shortened.length ? `${leftOut.length ? 'Shortened' : "Shortened to fit GitHub's comment limit"}: ${shortened.join(', ')}.` : ''];
    return `_${parts.filter(Boolean).join(' ')}`;
}

// EXTERNAL MODULE: ./src/report/tool-tests.ts + 1 modules
var tool_tests = __webpack_require__(14772);
;// CONCATENATED MODULE: ./src/report/trim.ts
/** Cut Markdown to a byte budget at a line boundary, saying where and why it was cut. */
function trimToBytes(markdown, maxBytes, note) {
    if (Buffer.byteLength(markdown, 'utf8') <= maxBytes)
        return markdown;
    const suffix = `\n\n> ${note}\n`;
    // Keep room for the closing fence and </details> tags added below.
    const budget = maxBytes - Buffer.byteLength(suffix, 'utf8') - 1024;
    const lines = markdown.split('\n');
    let used = 0;
    let keep = 0;
    for (; keep < lines.length; keep++) {
        const size = Buffer.byteLength(lines[keep], 'utf8') + 1;
        if (used + size > budget)
            break;
        used += size;
    }
    let text = lines.slice(0, keep).join('\n');
    // Close an open code fence and open <details> blocks so the cut does not swallow the note.
    const { fence, details } = openBlocks(text);
    if (fence)
        text += `\n${fence}`;
    text += '\n\n</details>'.repeat(details);
    return text + suffix;
}
/**
 * What is still open at the end of `markdown`: a code fence, and how many <details> blocks. A
 * fence closes only on a line of at least as many backticks and nothing else, so server text
 * inside a longer fence (a diff with ``` in it) neither opens nor closes anything; <details>
 * count only as the renderers write them, at the start of a line and outside code, so a
 * `</details>` that a server put in a code span or a code block is left alone.
 */
function openBlocks(markdown) {
    let fence = null;
    let details = 0;
    for (const line of markdown.split('\n')) {
        if (fence !== null) {
            const end = /^ {0,3}(`{3,})\s*$/.exec(line);
            if (end && end[1].length >= fence.length)
                fence = null;
            continue;
        }
        const start = /^ {0,3}(`{3,})(?!.*`)/.exec(line);
        if (start)
            fence = start[1];
        else if (/^<details>/.test(line))
            details++;
        else if (/^<\/details>\s*$/.test(line))
            details = Math.max(0, details - 1);
    }
    return { fence, details };
}

// EXTERNAL MODULE: ./src/report/apps.ts
var apps = __webpack_require__(46980);
;// CONCATENATED MODULE: ./src/github/comment.ts
/** The hidden marker of one sticky comment; `key` keeps two suites in one PR apart. */
function stickyMarker(key) {
    const safe = key.replace(/[^A-Za-z0-9._/ -]/g, '-').replace(/-{2,}/g, '-').trim() || 'default';
    return `<!-- mcp-server-evals:sticky:${safe} -->`;
}
/** A comment we may update: it carries our marker and was written by a bot, never by a person. */
function ours(comment, marker) {
    const author = comment.user;
    const bot = author?.type === 'Bot' || author?.login === 'github-actions[bot]';
    return bot && (comment.body ?? '').includes(marker);
}
/**
 * Create or update the one sticky comment for `marker`: every page of comments is read (the
 * first page alone holds only 30), and only a bot-authored comment with the marker is updated,
 * so a human who quotes the marker is never overwritten.
 */
async function upsertStickyComment(octokit, target, marker, body) {
    const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...target, per_page: 100 });
    const existing = comments.find((c) => ours(c, marker));
    if (existing) {
        const { data } = await octokit.rest.issues.updateComment({ owner: target.owner, repo: target.repo, comment_id: existing.id, body });
        return { action: 'updated', url: data.html_url };
    }
    const { data } = await octokit.rest.issues.createComment({ ...target, body });
    return { action: 'created', url: data.html_url };
}

;// CONCATENATED MODULE: ./src/github/publish.ts
// Log lines through the neutraliser; setOutput and the summary as @actions/core has them.










/** GitHub's job summary limit per step. */
const SUMMARY_MAX_BYTES = 1024 * 1024;
/** GitHub shows only the first 10 error and 10 warning annotations of a step. */
const MAX_ANNOTATIONS = 10;
function setActionOutputs(doc, paths) {
    log/* setOutput */.uH(constants/* Outputs */.tY.ResultsJson, paths.resultsPath);
    log/* setOutput */.uH(constants/* Outputs */.tY.ReportMd, paths.reportPath);
    // Set whenever html_report is on ('' when it could not be written), as report_md is.
    if (paths.htmlPath !== undefined)
        log/* setOutput */.uH(constants/* Outputs */.tY.ReportHtml, paths.htmlPath);
    log/* setOutput */.uH(constants/* Outputs */.tY.Passed, doc.passed ? 'true' : 'false');
    log/* setOutput */.uH(constants/* Outputs */.tY.PassRate, doc.summary.pass_rate === null ? '' : String(doc.summary.pass_rate));
    log/* setOutput */.uH(constants/* Outputs */.tY.Total, String(doc.summary.total));
    log/* setOutput */.uH(constants/* Outputs */.tY.Failed, String(doc.summary.failed + doc.summary.errored));
    log/* setOutput */.uH(constants/* Outputs */.tY.Cancelled, doc.cancelled ? 'true' : 'false');
    log/* setOutput */.uH(constants/* Outputs */.tY.ToolTestsTotal, String(doc.tool_tests?.total ?? 0));
    log/* setOutput */.uH(constants/* Outputs */.tY.ToolTestsFailed, String(doc.tool_tests ? doc.tool_tests.total - doc.tool_tests.passed : 0));
    // What was spent; empty when unknown (a provider without costs and no `pricing:`), never 0 for unknown.
    const spent = doc.telemetry?.overall.spent_usd ?? null;
    log/* setOutput */.uH(constants/* Outputs */.tY.CostUsd, spent === null ? '' : String(spent));
    if (paths.junitPath)
        log/* setOutput */.uH(constants/* Outputs */.tY.JunitXml, paths.junitPath);
    if (paths.sarifPath)
        log/* setOutput */.uH(constants/* Outputs */.tY.Sarif, paths.sarifPath);
    if (paths.badgePath)
        log/* setOutput */.uH(constants/* Outputs */.tY.BadgeJson, paths.badgePath);
    if (paths.journalPath)
        log/* setOutput */.uH(constants/* Outputs */.tY.Journal, paths.journalPath);
    // Where the failed runs' directories were kept (keep_run_dirs), for an upload-artifact step.
    log/* setOutput */.uH(constants/* Outputs */.tY.RunDirs, (0,run_dirs/* keptRunDirs */.i)(doc.runs)?.parent ?? '');
}
/** Append the report to the job summary; a summary problem is a warning, never a failure. */
async function writeJobSummary(report, reportPath) {
    try {
        // The artifact's screenshots cannot be shown in a job summary: their links stay, their images go.
        const text = trimToBytes((0,apps/* withoutScreenshots */.iU)(report), SUMMARY_MAX_BYTES, `The report was cut here to fit GitHub's 1 MiB job summary limit; the full report is in ${reportPath}.`);
        await log/* summary */.z.addRaw(text, true).write();
    }
    catch (error) {
        log/* warning */.$e(`Could not write the job summary: ${error.message}`);
    }
}
/** Conformance errors, and runs and tool tests that did not pass, as annotations with titles. */
function annotateResults(doc) {
    const errors = [];
    const warnings = [];
    for (const check of doc.conformance?.checks ?? []) {
        if (check.status === 'fail')
            errors.push([`MCP conformance: ${check.id}`, `${check.message} (${check.spec})`]);
        if (check.status === 'warn')
            warnings.push([`MCP conformance: ${check.id}`, `${check.message} (${check.spec})`]);
    }
    for (const run of doc.runs.filter((r) => r.status === 'failed' || r.status === 'error')) {
        errors.push([`Eval ${run.status === 'error' ? 'errored' : 'failed'}: ${run.case_id} · ${run.model} · ${run.prompt_name}`, (0,reasons/* failureReasons */.O)(run).join('; ')]);
    }
    for (const test of doc.tool_tests?.tests ?? []) {
        const why = (0,tool_tests/* toolTestFailureWords */.Ke)(test);
        if (why && test.status !== 'cancelled')
            errors.push([`Tool test ${test.status === 'error' ? 'errored' : 'failed'}: ${test.id}`, why]);
    }
    const emit = (list, annotate) => {
        for (const [title, message] of list.slice(0, MAX_ANNOTATIONS))
            annotate(message, { title });
        if (list.length > MAX_ANNOTATIONS)
            log/* info */.pq(`${list.length - MAX_ANNOTATIONS} more annotations are in the report.`);
    };
    emit(errors, log/* error */.z3);
    emit(warnings, log/* warning */.$e);
}
/** The run's page, where the job summary is shown. */
function runUrl() {
    const { serverUrl, runId } = github/* context */._;
    const repository = process.env.GITHUB_REPOSITORY;
    return repository && runId ? `${serverUrl}/${repository}/actions/runs/${runId}` : undefined;
}
/**
 * Create or update the sticky PR comment. A read-only token (a pull request from a fork) or any
 * other API problem is one warning; the job summary still has the report. Its links are built
 * from GitHub's context and the artifacts' ids only; with the HTML artifact, each failed run and
 * conformance finding it lists links to its anchor in the page.
 */
async function publishComment(doc, options, artifacts = {}) {
    if (options.commentSkipped)
        log/* warning */.$e(`No PR comment: ${options.commentSkipped}.`);
    if (!options.comment)
        return;
    const run = runUrl();
    const artifactUrl = (id) => (run && id !== undefined ? `${run}/artifacts/${id}` : undefined);
    const body = renderComment(doc, {
        marker: stickyMarker(options.comment.key),
        links: { summary: run, artifact: artifactUrl(artifacts.results), html: artifactUrl(artifacts.html) }
    });
    try {
        const octokit = github/* getOctokit */.Q(options.token);
        const { key, ...target } = options.comment;
        const { action, url } = await upsertStickyComment(octokit, target, stickyMarker(key), body);
        log/* info */.pq(`PR comment ${action}: ${url}`);
        log/* setOutput */.uH(constants/* Outputs */.tY.CommentUrl, url);
    }
    catch (error) {
        const status = error.status;
        const hint = status === 403 || status === 404 ? ': the token cannot write comments here (a pull request from a fork gets a read-only token; grant pull-requests: write otherwise)' : '';
        log/* warning */.$e(`Could not write the PR comment (${status ? `HTTP ${status}` : error.message})${hint}. The report is in the job summary.`);
    }
}


/***/ })

};
