export const id = 784;
export const ids = [784];
export const modules = {

/***/ 72784:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  openAppHost: () => (/* binding */ openAppHost)
});

// EXTERNAL MODULE: ./src/util/pool.ts
var util_pool = __webpack_require__(40704);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: ./src/mcp/process-group.ts
var process_group = __webpack_require__(55887);
;// CONCATENATED MODULE: ./src/apps/browser.ts



/**
 * The browser of one host: headless Chromium launched by playwright-core as a server (so its pid
 * is ours to know), driven over its own connection, and closed with its whole process tree:
 * playwright's close, then the process group (playwright starts the browser `detached`, a group
 * leader), every descendant seen at close, and every process carrying the host's tag in its
 * environment (the crash handler leaves the group and is reparented to init). The group is registered with
 * src/mcp/process-group.ts, whose exit hook SIGKILLs it synchronously when Node exits.
 */
/** Flags that keep a headless Chromium quiet and offline on a closed network. */
const BROWSER_ARGS = [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--disable-default-apps',
    '--disable-domain-reliability',
    '--metrics-recording-only',
    '--mute-audio',
    '--hide-scrollbars',
    '--font-render-hinting=none',
    '--force-color-profile=srgb',
    '--disable-crash-reporter'
];
async function launchBrowser(executablePath, timeoutMs = 30_000) {
    const tag = (0,external_node_crypto_.randomUUID)();
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    // Loaded only when a suite renders an app: playwright-core's own files cost ~0.5 s to load,
    // which every other run of the action would pay before its first server spawn. Left to Node
    // (webpackIgnore): the bundles keep it external, and webpack hoists an external's import to a
    // static one at the top of the bundle, which would load it at start all the same.
    const { chromium } = await import(/* webpackIgnore: true */ 'playwright-core');
    const server = await chromium.launchServer({
        executablePath,
        headless: true,
        args: [...(root ? ['--no-sandbox'] : []), ...BROWSER_ARGS],
        timeout: timeoutMs,
        // We end the tree ourselves (and on exit through the process-group hook).
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        // Inherited by every process the browser starts, also those that leave its group (the crash
        // handler is double-forked to init): how close finds them.
        env: { ...process.env, [TAG_VARIABLE]: tag }
    });
    const child = server.process();
    const pid = child.pid ?? -1;
    if (pid > 0)
        (0,process_group/* adoptGroup */.SA)(pid, child);
    let browser;
    try {
        browser = await chromium.connect(server.wsEndpoint(), { timeout: timeoutMs });
    }
    catch (error) {
        await killTree(pid, server);
        throw error;
    }
    const version = versionText(executablePath, browser.version());
    let closing;
    return {
        browser,
        version,
        pid,
        processes: () => [...new Set([...(pid > 0 ? [pid, ...descendantsOf(pid)] : []), ...taggedWith(tag)])].filter(alive),
        close() {
            closing ??= (async () => {
                const seen = pid > 0 ? descendantsOf(pid) : [];
                await within(browser.close(), 3000);
                await killTree(pid, server, seen);
                await sleep(100);
                killAll(taggedWith(tag));
            })();
            return closing;
        }
    };
}
async function killTree(pid, server, seen = []) {
    const more = pid > 0 ? descendantsOf(pid) : [];
    await within(server.close(), 3000);
    if (pid > 0)
        await (0,process_group/* terminateGroup */.TK)(pid, 1000);
    killAll([...new Set([...seen, ...more])]);
}
function killAll(pids) {
    for (const p of pids) {
        try {
            process.kill(p, 'SIGKILL');
        }
        catch {
            // gone already
        }
    }
}
const TAG_VARIABLE = 'MCP_SERVER_EVALS_APP_HOST';
/** The running processes whose environment carries this host's tag (Linux /proc; empty elsewhere). */
function taggedWith(tag) {
    if (process.platform !== 'linux')
        return [];
    const needle = `${TAG_VARIABLE}=${tag}`;
    const found = [];
    let entries;
    try {
        entries = (0,external_node_fs_.readdirSync)('/proc');
    }
    catch {
        return found;
    }
    for (const entry of entries) {
        if (!/^\d+$/.test(entry) || Number(entry) === process.pid)
            continue;
        try {
            if ((0,external_node_fs_.readFileSync)(`/proc/${entry}/environ`, 'latin1').split('\0').includes(needle))
                found.push(Number(entry));
        }
        catch {
            // not ours to read, or gone
        }
    }
    return found.filter(alive);
}
/** "Chromium 156.0.8078.73": the product from the executable's name, the version from the browser. */
function versionText(executablePath, version) {
    return `${/chrome/i.test(executablePath.split(/[\\/]/).pop() ?? '') && !/chromium/i.test(executablePath) ? 'Google Chrome' : 'Chromium'} ${version}`;
}
/** Every descendant of `pid` (Linux /proc; empty elsewhere), children before grandchildren. */
function descendantsOf(pid) {
    const parents = processParents();
    const out = [];
    let frontier = [pid];
    while (frontier.length > 0) {
        const next = [];
        for (const [child, parent] of parents)
            if (frontier.includes(parent) && !out.includes(child))
                next.push(child);
        out.push(...next);
        frontier = next;
    }
    return out;
}
function processParents() {
    const parents = new Map();
    if (process.platform !== 'linux')
        return parents;
    let entries;
    try {
        entries = (0,external_node_fs_.readdirSync)('/proc');
    }
    catch {
        return parents;
    }
    for (const entry of entries) {
        if (!/^\d+$/.test(entry))
            continue;
        try {
            const stat = (0,external_node_fs_.readFileSync)(`/proc/${entry}/stat`, 'utf8');
            // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
            const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            if (fields[0] === 'Z')
                continue;
            parents.set(Number(entry), Number(fields[1]));
        }
        catch {
            // the process ended while we read
        }
    }
    return parents;
}
function alive(pid) {
    try {
        const stat = (0,external_node_fs_.readFileSync)(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    }
    catch {
        return false;
    }
}
/** Waits for `promise` (its failure ignored) at most `ms`, leaving no timer behind. */
async function within(promise, ms) {
    let timer;
    await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
}
function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
;// CONCATENATED MODULE: ./src/apps/browser-path.ts


/**
 * Where the browser is: the chrome_path input / --chrome-path flag first, then CHROME_PATH, then
 * the usual names on PATH and the usual install places. A path that is given but does not exist
 * is an error naming where it came from, never a silent fall back to the search.
 */
/** Names searched on PATH, in order (Google Chrome first: GitHub-hosted runners have it). */
const BROWSER_NAMES = ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser'];
/** Install places outside PATH, by platform. */
const BROWSER_PLACES = {
    linux: ['/usr/bin/chromium', '/usr/bin/google-chrome', '/opt/google/chrome/chrome', '/snap/bin/chromium'],
    darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
    win32: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe']
};
const NO_BROWSER_REASON = 'no Chrome or Chromium was found: install one (on Debian/Ubuntu `apt-get install -y chromium`), or set chrome_path / --chrome-path / CHROME_PATH; the app layer was skipped';
function findBrowser(lookup) {
    const isExecutable = lookup.isExecutable ?? executableFile;
    const given = lookup.chromePath.trim();
    if (given) {
        return isExecutable(given)
            ? { choice: { path: given, source: 'input' } }
            : { choice: null, reason: `chrome_path / --chrome-path ${JSON.stringify(given)} is not an executable file; the app layer was skipped` };
    }
    const fromEnv = (lookup.env.CHROME_PATH ?? '').trim();
    if (fromEnv) {
        return isExecutable(fromEnv)
            ? { choice: { path: fromEnv, source: 'env' } }
            : { choice: null, reason: `CHROME_PATH ${JSON.stringify(fromEnv)} is not an executable file; the app layer was skipped` };
    }
    const platform = lookup.platform ?? process.platform;
    const dirs = (lookup.env.PATH ?? '').split(platform === 'win32' ? ';' : external_node_path_.delimiter).filter(Boolean);
    const names = platform === 'win32' ? BROWSER_NAMES.map((n) => `${n}.exe`) : BROWSER_NAMES;
    for (const name of names) {
        for (const dir of dirs) {
            const path = (0,external_node_path_.join)(dir, name);
            if (isExecutable(path))
                return { choice: { path, source: 'search' } };
        }
    }
    for (const path of BROWSER_PLACES[platform] ?? []) {
        if (isExecutable(path))
            return { choice: { path, source: 'search' } };
    }
    return { choice: null, reason: NO_BROWSER_REASON };
}
function executableFile(path) {
    try {
        if (!(0,external_node_fs_.statSync)(path).isFile())
            return false;
        (0,external_node_fs_.accessSync)(path, external_node_fs_.constants.X_OK);
        return true;
    }
    catch {
        return false;
    }
}

// EXTERNAL MODULE: ./src/apps/render-record.ts
var render_record = __webpack_require__(11242);
// EXTERNAL MODULE: ./src/util/redact.ts
var redact = __webpack_require__(50767);
// EXTERNAL MODULE: ./src/tooltests/jsonpath.ts
var jsonpath = __webpack_require__(68106);
// EXTERNAL MODULE: ./src/tooltests/matchers.ts
var matchers = __webpack_require__(27928);
;// CONCATENATED MODULE: ./src/apps/assertions.ts


function textAssertions(test, view) {
    const lower = view.text.toLowerCase();
    const excerpt = view.text.length > 300 ? `${view.text.slice(0, 299)}…` : view.text;
    return test.text_contains.map((needle) => {
        const passed = lower.includes(needle.toLowerCase());
        return { check: 'text_contains', target: null, passed, expected: needle, actual: excerpt, reason: passed ? `the view shows ${JSON.stringify(needle)}` : `the view's text does not contain ${JSON.stringify(needle)}` };
    });
}
function selectorAssertions(test, view) {
    return test.selector.map((check) => {
        const texts = view.selectors[check.selector] ?? [];
        if (check.count !== undefined) {
            const passed = texts.length === check.count;
            return { check: 'selector', target: check.selector, passed, expected: check.count, actual: texts.length, reason: passed ? `${texts.length} elements match` : `expected ${check.count} elements to match, found ${texts.length}` };
        }
        if (check.text !== undefined) {
            const want = check.text.trim();
            const passed = texts.some((t) => t.trim() === want);
            const actual = texts.slice(0, 10).map((t) => t.trim().slice(0, 200));
            return {
                check: 'selector',
                target: check.selector,
                passed,
                expected: want,
                actual,
                reason: passed ? `an element's text is ${JSON.stringify(want)}` : texts.length === 0 ? 'no element matches' : `no matching element's text is ${JSON.stringify(want)} (found ${(0,matchers/* show */.WU)(actual)})`
            };
        }
        const passed = texts.length > 0;
        return { check: 'selector', target: check.selector, passed, expected: true, actual: texts.length, reason: passed ? `${texts.length} element${texts.length === 1 ? '' : 's'} match` : 'no element matches' };
    });
}
/** `fields`: a key starting with `$` is a JSONPath on structuredContent; any other key is a property of it. */
function fieldAssertions(test, result) {
    const structured = result.structuredContent;
    return Object.entries(test.fields).map(([key, matcher]) => {
        const path = key.startsWith('$') ? key : `$[${JSON.stringify(key)}]`;
        if (structured === undefined || structured === null || typeof structured !== 'object') {
            return { check: 'fields', target: key, passed: false, expected: matcher, actual: null, reason: 'the call returned no structuredContent object' };
        }
        let nodes;
        try {
            nodes = (0,jsonpath/* queryValues */.R4)(path, structured);
        }
        catch (error) {
            return { check: 'fields', target: key, passed: false, expected: matcher, actual: null, reason: error.message };
        }
        const outcome = (0,matchers/* matchValue */.dt)(matcher, nodes, key);
        return { check: 'fields', target: key, passed: outcome.passed, expected: matcher, actual: outcome.actual, reason: outcome.reason };
    });
}
async function judgeAssertion(test, png, judge, context, signal) {
    const rule = test.judge;
    if (!rule)
        return null;
    const base = { check: 'judge', target: null, expected: rule.threshold };
    if (!judge)
        return { ...base, passed: false, actual: null, reason: 'app.judge needs a vision judge, and none is configured', score: null };
    if (!png)
        return { ...base, passed: false, actual: null, reason: 'no screenshot was taken, so there was nothing to judge', score: null };
    try {
        const { score, reason } = await judge({ rubric: rule.rubric, png, model: rule.model, context }, signal);
        const passed = score / 10 >= rule.threshold;
        return { ...base, passed, actual: score, reason: `${score}/10 ${passed ? '≥' : '<'} threshold ${rule.threshold} × 10: ${reason}`, score };
    }
    catch (error) {
        return { ...base, passed: false, actual: null, reason: `the vision judge failed: ${error instanceof Error ? error.message : String(error)}`, score: null };
    }
}

// EXTERNAL MODULE: ./node_modules/@modelcontextprotocol/ext-apps/dist/src/app-bridge.js + 1 modules
var app_bridge = __webpack_require__(92373);
// EXTERNAL MODULE: ./src/version.ts + 1 modules
var version = __webpack_require__(71013);
;// CONCATENATED MODULE: ./src/apps/bridge.ts



const MAX_RESULT = 2000;
const MAX_PARAM_STRING = 500;
function createBridge(setup) {
    const { request, log, secrets } = setup;
    const csp = setup.resource.csp;
    const bridge = new app_bridge/* AppBridge */.T1(null, { name: version/* TOOL_NAME */.l, version: version/* TOOL_VERSION */.w }, {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {} },
        sandbox: {
            ...(csp ? { csp: { connectDomains: csp.connect_domains, resourceDomains: csp.resource_domains, frameDomains: csp.frame_domains, baseUriDomains: csp.base_uri_domains } } : {}),
            ...(setup.resource.permissions ? { permissions: setup.resource.permissions } : {})
        }
    }, {
        hostContext: {
            theme: 'light',
            displayMode: 'inline',
            availableDisplayModes: ['inline'],
            containerDimensions: { width: setup.viewport.width, maxHeight: setup.viewport.height },
            locale: 'en-US',
            timeZone: 'UTC',
            platform: 'web',
            deviceCapabilities: { touch: false, hover: true },
            toolInfo: { tool: { name: request.tool.name, inputSchema: { type: 'object' } } }
        }
    });
    const at = () => Date.now() - log.start;
    const record = (method, params) => log.host_requests.push({ method, at_ms: at(), params: cutStrings((0,redact/* redactDeep */.KL)((params ?? {}), secrets)) });
    bridge.oncalltool = async (params) => {
        const name = params.name;
        const args = (params.arguments ?? {});
        const call = { name, args: (0,redact/* redactDeep */.KL)(args, secrets), at_ms: at(), latency_ms: 0, refused: null, is_error: false, result: '' };
        log.tool_calls.push(call);
        const tool = request.session.tools.find((t) => t.name === name);
        const visibility = tool?.ui?.visibility ?? null;
        if (!tool || (visibility !== null && !visibility.includes('app'))) {
            call.refused = !tool ? `the server lists no tool ${name}` : `${name} is not visible to the app (visibility ${JSON.stringify(visibility)})`;
            call.is_error = true;
            call.result = call.refused;
            throw new Error(`the host refused tools/call ${name}: ${call.refused}`);
        }
        const started = Date.now();
        try {
            const raw = await request.session.callToolRaw(name, args, request.signal);
            call.latency_ms = Date.now() - started;
            if (raw.response.kind === 'error') {
                call.is_error = true;
                call.result = cutText((0,redact/* redactText */.Rd)(`JSON-RPC error ${raw.response.error.code}: ${raw.response.error.message}`, secrets));
                throw new Error(raw.response.error.message);
            }
            const result = raw.response.result;
            call.is_error = result.isError === true;
            call.result = cutText((0,redact/* redactText */.Rd)(resultText(result), secrets));
            return result;
        }
        catch (error) {
            if (call.latency_ms === 0) {
                call.latency_ms = Date.now() - started;
                call.is_error = true;
                call.result = cutText((0,redact/* redactText */.Rd)(error instanceof Error ? error.message : String(error), secrets));
            }
            throw error;
        }
    };
    bridge.onreadresource = async (params) => {
        const read = { uri: (0,redact/* redactText */.Rd)(params.uri, secrets), at_ms: at(), error: null };
        log.resource_reads.push(read);
        try {
            const outcome = await request.session.readResource(params.uri, request.signal);
            if (outcome.isError || !outcome.result)
                throw new Error(outcome.text || `resources/read ${params.uri} failed`);
            return outcome.result;
        }
        catch (error) {
            read.error = cutText((0,redact/* redactText */.Rd)(error instanceof Error ? error.message : String(error), secrets), MAX_PARAM_STRING);
            throw error;
        }
    };
    bridge.onmessage = async (params) => {
        record('ui/message', params);
        return {};
    };
    bridge.onopenlink = async (params) => {
        record('ui/open-link', params);
        return {};
    };
    bridge.onupdatemodelcontext = async (params) => {
        record('ui/update-model-context', params);
        return {};
    };
    bridge.onrequestdisplaymode = async (params) => {
        record('ui/request-display-mode', params);
        return { mode: 'inline' };
    };
    bridge.onsizechange = (params) => {
        record('ui/notifications/size-changed', params);
        setup.onSize(params.height);
    };
    bridge.onloggingmessage = (params) => record('notifications/message', params);
    bridge.onrequestteardown = (params) => record('ui/notifications/request-teardown', params ?? {});
    bridge.oninitialized = () => {
        setup.onInitialized();
        void (async () => {
            await bridge.sendToolInput({ arguments: request.args });
            await bridge.sendToolResult(request.result);
        })().catch(() => undefined);
    };
    return bridge;
}
/** A result's text blocks joined, or its JSON when it has none. */
function resultText(result) {
    const content = Array.isArray(result.content) ? result.content : [];
    const texts = content.filter((c) => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text);
    return texts.length ? texts.join('\n') : JSON.stringify(result.structuredContent ?? result);
}
function cutText(text, max = MAX_RESULT) {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
function cutStrings(value) {
    if (typeof value === 'string')
        return cutText(value, MAX_PARAM_STRING);
    if (Array.isArray(value))
        return value.slice(0, 50).map(cutStrings);
    if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v)]));
    return value;
}

;// CONCATENATED MODULE: ./src/apps/findings.ts
const MAX_EVIDENCE = 20;
const MAX_LINE = 500;
function renderFindings(o) {
    return [initializes(o), noErrors(o), cspRespected(o), renders(o), toolCalls(o), cspDeclared(o)];
}
function finding(id, status, message, evidence = []) {
    return { id, status, message: cut(message), evidence: evidence.slice(0, MAX_EVIDENCE).map((line) => cut(line)) };
}
function cut(text, max = MAX_LINE) {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
function initializes(o) {
    if (o.initialized_ms !== null)
        return finding('app-initializes', 'passed', `the view completed ui/initialize in ${o.initialized_ms} ms`);
    const why = o.page_errors.length ? `; it threw first: ${o.page_errors[0]}` : '';
    return finding('app-initializes', 'failed', `the view did not complete ui/initialize within ${o.init_timeout_ms} ms${why}`, o.page_errors.map((e) => `uncaught: ${e}`));
}
function noErrors(o) {
    const lines = [...o.page_errors.map((e) => `uncaught: ${e}`), ...o.console_errors.map((e) => `console.error: ${e}`)];
    if (lines.length === 0)
        return finding('app-no-errors', 'passed', 'no uncaught error and no console.error');
    // One line: a stack's line breaks and indentation read as one space.
    const first = (o.page_errors.length ? `the view threw: ${o.page_errors[0]}` : `the view logged an error: ${o.console_errors[0]}`).replace(/\s+/g, ' ');
    const more = lines.length > 1 ? ` (${lines.length} errors in all)` : '';
    return finding('app-no-errors', 'failed', `${first}${more}`, lines);
}
function cspRespected(o) {
    if (o.blocked.length === 0)
        return finding('app-csp-respected', 'passed', 'no request was blocked by the resource’s CSP');
    const urls = [...new Set(o.blocked.map((b) => b.url))];
    const message = `the CSP blocked ${urls.length === 1 ? `a request to ${urls[0]}` : `${urls.length} requests (first ${urls[0]})`}: not in the resource’s _meta.ui.csp`;
    return finding('app-csp-respected', 'failed', message, [...o.blocked.map((b) => `blocked ${b.url} (${b.directive})`), ...o.csp_console]);
}
function renders(o) {
    if (o.screenshot === null)
        return finding('app-renders', 'skipped', `no screenshot was taken${o.screenshot_error ? `: ${o.screenshot_error}` : ''}`);
    if (o.screenshot.flat)
        return finding('app-renders', 'failed', `the view is blank: the screenshot is one flat colour (${o.screenshot.colour})`);
    return finding('app-renders', 'passed', 'the screenshot is not one flat colour');
}
function toolCalls(o) {
    if (o.tool_calls.length === 0) {
        return o.initialized_ms === null
            ? finding('app-tool-calls', 'skipped', 'the view never initialised, so its tool calls could not be judged')
            : finding('app-tool-calls', 'passed', 'the view made no tool call');
    }
    const bad = o.tool_calls.filter((c) => c.refused !== null || c.is_error);
    const evidence = o.tool_calls.map((c) => `${c.name} ${JSON.stringify(c.args)} → ${c.refused !== null ? `refused: ${c.refused}` : c.is_error ? `error: ${c.result}` : 'ok'}`);
    if (bad.length === 0)
        return finding('app-tool-calls', 'passed', `${count(o.tool_calls.length, 'tool call')} by the view, all to tools visible to the app and all succeeded`, evidence);
    const first = bad[0];
    const what = first.refused !== null ? `refused ${first.name}: ${first.refused}` : `${first.name} failed: ${first.result}`;
    return finding('app-tool-calls', 'failed', `${bad.length} of ${count(o.tool_calls.length, 'tool call')} by the view went wrong; ${what}`, evidence);
}
function cspDeclared(o) {
    return o.csp_declared
        ? finding('app-csp-declared', 'passed', 'the resource declares _meta.ui.csp')
        : finding('app-csp-declared', 'warning', 'the resource declares no _meta.ui.csp: it relies on the default (no network at all)');
}
function count(n, noun) {
    return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

;// CONCATENATED MODULE: ./src/apps/relay.ts
/**
 * The AppBridge's transport (it runs in Node): what the view posts reaches `deliver`, what the
 * bridge sends is handed to `post` (a `frame.postMessage` in the page). It also counts the view's
 * requests the bridge has not answered yet, and when the last message went either way, so the host
 * can wait until the view is settled.
 */
class FrameRelay {
    post;
    onmessage;
    onclose;
    onerror;
    pending = new Set();
    closed = false;
    lastTraffic = Date.now();
    constructor(post) {
        this.post = post;
    }
    async start() { }
    async send(message) {
        if (this.closed)
            return;
        this.lastTraffic = Date.now();
        const m = message;
        if (m.id !== undefined && m.method === undefined)
            this.pending.delete(String(m.id));
        await this.post(message).catch((error) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
    }
    async close() {
        if (this.closed)
            return;
        this.closed = true;
        this.onclose?.();
    }
    /** A message the view posted to its parent. Anything that is not a JSON-RPC object is ignored. */
    deliver(message) {
        if (this.closed || !message || typeof message !== 'object' || message.jsonrpc !== '2.0')
            return;
        this.lastTraffic = Date.now();
        const m = message;
        if (m.id !== undefined && typeof m.method === 'string')
            this.pending.add(String(m.id));
        this.onmessage?.(message);
    }
    /** The view's requests still waiting for the host's answer. */
    get pendingRequests() {
        return this.pending.size;
    }
}

;// CONCATENATED MODULE: ./src/apps/resource.ts
/** The HTML content of a resources/read result and its `_meta.ui`, or why there is none. */
function viewResourceOf(uri, result) {
    const contents = Array.isArray(result?.contents) ? result.contents : [];
    if (contents.length === 0)
        return { error: `resources/read ${uri} answered no contents` };
    const item = contents.find((c) => typeof c?.mimeType === 'string' && /^text\/html/i.test(c.mimeType)) ?? contents[0];
    let html = null;
    if (typeof item.text === 'string')
        html = item.text;
    else if (typeof item.blob === 'string')
        html = Buffer.from(item.blob, 'base64').toString('utf8');
    if (html === null)
        return { error: `resources/read ${uri} answered no text or blob content` };
    if (typeof item.mimeType === 'string' && !/^text\/html/i.test(item.mimeType))
        return { error: `resources/read ${uri} answered ${item.mimeType}, not HTML (text/html;profile=mcp-app)` };
    const ui = objectAt(objectAt(item, '_meta'), 'ui');
    const rawCsp = objectAt(ui, 'csp');
    const csp = rawCsp
        ? {
            connect_domains: strings(rawCsp.connectDomains),
            resource_domains: strings(rawCsp.resourceDomains),
            frame_domains: strings(rawCsp.frameDomains),
            base_uri_domains: strings(rawCsp.baseUriDomains)
        }
        : null;
    const permissions = objectAt(ui, 'permissions');
    return { html, csp, permissions: permissions ? permissions : null };
}
/** The Content-Security-Policy header the view is served with. */
function cspHeaderOf(csp) {
    const connect = safe(csp?.connect_domains);
    const resource = safe(csp?.resource_domains);
    const frame = safe(csp?.frame_domains);
    const base = safe(csp?.base_uri_domains);
    const list = (items, fallback) => (items.length ? items.join(' ') : fallback);
    return [
        "default-src 'none'",
        `script-src 'self' 'unsafe-inline' ${resource.join(' ')}`.trim(),
        `style-src 'self' 'unsafe-inline' ${resource.join(' ')}`.trim(),
        `img-src 'self' data: blob: ${resource.join(' ')}`.trim(),
        `font-src 'self' data: ${resource.join(' ')}`.trim(),
        `media-src 'self' data: blob: ${resource.join(' ')}`.trim(),
        `connect-src ${list(connect, "'none'")}`,
        `frame-src ${list(frame, "'none'")}`,
        "object-src 'none'",
        `base-uri ${list(base, "'self'")}`
    ].join('; ');
}
/** Declared origins only: a token that could end the directive or add a keyword is dropped. */
function safe(items) {
    return (items ?? []).filter((d) => /^[a-z][a-z0-9+.-]*:\/\/[^\s;,']+$|^[a-z][a-z0-9+.-]*:$/i.test(d) || /^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(d));
}
function strings(value) {
    return Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
}
function objectAt(value, key) {
    if (!value || typeof value !== 'object')
        return null;
    const inner = value[key];
    return inner && typeof inner === 'object' && !Array.isArray(inner) ? inner : null;
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: ./node_modules/pngjs/lib/png.js
var lib_png = __webpack_require__(10359);
;// CONCATENATED MODULE: ./src/apps/screenshot.ts




/** A render's screenshot: whether it is one flat colour, where it is kept, its hash. */
/** Channels may differ this much from the first pixel and still count as the same colour (compression, dithering). */
const TOLERANCE = 2;
function flatness(png) {
    const image = lib_png/* PNG */.O.sync.read(png);
    const d = image.data;
    const [r, g, b, a] = [d[0], d[1], d[2], d[3]];
    let flat = true;
    for (let i = 4; i < d.length; i += 4) {
        if (Math.abs(d[i] - r) > TOLERANCE || Math.abs(d[i + 1] - g) > TOLERANCE || Math.abs(d[i + 2] - b) > TOLERANCE || Math.abs(d[i + 3] - a) > TOLERANCE) {
            flat = false;
            break;
        }
    }
    const hex = (n) => n.toString(16).padStart(2, '0');
    return { flat, colour: `#${hex(r)}${hex(g)}${hex(b)}${a === 255 ? '' : hex(a)}` };
}
/** `apps/<id>.png`: the id made safe as a file name (anything but letters, digits, `.`, `_`, `-` becomes `_`). */
function screenshotPath(id) {
    const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 200) || 'render';
    return `apps/${safe}.png`;
}
async function saveScreenshot(outputDir, id, png) {
    const path = screenshotPath(id);
    await (0,promises_.mkdir)((0,external_node_path_.join)(outputDir, 'apps'), { recursive: true });
    await (0,promises_.writeFile)((0,external_node_path_.join)(outputDir, path), png);
    return { path, sha256: (0,external_node_crypto_.createHash)('sha256').update(png).digest('hex') };
}

;// CONCATENATED MODULE: ./src/apps/host-page.ts
/**
 * The page the view is shown in: a host page on a fixed fake origin holding one sandboxed iframe
 * (`allow-scripts` only: an opaque origin, no access to the host page), and the scripts that relay
 * between them. The view posts to its parent; the host page hands the message to Node through an
 * exposed binding; Node answers through `frame.postMessage` (relay.ts). An init script, run in the
 * iframe before the view's own scripts and outside its CSP, reports CSP violations and turns
 * animations off.
 */
const HOST_ORIGIN = 'http://mcp-apps-host.invalid';
const HOST_URL = `${HOST_ORIGIN}/host.html`;
const VIEW_URL = `${HOST_ORIGIN}/view.html`;
/** Bindings exposed to the page and the frame. */
const TO_HOST_BINDING = '__mcpAppsToHost';
const CSP_BINDING = '__mcpAppsCspViolation';
/** The frame's minimum height: a view that reports a tiny height (or none) still photographs. */
const MIN_FRAME_HEIGHT = 300;
const MAX_FRAME_HEIGHT = 4000;
function hostPageHtml(allow) {
    const allowAttr = allow ? ` allow="${allow.replace(/[^a-z0-9 ;:'*._/-]/gi, '')}"` : '';
    return `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP Apps host</title>
<style>html,body{margin:0;padding:0;background:#fff}iframe{display:block;border:0;width:100%;height:${MIN_FRAME_HEIGHT}px}</style>
</head><body>
<iframe id="view" sandbox="allow-scripts"${allowAttr} src="${VIEW_URL}"></iframe>
<script>
const frame = document.getElementById('view');
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  window.${TO_HOST_BINDING}(event.data);
});
</script>
</body></html>`;
}
/** The init script: in the view's frame only (not the host page). */
const FRAME_INIT_SCRIPT = `(() => {
  if (window === window.top) return;
  document.addEventListener('securitypolicyviolation', (e) => {
    try { window.${CSP_BINDING}({ blockedURI: String(e.blockedURI || ''), directive: String(e.effectiveDirective || e.violatedDirective || '') }); } catch {}
  });
  const calm = () => {
    const style = document.createElement('style');
    style.textContent = '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important}';
    (document.head || document.documentElement).appendChild(style);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', calm); else calm();
})();`;
/** The frame's height for a size the view reported: at least the minimum, at most the maximum. */
function frameHeight(reported) {
    if (typeof reported !== 'number' || !Number.isFinite(reported))
        return MIN_FRAME_HEIGHT;
    return Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(reported)));
}

;// CONCATENATED MODULE: ./src/apps/view-page.ts




/**
 * One render's page: its own browser context (fixed viewport, light, reduced motion, no service
 * workers), the host page and the view routed on the fake origin (the view with its real CSP
 * header), and what the page reports: uncaught errors, console errors (the browser's CSP lines
 * apart), the URLs the CSP blocked, a crash.
 */
const VIEWPORT = { width: 800, height: 600 };
const MAX_LINES = 50;
const view_page_MAX_LINE = 500;
const CSP_CONSOLE = /Content Security Policy|Fetch API cannot load|Refused to (?:load|connect|frame|execute|apply|evaluate)/i;
async function openViewPage(browser, resource, secrets, deliver) {
    const context = await browser.newContext({
        viewport: VIEWPORT,
        deviceScaleFactor: 1,
        colorScheme: 'light',
        reducedMotion: 'reduce',
        locale: 'en-US',
        timezoneId: 'UTC',
        serviceWorkers: 'block',
        acceptDownloads: false
    });
    const reports = { page_errors: [], console_errors: [], csp_console: [], blocked: [], crashed: false };
    const keep = (list, text) => {
        if (list.length < MAX_LINES)
            list.push(view_page_cut((0,redact/* redactText */.Rd)(text, secrets)));
    };
    let height = frameHeight(undefined);
    let closed = false;
    try {
        const allow = (0,app_bridge/* buildAllowAttribute */.Sy)((resource.permissions ?? undefined));
        await context.route(`${HOST_ORIGIN}/**`, async (route) => {
            const url = route.request().url();
            if (url === HOST_URL)
                return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: hostPageHtml(allow) });
            if (url === VIEW_URL) {
                return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': cspHeaderOf(resource.csp), 'cache-control': 'no-store' }, body: resource.html });
            }
            return route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
        });
        // Bindings are visible in every frame: the relay is the host page's (the view posts to it), the CSP report the view frame's init script's.
        await context.exposeBinding(TO_HOST_BINDING, (source, message) => {
            if (source.frame.parentFrame() === null)
                deliver(message);
        });
        await context.exposeBinding(CSP_BINDING, (source, v) => {
            if (source.frame.url() !== VIEW_URL)
                return;
            const url = typeof v?.blockedURI === 'string' ? v.blockedURI : '';
            // The App SDK's zod probe reports `eval` on every load (no request): only URLs count.
            if (!/^[a-z][a-z0-9+.-]*:/i.test(url) || /^(?:eval|inline|data|blob):?$/i.test(url))
                return;
            if (reports.blocked.length < MAX_LINES)
                reports.blocked.push({ url: view_page_cut((0,redact/* redactText */.Rd)(url, secrets)), directive: view_page_cut(String(v.directive ?? ''), 100) });
        });
        await context.addInitScript({ content: FRAME_INIT_SCRIPT });
    }
    catch (error) {
        await context.close().catch(() => undefined);
        throw error;
    }
    const page = await context.newPage();
    page.on('pageerror', (error) => keep(reports.page_errors, error.stack?.split('\n').slice(0, 3).join(' ') || `${error.name}: ${error.message}`));
    page.on('console', (message) => {
        if (message.type() !== 'error')
            return;
        const text = message.text();
        keep(CSP_CONSOLE.test(text) ? reports.csp_console : reports.console_errors, text);
    });
    page.on('crash', () => {
        reports.crashed = true;
    });
    const frame = () => page.frames().find((f) => f.url() === VIEW_URL) ?? null;
    return {
        context,
        page,
        reports,
        frame,
        async post(message) {
            if (closed)
                return;
            await page.evaluate((m) => document.getElementById('view')?.contentWindow?.postMessage(m, '*'), message);
        },
        height: () => height,
        async resize(reported) {
            const next = frameHeight(reported);
            if (next === height || closed)
                return;
            height = next;
            await page.evaluate((h) => {
                const el = document.getElementById('view');
                if (el)
                    el.style.height = `${h}px`;
            }, next).catch(() => undefined);
        },
        async goto(timeoutMs) {
            await page.goto(HOST_URL, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
        },
        async close() {
            closed = true;
            await context.close().catch(() => undefined);
        }
    };
}
function view_page_cut(text, max = view_page_MAX_LINE) {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

;// CONCATENATED MODULE: ./src/apps/render.ts









/**
 * One render, start to end: read the view's resource, open its page, speak the protocol (the
 * bridge in Node, relayed to the frame), wait until it initialises and settles, act and assert
 * for an app test, take the screenshot, and judge what was seen. Never throws: what went wrong is
 * the render's status (`error`, `cancelled`) or its findings. The render's timeout bounds it all;
 * the view gets half of it to initialise, the rest is for settling, the actions and the screenshot.
 */
/** No message either way for this long (and no request unanswered): the view is settled. */
const QUIET_MS = 250;
const MAX_SETTLE_MS = 4000;
class RenderAborted extends Error {
}
async function renderView(browser, options, request) {
    const start = Date.now();
    const render = blankRender(request);
    // Everything kept passes through the redaction once more: the view's texts, the call's structuredContent in a fields assertion.
    const finish = (status, reason) => (0,redact/* redactDeep */.KL)({ ...render, status, reason, duration_ms: Date.now() - start }, options.secrets);
    if (request.signal.aborted)
        return finish('cancelled', 'the job was cancelled before the render');
    const uri = request.tool.ui?.resource_uri ?? null;
    if (!uri)
        return finish('error', `${request.tool.name} links no ui:// resource`);
    const deadline = start + Math.max(1000, options.renderTimeoutMs);
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop.abort(), deadline - Date.now());
    let view = null;
    try {
        const read = await abortable(request.session.readResource(uri, stop.signal), stop.signal);
        if (read.isError || !read.result)
            return finish('error', `resources/read ${uri} failed: ${read.text}`);
        const resource = viewResourceOf(uri, read.result);
        if ('error' in resource)
            return finish('error', resource.error);
        render.csp = resource.csp;
        render.permissions = resource.permissions;
        const log = { start, tool_calls: render.tool_calls, resource_reads: render.resource_reads, host_requests: render.host_requests };
        let page = null;
        const relay = new FrameRelay(async (m) => {
            if (page)
                await page.post(m);
        });
        let initialized = () => undefined;
        const initializedOnce = new Promise((resolve) => (initialized = resolve));
        const bridge = createBridge({
            request,
            resource,
            log,
            secrets: options.secrets,
            viewport: VIEWPORT,
            onSize: (h) => void page?.resize(h),
            onInitialized: () => {
                render.initialized_ms ??= Date.now() - start;
                initialized();
            }
        });
        await bridge.connect(relay);
        view = page = await abortable(openViewPage(browser, resource, options.secrets, (m) => relay.deliver(m)), stop.signal);
        stop.signal.addEventListener('abort', () => void view?.close(), { once: true });
        const initBudget = Math.max(500, Math.floor(options.renderTimeoutMs / 2));
        await abortable(page.goto(Math.max(500, start + initBudget - Date.now())), stop.signal);
        await waitFor(initializedOnce, start + initBudget - Date.now(), stop.signal);
        await settle(page, relay, render.initialized_ms !== null, deadline, stop.signal);
        if (request.test) {
            render.actions = await act(page, request.test.actions, deadline, stop.signal);
            await settle(page, relay, render.initialized_ms !== null, deadline, stop.signal);
        }
        let png = null;
        let screenshotError = null;
        try {
            png = await abortable(page.page.locator('#view').screenshot({ animations: 'disabled', timeout: Math.max(500, deadline - Date.now()) }), stop.signal);
        }
        catch (error) {
            if (stop.signal.aborted)
                throw error;
            screenshotError = messageOf(error);
        }
        if (png) {
            const saved = await saveScreenshot(options.outputDir, request.id, png);
            render.screenshot = saved.path;
            render.screenshot_sha256 = saved.sha256;
        }
        if (request.test)
            render.assertions = await assertions(page, request, png, options, stop.signal);
        if (page.reports.crashed)
            return finish('error', 'the browser page crashed while rendering the view');
        render.viewport = { width: VIEWPORT.width, height: page.height() };
        render.console_errors = [...page.reports.page_errors, ...page.reports.console_errors].slice(0, 50);
        render.blocked_requests = [...new Set(page.reports.blocked.map((b) => b.url))].slice(0, 50);
        render.findings = renderFindings({
            initialized_ms: render.initialized_ms,
            init_timeout_ms: initBudget,
            page_errors: page.reports.page_errors,
            console_errors: page.reports.console_errors,
            csp_console: page.reports.csp_console,
            blocked: page.reports.blocked,
            screenshot: png ? flatness(png) : null,
            screenshot_error: screenshotError,
            tool_calls: render.tool_calls,
            csp_declared: resource.csp !== null
        });
        await bridge.close().catch(() => undefined);
        return finish('rendered', null);
    }
    catch (error) {
        if (request.signal.aborted)
            return finish('cancelled', 'the job was cancelled during the render');
        if (stop.signal.aborted)
            return finish('error', `the render did not finish within its timeout (${options.renderTimeoutMs} ms)`);
        if (view?.reports.crashed)
            return finish('error', 'the browser page crashed while rendering the view');
        return finish('error', `the host could not render the view: ${messageOf(error)}`);
    }
    finally {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        await view?.close();
    }
}
function blankRender(request) {
    return (0,render_record/* emptyRender */.m)(request, 'error', null, VIEWPORT);
}
/** Until no request of the view is unanswered and nothing moved for QUIET_MS, then fonts and two frames. */
async function settle(page, relay, initialized, deadline, signal) {
    const until = Math.min(deadline - 500, Date.now() + MAX_SETTLE_MS);
    while (initialized && Date.now() < until) {
        if (signal.aborted)
            throw new RenderAborted('aborted');
        if (relay.pendingRequests === 0 && Date.now() - relay.lastTraffic >= QUIET_MS)
            break;
        await render_sleep(50);
    }
    const frame = page.frame();
    if (!frame)
        return;
    await abortable(frame
        .evaluate(async () => {
        await Promise.race([document.fonts.ready, new Promise((r) => setTimeout(r, 1000))]);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    })
        .catch(() => undefined), signal);
}
async function act(page, actions, deadline, signal) {
    const records = [];
    let failed = false;
    for (const action of actions) {
        const record = { action: action.action, selector: action.selector, ...(action.action === 'fill' ? { value: action.value } : {}), passed: false, error: null };
        records.push(record);
        if (failed) {
            record.error = 'not done: an earlier action failed';
            continue;
        }
        const timeout = Math.max(200, deadline - Date.now() - 1000);
        const target = page.page.frameLocator('#view').locator(action.selector).first();
        try {
            if (action.action === 'click')
                await abortable(target.click({ timeout }), signal);
            else
                await abortable(target.fill(action.value, { timeout }), signal);
            record.passed = true;
        }
        catch (error) {
            if (signal.aborted)
                throw error;
            failed = true;
            record.error = /Timeout/i.test(messageOf(error)) ? `no element matched ${action.selector} within ${timeout} ms` : messageOf(error).split('\n')[0];
        }
    }
    return records;
}
async function assertions(page, request, png, options, signal) {
    const test = request.test;
    if (!test)
        return [];
    const selectors = test.selector.map((s) => s.selector);
    const frame = page.frame();
    const seen = frame
        ? await abortable(frame.evaluate((sels) => {
            const texts = {};
            for (const s of sels) {
                try {
                    texts[s] = Array.from(document.querySelectorAll(s)).map((e) => e.innerText ?? e.textContent ?? '');
                }
                catch {
                    texts[s] = [];
                }
            }
            return { text: document.body?.innerText ?? '', selectors: texts };
        }, selectors), signal)
        : { text: '', selectors: {} };
    const redacted = { text: (0,redact/* redactText */.Rd)(seen.text, options.secrets), selectors: Object.fromEntries(Object.entries(seen.selectors).map(([k, v]) => [k, v.map((t) => (0,redact/* redactText */.Rd)(t, options.secrets))])) };
    const checks = [...textAssertions(test, redacted), ...selectorAssertions(test, redacted), ...fieldAssertions(test, request.result)];
    const judged = await judgeAssertion(test, png, options.judge, `the view of ${request.tool.name} (${request.tool.ui?.resource_uri ?? ''})`, signal);
    if (judged)
        checks.push(judged);
    return checks;
}
/** Resolves true when `promise` did not settle within `ms` (it is left running), false when it did; rejects on abort. */
async function waitFor(promise, ms, signal) {
    let timer;
    const timedOut = new Promise((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, ms))));
    try {
        return await abortable(Promise.race([promise.then(() => false), timedOut]), signal);
    }
    finally {
        clearTimeout(timer);
    }
}
function abortable(promise, signal) {
    if (signal.aborted) {
        promise.catch(() => undefined);
        return Promise.reject(new RenderAborted('aborted'));
    }
    return new Promise((resolve, reject) => {
        const onAbort = () => reject(new RenderAborted('aborted'));
        signal.addEventListener('abort', onAbort, { once: true });
        promise.then((v) => {
            signal.removeEventListener('abort', onAbort);
            resolve(v);
        }, (e) => {
            signal.removeEventListener('abort', onAbort);
            reject(e);
        });
    });
}
function messageOf(error) {
    return error instanceof Error ? error.message : String(error);
}
function render_sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

;// CONCATENATED MODULE: ./src/apps/host.ts





/**
 * The MCP Apps host of one job: finds the browser (no browser: why, and how to get one), launches
 * it once, renders at most `concurrency` views at once (one context each), and closes it with its
 * process tree. A render never throws; a render asked after close is an `error`.
 */
async function openAppHost(options, launch = launchBrowser) {
    const found = findBrowser({ chromePath: options.chromePath, env: options.env });
    if (!found.choice)
        return { host: null, reason: found.reason };
    const choice = found.choice;
    let launched;
    try {
        launched = await launch(choice.path);
    }
    catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        const from = choice.source === 'input' ? 'chrome_path / --chrome-path' : choice.source === 'env' ? 'CHROME_PATH' : 'the browser found';
        return { host: null, reason: `${from} ${choice.path} could not be launched (${message}); the app layer was skipped` };
    }
    const pool = (0,util_pool/* createPool */.b)(Math.max(1, Math.floor(options.concurrency) || 1));
    let closed = false;
    const inFlight = new Set();
    const host = {
        browser: { path: choice.path, version: launched.version, source: choice.source },
        async render(request) {
            return pool.run(async () => {
                const own = new AbortController();
                const onAbort = () => own.abort();
                request.signal.addEventListener('abort', onAbort, { once: true });
                if (request.signal.aborted)
                    own.abort();
                inFlight.add(own);
                try {
                    if (closed)
                        return closedRender(request);
                    const render = await renderView(launched.browser, options, { ...request, signal: own.signal });
                    // Closed under it: the job is ending, which is a cancel for the render.
                    return closed && render.status === 'error' ? { ...render, status: 'cancelled', reason: 'the host closed during the render' } : render;
                }
                finally {
                    inFlight.delete(own);
                    request.signal.removeEventListener('abort', onAbort);
                }
            });
        },
        async close() {
            closed = true;
            for (const c of inFlight)
                c.abort();
            await launched.close();
        }
    };
    return { host };
}
function closedRender(request) {
    return (0,render_record/* emptyRender */.m)(request, 'cancelled', 'the browser host was closed before the render', { width: 800, height: 600 });
}


/***/ })

};
