/*
 * kwgen playground - the page at GET / of kwgend.
 *
 * Plain script, no build step, no third-party code.  Talks only to the
 * daemon that served it: GET /v1/isas, GET /v1/generators, POST
 * /v1/kernels:batch (one request per chosen ISA plus, for the picture, the
 * same kernel with SourceSwap flipped).  The request lives in the URL
 * fragment (#r=<base64url JSON>) so a link reproduces the page.
 */
'use strict';

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

const state = {
	isas: [],          // GET /v1/isas
	generators: [],    // GET /v1/generators
	examples: [],      // /ui/examples.json
	last: null,        // {base, isas, answers, picture}
};

/* ---------------------------------------------------------------- HTTP */

function token() {
	return sessionStorage.getItem('kwgen-token') || '';
}

class HttpError extends Error {
	constructor(status, body) {
		const e = body && body.error;
		super(e ? `${status} ${e.code}: ${e.message}${e.field ? ' (field ' + e.field + ')' : ''}`
			: `HTTP ${status}`);
		this.status = status;
		this.body = body;
	}
}

/* GET path, or POST body: JSON.stringify(body), or the text body as is
 * when contentType is given. */
async function api(path, body, contentType) {
	const headers = {};
	if (token())
		headers['Authorization'] = 'Bearer ' + token();
	const init = { headers };
	if (body !== undefined) {
		init.method = 'POST';
		headers['Content-Type'] = contentType || 'application/json';
		init.body = contentType ? body : JSON.stringify(body);
	}
	const resp = await fetch(path, init);
	let data = null;
	try {
		data = await resp.json();
	} catch (e) {
		data = null;
	}
	if (resp.status === 401) {
		showAuth(token() ? 'That token was refused; try another.' : null);
		throw new HttpError(401, data);
	}
	if (!resp.ok)
		throw new HttpError(resp.status, data);
	return data;
}

function showAuth(msg) {
	$('auth').hidden = false;
	if (msg)
		$('auth-msg').textContent = msg;
	$('token').focus();
}

/* ------------------------------------------------------- the solution text */

/*
 * Text of the solution box -> {base request (no isa), isa hint, note}.
 * A JSON kwgen request (an object with "kernel") is used as it is.  Anything
 * else - the YAML of one solution copied from a logic file, or a solution
 * dict as JSON (JSON is YAML) - is read by the daemon: POST /v1/kernels
 * with Content-Type: application/yaml and ?derive=only answers the request
 * `kwgen logic` would make of it (Tensile defaults, tPA/tPB/states derived),
 * so every generator, wait included, runs on a pasted solution.  The page
 * parses no YAML itself.
 */
function kwgenRequest(text) {
	if (!text.trim())
		throw new Error('The solution box is empty: pick an example or paste a solution.');
	if (text.trim()[0] !== '{')
		return null;
	let obj;
	try {
		obj = JSON.parse(text);
	} catch (e) {
		throw new Error('JSON: ' + e.message);
	}
	if (!obj || typeof obj !== 'object' || !obj.kernel || typeof obj.kernel !== 'object')
		return null; /* a solution dict: the daemon derives it */
	const base = {};
	for (const k of ['wavefront', 'kernel', 'tPA', 'tPB', 'states', 'asmCaps', 'archCaps',
		'vgprIdx', 'vgprMsb', 'fillDefaults', 'source'])
		if (obj[k] !== undefined)
			base[k] = obj[k];
	return { base, isa: obj.isa, note: 'JSON kwgen request' };
}

const derived = { text: null, sol: null }; /* the last solution the daemon derived */

async function readSolution(text) {
	const req = kwgenRequest(text);
	if (req)
		return req;
	if (derived.text === text)
		return derived.sol;
	let r;
	try {
		r = await api('/v1/kernels?derive=only', text, 'application/yaml');
	} catch (e) {
		if (e.status === 401)
			throw e;
		const m = e.body && e.body.error ? e.body.error.message + (e.body.error.field ? ` (field ${e.body.error.field})` : '') : e.message;
		throw new Error(`${text.trim()[0] === '{' ? 'JSON' : 'YAML'} solution: ${m}`);
	}
	const base = {};
	for (const k of ['kernel', 'tPA', 'tPB', 'states', 'source'])
		if (r[k] !== undefined)
			base[k] = r[k];
	const sol = {
		base, isa: r.isa,
		note: `${text.trim()[0] === '{' ? 'JSON' : 'YAML'} Tensile solution, derived by the daemon as ` +
			'`kwgen logic` derives it (Tensile defaults; tPA/tPB/states, so wait runs too)',
	};
	derived.text = text;
	derived.sol = sol;
	return sol;
}

/* ISA hint ("gfx942", [9,4,2]) -> ISA name, or null. */
function isaName(hint) {
	if (typeof hint === 'string')
		return state.isas.some((i) => i.name === hint) ? hint : null;
	if (Array.isArray(hint)) {
		const f = state.isas.find((i) => i.isa.join(',') === hint.join(','));
		return f ? f.name : null;
	}
	return null;
}

/* -------------------------------------------------------------- the form */

function chosenIsas() {
	return [...document.querySelectorAll('#isas input:checked')].map((x) => x.value);
}

/* The generator checkbox and argument inputs, found by comparing their
 * data attributes as strings: names (from the daemon or from a shared link)
 * are data, never part of a CSS selector. */
function genBox(name) {
	return [...document.querySelectorAll('#generators input[data-gen]')].find((x) => x.dataset.gen === name) || null;
}

function genArgEl(name, arg) {
	const want = `${name}.${arg}`;
	return [...document.querySelectorAll('#generators [data-gen-arg]')].find((x) => x.dataset.genArg === want) || null;
}

function chosenGenerators() {
	const out = [];
	for (const g of state.generators) {
		const box = genBox(g.name);
		if (!box || !box.checked)
			continue;
		const args = {};
		for (const a of g.args) {
			const el = genArgEl(g.name, a.name);
			if (!el)
				continue;
			if (a.type === 'boolean') {
				if (el.checked !== Boolean(a.default))
					args[a.name] = el.checked;
				continue;
			}
			const v = el.value.trim();
			if (v === '') {
				if (a.required)
					throw new Error(`${g.name}: ${a.name} is required`);
				continue;
			}
			if (a.type === 'string')
				args[a.name] = el.value;
			else if (a.type.startsWith('array'))
				args[a.name] = parseJsonArg(v, `${g.name}.${a.name}`);
			else
				args[a.name] = parseIntArg(v, `${g.name}.${a.name}`);
		}
		out.push({ name: g.name, args });
	}
	return out;
}

function parseIntArg(v, what) {
	if (!/^-?\d+$/.test(v))
		throw new Error(`${what} takes an integer, not "${v}"`);
	return parseInt(v, 10);
}

function parseJsonArg(v, what) {
	try {
		return JSON.parse(v);
	} catch (e) {
		throw new Error(`${what} takes JSON (e.g. [1, 2] or null): ${e.message}`);
	}
}

/* The whole page state as one object (the shared URL, the curl command). */
async function formState() {
	const sol = await readSolution($('solution').value);
	const isas = chosenIsas();
	if (!isas.length)
		throw new Error('Tick at least one ISA.');
	const base = Object.assign({}, sol.base);
	const gens = chosenGenerators();
	if (gens.length)
		base.generators = gens;
	if ($('opt-nocomment').checked)
		base.outputNoComment = true;
	const h = $('opt-holder').value.trim();
	if (h !== '')
		base.replaceHolder = parseIntArg(h, 'replaceHolder');
	return { sol, isas, base };
}

function requestsOf(fs) {
	return fs.isas.map((isa) => Object.assign({ isa }, fs.base));
}

/* ------------------------------------------------------- share and curl */

function b64urlEncode(str) {
	const bytes = new TextEncoder().encode(str);
	let bin = '';
	for (const b of bytes)
		bin += String.fromCharCode(b);
	return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function b64urlDecode(s) {
	const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
	return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

function fragmentOf() {
	const share = {
		v: 1,
		isas: chosenIsas(),
		solution: $('solution').value,
		example: $('example').value,
		generators: chosenGenerators(),
		outputNoComment: $('opt-nocomment').checked,
		replaceHolder: $('opt-holder').value.trim(),
		flip: $('flip').checked,
		colourBy: $('colour-by').value,
	};
	return '#r=' + b64urlEncode(JSON.stringify(share));
}

/* The share link's fields are data from anywhere: each is used only if it
 * has the expected type, and only compared or assigned, never made into
 * code or a selector. */
function restoreFragment() {
	const m = location.hash.match(/^#r=([A-Za-z0-9_-]+)$/);
	if (!m)
		return false;
	let share;
	try {
		share = JSON.parse(b64urlDecode(m[1]));
	} catch (e) {
		setStatus('error', 'The link\'s #r= part does not decode: ' + e.message);
		return false;
	}
	if (!share || typeof share !== 'object' || Array.isArray(share)) {
		setStatus('error', 'The link\'s #r= part is not a page state (a JSON object).');
		return false;
	}
	const str = (v) => (typeof v === 'string' ? v : '');
	const list = (v) => (Array.isArray(v) ? v : []);
	$('solution').value = str(share.solution);
	const ex = str(share.example);
	$('example').value = /^\d+$/.test(ex) && Number(ex) < state.examples.length ? ex : '';
	showExampleSource();
	const isas = list(share.isas).filter((x) => typeof x === 'string');
	for (const box of document.querySelectorAll('#isas input'))
		box.checked = isas.includes(box.value);
	const gens = list(share.generators).filter((x) => x && typeof x === 'object' && typeof x.name === 'string');
	for (const box of document.querySelectorAll('#generators input[data-gen]')) {
		const g = gens.find((x) => x.name === box.dataset.gen);
		box.checked = Boolean(g);
		if (!g || !g.args || typeof g.args !== 'object')
			continue;
		for (const [k, v] of Object.entries(g.args)) {
			const el = genArgEl(g.name, k);
			if (!el)
				continue;
			if (el.type === 'checkbox')
				el.checked = Boolean(v);
			else
				el.value = typeof v === 'string' ? v : JSON.stringify(v);
		}
	}
	$('opt-nocomment').checked = share.outputNoComment === true;
	$('opt-holder').value = str(share.replaceHolder);
	$('flip').checked = share.flip === true;
	if ([...$('colour-by').options].some((o) => o.value === share.colourBy))
		$('colour-by').value = share.colourBy;
	return true;
}

async function curlCommand() {
	const fs = await formState();
	const reqs = requestsOf(fs);
	const one = reqs.length === 1;
	const url = location.origin + (one ? '/v1/kernels' : '/v1/kernels:batch');
	const body = JSON.stringify(one ? reqs[0] : { requests: reqs });
	const auth = token() ? ` -H "Authorization: Bearer $KWGEN_TOKEN"` : '';
	return `curl -s -H 'Content-Type: application/json'${auth} --data @- ${url} <<'EOF'\n${body}\nEOF`;
}

async function copyText(text, what) {
	try {
		await navigator.clipboard.writeText(text);
		$('copy-status').textContent = `${what} copied.`;
	} catch (e) {
		$('copy-status').textContent = `${what}: the clipboard is not available here; copy it from the box below.`;
	}
}

/* ----------------------------------------------------------- generating */

function setStatus(kind, text) {
	const el = $('status');
	el.className = 'panel ' + kind;
	el.textContent = text;
}

let runs = 0; /* the latest run draws; an older one finishing late is dropped */

async function run() {
	const me = ++runs;
	let fs;
	try {
		fs = await formState();
		if (me !== runs)
			return;
		$('parse-status').textContent = 'Read as ' + fs.sol.note;
		$('parse-status').className = 'hint ok';
	} catch (e) {
		$('parse-status').textContent = e.message;
		$('parse-status').className = 'hint bad';
		setStatus('error', e.message);
		return;
	}
	history.replaceState(null, '', fragmentOf());
	$('curl-text').textContent = await curlCommand();
	const reqs = requestsOf(fs);
	/* The picture: accToArchMapper on every ISA, as given and with
	 * SourceSwap flipped (MFMA/WMMA kernels only); one drawing per
	 * distinct map. */
	const k = fs.base.kernel || {};
	const mfma = k.EnableMatrixInstruction !== false && k.EnableMatrixInstruction !== 0 &&
		k.MatrixInstM !== undefined;
	const swap = Number(Boolean(k.SourceSwap));
	const picReqs = [];
	if (mfma)
		for (const isa of fs.isas) {
			const given = Object.assign({}, fs.base, { isa });
			delete given.replaceHolder;
			delete given.outputNoComment;
			given.generators = [{ name: 'accToArchMapper', args: {} }];
			picReqs.push(given, Object.assign({}, given, { kernel: Object.assign({}, k, { SourceSwap: swap ? 0 : 1 }) }));
		}
	const all = reqs.concat(picReqs);
	setStatus('busy', `Generating for ${fs.isas.join(', ')} …`);
	let answer;
	try {
		answer = await api('/v1/kernels:batch', { requests: all });
	} catch (e) {
		if (me === runs)
			setStatus('error', e.message);
		return;
	}
	if (me !== runs)
		return;
	const items = answer.results;
	const answers = items.slice(0, reqs.length);
	const ok = answers.filter((a) => a.status === 200).length;
	const first = answers.find((a) => a.status === 200);
	let text = `${ok} of ${answers.length} ISAs answered`;
	if (first) {
		const r = first.response;
		text += ` · generator ${r.generator_version} · key ${r.key.slice(0, 16)}… (${r.cached ? 'from the cache' : 'generated'})`;
		if (r.source)
			text += ' · source ' + sourceText(r.source);
	}
	setStatus(ok === answers.length ? 'ok' : 'error', text);
	state.last = {
		base: fs.base, isas: fs.isas, answers, kernel: k,
		picture: mfma ? {
			swap,
			perIsa: fs.isas.map((isa, i) => ({ isa, given: items[reqs.length + 2 * i], flipped: items[reqs.length + 2 * i + 1] })),
		} : null,
	};
	renderAsm();
	renderPicture();
}

/* The "source" of an answer: "FILE#index" or {file, SolutionIndex, SolutionNameMin, ...}. */
function sourceText(src) {
	if (typeof src === 'string')
		return src;
	const parts = [];
	if (src.file)
		parts.push(src.file + (src.SolutionIndex !== undefined ? '#' + src.SolutionIndex : ''));
	else if (src.SolutionIndex !== undefined)
		parts.push('solution ' + src.SolutionIndex);
	for (const [k, v] of Object.entries(src))
		if (k !== 'file' && k !== 'SolutionIndex')
			parts.push(`${k} ${v}`);
	return parts.join(' · ');
}

/* ------------------------------------------------------------ assembly */

function resultKey(r) {
	return r.name + JSON.stringify(r.args || {});
}

/* Lines of one result a diagnostic points at (the messages name the
 * mnemonic, the counter or the register; see lib/include/kwgen/diag.h). */
function diagLines(lines, d) {
	const hit = new Set();
	const mark = (pred) => lines.forEach((l, i) => {
		if (pred(l))
			hit.add(i);
	});
	const mn = (l) => l.trim().split(/\s+/)[0];
	let m;
	if (d.code === 'instruction_not_on_isa' && (m = d.message.match(/^(\S+) does not exist/))) {
		mark((l) => mn(l) === m[1]);
	} else if ((d.code === 'count_clamped' || d.code === 'count_out_of_range') &&
		(m = d.message.match(/^(\w+) /))) {
		const c = m[1];
		mark((l) => l.includes(c + '(') || l.includes(c + ' '));
	} else if (d.code === 'agpr_spill') {
		mark((l) => mn(l) && !mn(l).startsWith('v_accvgpr') && !mn(l).startsWith('//'));
	} else if (d.code === 'register_out_of_range' || d.code === 'vgpr_pair_misaligned') {
		const toks = d.message.match(/v\[[^\]]+\]|\bacc\d+\b|\bv\d+\b/g) || [];
		mark((l) => toks.some((t) => (/^v\[/.test(t) ? l.includes(t) : new RegExp('\\b' + t.replace(/[[\]+]/g, '\\$&') + '\\b').test(l))));
	}
	return hit;
}

/* Longest common subsequence of two line arrays -> matched index sets. */
function lcsMatch(a, b) {
	const ma = new Set();
	const mb = new Set();
	if (a.length * b.length > 4000000) { /* positional for huge outputs */
		for (let i = 0; i < Math.min(a.length, b.length); i++)
			if (a[i] === b[i]) {
				ma.add(i);
				mb.add(i);
			}
		return [ma, mb];
	}
	const n = a.length;
	const m = b.length;
	const dp = new Array(n + 1);
	for (let i = 0; i <= n; i++)
		dp[i] = new Uint32Array(m + 1);
	for (let i = n - 1; i >= 0; i--)
		for (let j = m - 1; j >= 0; j--)
			dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
	let i = 0;
	let j = 0;
	while (i < n && j < m) {
		if (a[i] === b[j]) {
			ma.add(i++);
			mb.add(j++);
		} else if (dp[i + 1][j] >= dp[i][j + 1]) {
			i++;
		} else {
			j++;
		}
	}
	return [ma, mb];
}

function el(tag, cls, text) {
	const e = document.createElement(tag);
	if (cls)
		e.className = cls;
	if (text !== undefined)
		e.textContent = text;
	return e;
}

function splitLines(asm) {
	const l = asm.split('\n');
	if (l.length && l[l.length - 1] === '')
		l.pop();
	return l;
}

function valueText(r) {
	if (r.acc2arch)
		return `acc2arch (${r.acc2arch.length}): [${r.acc2arch.join(', ')}]\narch2acc (${r.arch2acc.length}): [${r.arch2acc.join(', ')}]`;
	return `value: ${JSON.stringify(r.value)}`;
}

function renderAsm() {
	const { answers, isas } = state.last;
	const table = $('asm-table');
	table.textContent = '';
	$('asm').hidden = false;
	const grid = el('div', 'asm-grid');
	grid.style.gridTemplateColumns = `repeat(${isas.length}, minmax(22em, 1fr))`;
	isas.forEach((isa, c) => {
		const h = el('div', 'asm-head', isa);
		h.dataset.isa = isa;
		const a = answers[c];
		if (a.status !== 200) {
			h.appendChild(el('div', 'err', a.error ? `${a.status} ${a.error.code}: ${a.error.message}` : `HTTP ${a.status}`));
		}
		grid.appendChild(h);
	});
	/* rows: every distinct (generator, args), in order of appearance */
	const rows = [];
	const seen = new Map();
	answers.forEach((a) => {
		if (a.status !== 200)
			return;
		for (const r of a.response.results) {
			const key = resultKey(r);
			if (!seen.has(key)) {
				seen.set(key, rows.length);
				rows.push({ name: r.name, args: r.args || {} });
			}
		}
	});
	const refCol = answers.findIndex((a) => a.status === 200);
	rows.forEach((row) => {
		const title = el('div', 'asm-row-title', `${row.name}(${Object.entries(row.args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')})`);
		grid.appendChild(title);
		const perCol = answers.map((a) => (a.status === 200 ? a.response.results.find((r) => resultKey(r) === resultKey(row)) : null));
		const refLines = perCol[refCol] && perCol[refCol].asm !== null ? splitLines(perCol[refCol].asm) : null;
		const refText = perCol[refCol] && perCol[refCol].asm === null ? valueText(perCol[refCol]) : null;
		perCol.forEach((r, c) => {
			const cell = el('div', 'asm-cell');
			cell.dataset.isa = isas[c];
			cell.dataset.gen = row.name;
			if (!r) {
				cell.appendChild(el('div', 'hint', answers[c].status === 200 ? 'not produced for this ISA' : '—'));
				grid.appendChild(cell);
				return;
			}
			for (const d of r.diagnostics || []) {
				const b = el('div', 'diag-banner', `⚠ ${d.code}: ${d.message}`);
				b.dataset.code = d.code;
				cell.appendChild(b);
			}
			const pre = el('pre', 'code');
			if (r.asm === null) {
				const t = valueText(r);
				pre.textContent = t;
				if (c !== refCol && refText !== null && t !== refText)
					pre.classList.add('diff');
				cell.appendChild(pre);
				grid.appendChild(cell);
				return;
			}
			const lines = splitLines(r.asm);
			const marks = new Map();
			for (const d of r.diagnostics || [])
				for (const i of diagLines(lines, d))
					marks.set(i, (marks.has(i) ? marks.get(i) + '\n' : '') + `${d.code}: ${d.message}`);
			let differs = new Set();
			if (refLines && c !== refCol) {
				const [, mb] = lcsMatch(refLines, lines);
				lines.forEach((_, i) => {
					if (!mb.has(i))
						differs.add(i);
				});
			} else if (refLines && c === refCol) {
				perCol.forEach((o, oc) => {
					if (oc === refCol || !o || o.asm === null)
						return;
					const [ma] = lcsMatch(refLines, splitLines(o.asm));
					refLines.forEach((_, i) => {
						if (!ma.has(i))
							differs.add(i);
					});
				});
			}
			lines.forEach((text, i) => {
				const ln = el('div', 'ln');
				ln.appendChild(el('span', 'no', String(i + 1)));
				ln.appendChild(el('span', 'tx', text));
				if (differs.has(i))
					ln.classList.add('diff');
				if (marks.has(i)) {
					ln.classList.add('diag');
					ln.title = marks.get(i);
				}
				pre.appendChild(ln);
			});
			const n = differs.size;
			if (c !== refCol && refLines)
				cell.appendChild(el('div', 'hint diffcount', n ? `${n} ${n > 1 ? 'lines differ' : 'line differs'} from ${isas[refCol]}` : `same as ${isas[refCol]}`));
			else if (refLines && isas.length > 1)
				cell.appendChild(el('div', 'hint diffcount', n ? `${n} ${n > 1 ? 'lines' : 'line'} not in every other ISA` : 'the reference of the diff'));
			cell.appendChild(pre);
			grid.appendChild(cell);
		});
	});
	table.appendChild(grid);
}

/* -------------------------------------------------------------- picture */

/* _getAccToArchInfo of the seed (KernelWriterModules.py). */
function accInfo(k) {
	const M = k.MatrixInstM;
	const N = k.MatrixInstN;
	const BM0 = k.MatrixInstBM === undefined ? 1 : k.MatrixInstBM;
	const BN0 = k.MatrixInstBN === undefined ? 1 : k.MatrixInstBN;
	const mM = M === 4 ? M * BM0 : M;
	const mN = N === 4 ? N * BN0 : N;
	const BM = M === 4 ? 1 : BM0;
	const BN = N === 4 ? 1 : BN0;
	const wave = k.WavefrontSize || 64;
	const OPM = Math.floor(mM * mN / wave);
	const VW0 = k.VectorWidthA === undefined ? 1 : k.VectorWidthA;
	const VW1 = k.VectorWidthB === undefined ? 1 : k.VectorWidthB;
	const tile = k.MIWaveTile || [1, 1];
	const TT0 = Math.floor(tile[0] / VW0);
	const TT1 = Math.floor(tile[1] / VW1);
	return { BM, BN, OPM, VW0, VW1, TT0, TT1, len: TT1 * TT0 * BN * BM * OPM * VW0 * VW1 };
}

/* An accumulator index -> the loop indices of accToArchMapper that wrote it. */
function accParts(src, f, swap) {
	const take = (n) => {
		const v = src % n;
		src = Math.floor(src / n);
		return v;
	};
	const p = {};
	p.tIdx = take(f.OPM);
	if (swap) {
		p.bIdx0 = take(f.BM);
		p.bIdx1 = take(f.BN);
	} else {
		p.bIdx1 = take(f.BN);
		p.bIdx0 = take(f.BM);
	}
	p.vw0 = take(f.VW0);
	p.wgIdx0 = take(f.TT0);
	p.vw1 = take(f.VW1);
	p.wgIdx1 = src;
	/* one MFMA instruction writes OPM*BM*BN consecutive accumulators */
	p.mfma = p.vw0 + f.VW0 * (p.wgIdx0 + f.TT0 * (p.vw1 + f.VW1 * p.wgIdx1));
	p.block = swap ? p.bIdx0 + f.BM * p.bIdx1 : p.bIdx1 + f.BN * p.bIdx0;
	p.lane = p.vw0 + f.VW0 * p.vw1;
	return p;
}

function hsl(h, s, l) {
	return `hsl(${Math.round(h % 360)}, ${Math.round(s)}%, ${Math.round(l)}%)`;
}

/* Fill of a cell: hue from the chosen grouping, lightness from the output
 * index inside it, so the two read together. */
function cellColour(p, f, by) {
	const golden = 137.508;
	const frac = f.OPM > 1 ? p.tIdx / (f.OPM - 1) : 0;
	if (by === 'output')
		return hsl((p.tIdx + f.OPM * p.block) * golden, 70, 70);
	if (by === 'lane')
		return hsl(p.lane * golden + 20, 65, 82 - 22 * frac);
	return hsl(p.mfma * golden + 200, 60, 84 - 26 * frac);
}

/* The ISAs of a picture, grouped by the map they answer: [{isas, item}],
 * in ISA order; an ISA whose accToArchMapper failed is a group of its own
 * (with the error).  item: the batch item of the first ISA of the group. */
function pictureGroups(perIsa, flip) {
	const groups = [];
	const byKey = new Map();
	for (const p of perIsa) {
		const item = flip ? p.flipped : p.given;
		const res = item && item.status === 200 ? item.response.results[0] : null;
		const key = res && res.acc2arch ? JSON.stringify(res.acc2arch) + JSON.stringify(res.arch2acc)
			: `error ${p.isa}`;
		if (byKey.has(key)) {
			byKey.get(key).isas.push(p.isa);
			continue;
		}
		const g = { isas: [p.isa], item };
		byKey.set(key, g);
		groups.push(g);
	}
	return groups;
}

function plural(n, one, many) {
	return `${n} ${n === 1 ? one : (many || one + 's')}`;
}

/* The legend of one map, from the kernel's own keys: how many instructions
 * write how many accumulators, how 4-wide instructions fold their blocks,
 * and what the rows of the grids are made of. */
function pictureLegend(k, f, swap, d0, by, isa) {
	const inst = /^gfx1[12]/.test(isa) ? 'WMMA' : 'MFMA';
	const M = k.MatrixInstM;
	const N = k.MatrixInstN;
	const BM0 = k.MatrixInstBM === undefined ? 1 : k.MatrixInstBM;
	const BN0 = k.MatrixInstBN === undefined ? 1 : k.MatrixInstBN;
	const wave = k.WavefrontSize || 64;
	const tile = k.MIWaveTile || [1, 1];
	const nInst = f.VW0 * f.TT0 * f.VW1 * f.TT1;
	const perInst = f.OPM * f.BM * f.BN;
	let blocks;
	if (M === 4 || N === 4)
		blocks = `MatrixInst ${M}x${N} with ${plural(BM0 * BN0, 'block')} (MatrixInstBM ${BM0}, MatrixInstBN ${BN0}): ` +
			`a 4-wide instruction computes its blocks as one ${M === 4 ? M * BM0 : M}x${N === 4 ? N * BN0 : N} tile, ` +
			`${plural(f.OPM, 'output')} per lane`;
	else
		blocks = `MatrixInst ${M}x${N} with ${f.BM}x${f.BN} blocks (MatrixInstBM ${BM0}, MatrixInstBN ${BN0}), ` +
			`${plural(f.OPM, 'output')} per lane and block`;
	const rows = [`VectorWidthA ${f.VW0}`,
		M === 4 ? `1 block along M (the ${BM0} are inside the instruction's tile)` : `${plural(f.BM, 'block')} along M`,
		`MIWaveTile[0]/VectorWidthA ${f.TT0}`];
	if (!swap)
		rows.splice(1, 0, `${plural(f.OPM, 'output')} per lane`);
	const hue = by === 'mfma' ? `one hue per ${inst} instruction` :
		by === 'lane' ? `one hue per vector-width lane (${f.VW0 * f.VW1})` : `one hue per output of an instruction (${perInst})`;
	return `${f.len} registers = ${plural(nInst, inst + ' instruction')} (MIWaveTile ${tile.join('x')}) × ` +
		`${plural(perInst, 'accumulator')} each. ${blocks}; VectorWidth ${f.VW0}/${f.VW1}, wavefront ${wave}. ` +
		`Columns of ${d0} = ${rows.join(' × ')} (SourceSwap ${swap}). ${hue[0].toUpperCase() + hue.slice(1)}` +
		(by === 'output' ? '.' : `; lighter = earlier of the ${plural(f.OPM, 'output')} of one block.`);
}

function renderPicture() {
	const sec = $('picture');
	const pic = state.last.picture;
	if (!pic) {
		sec.hidden = true;
		return;
	}
	sec.hidden = false;
	const flip = $('flip').checked;
	const swap = flip ? 1 - pic.swap : pic.swap;
	$('flip-label').textContent = `flip SourceSwap (given: ${pic.swap}; showing ${swap})`;
	const groups = pictureGroups(pic.perIsa, flip);
	const maps = groups.filter((g) => g.item && g.item.status === 200).length;
	$('pic-isa').textContent = (groups.length === 1 ? groups[0].isas.join(', ') :
		`${plural(maps, 'map')} for ${plural(pic.perIsa.length, 'ISA')}`) + ` · SourceSwap ${swap}`;
	const box = $('pic-svg');
	box.textContent = '';
	$('pic-info').textContent = '';
	$('pic-legend').textContent = groups.length > 1 && maps === 1 ? '' :
		groups.length > 1 ? 'The ISAs answer different maps: one drawing per map.' : '';
	groups.forEach((g, gi) => {
		const one = el('div', 'pic-one');
		one.dataset.isas = g.isas.join(',');
		if (groups.length > 1 || g.isas.length > 1)
			one.appendChild(el('h3', 'pic-head', g.isas.length > 1 ? `${g.isas.join(', ')}: the same map` : g.isas[0]));
		box.appendChild(one);
		const item = g.item;
		if (!item || item.status !== 200) {
			one.appendChild(el('p', 'err', `accToArchMapper on ${g.isas.join(', ')}: ${item ? item.status : '—'} ` +
				(item && item.error ? item.error.code + ': ' + item.error.message : '')));
			return;
		}
		drawMap(one, item.response.results[0], swap, g.isas[0], gi);
	});
}

/* One map: the thread's C tile in arch VGPRs and the accumulators in order,
 * both column-major with the same d0 rows, labelled alike; the same place
 * in the two grids is the same index i (arch VGPR i above, acc i below). */
function drawMap(one, res, swap, isa, gi) {
	const acc2arch = res.acc2arch;
	const arch2acc = res.arch2acc;
	const k = Object.assign({}, state.last.kernel, { SourceSwap: swap });
	const f = accInfo(k);
	if (f.len !== acc2arch.length || !f.len) {
		one.appendChild(el('p', 'err', `The kernel keys give ${f.len} accumulators, the daemon's accToArchMapper ${acc2arch.length}; no picture.`));
		return;
	}
	/* rows along dimension 0: the arch index is
	 * vw0 + VW0*(bIdx0 + BM*(wgIdx0 ...)) (SourceSwap) or
	 * vw0 + VW0*(tIdx + OPM*(bIdx0 + BM*(wgIdx0 ...))) */
	const d0 = swap ? f.VW0 * f.BM * f.TT0 : f.VW0 * f.OPM * f.BM * f.TT0;
	const cols = Math.ceil(f.len / d0);
	const by = $('colour-by').value;
	const cw = Math.max(26, Math.min(34, Math.floor(1100 / Math.max(cols, 32))));
	const ch = 24;
	const padX = 46;
	const title = 30;
	const gridH = title + 16 + d0 * ch;
	const gap = 24;
	const fontSize = cw > 30 ? 11 : 9;
	const captionArch = `v[vgprValuC+i], i = r + ${d0}·c (row r, column c; column-major): label = the accumulator copied into it`;
	const captionAcc = `acc i, i = r + ${d0}·c (the same places): label = the arch VGPR it goes to`;
	/* wide enough for the grid and the captions (a monospace glyph is ~0.61 em) */
	const width = Math.ceil(Math.max(padX + cols * cw + 10, padX + 0.62 * fontSize * captionArch.length + 10, 660));
	const height = 2 * gridH + gap + 6;
	const svg = document.createElementNS(SVG_NS, 'svg');
	svg.setAttribute('xmlns', SVG_NS);
	svg.setAttribute('width', width);
	svg.setAttribute('height', height);
	svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
	svg.setAttribute('font-family', 'DejaVu Sans Mono, monospace');
	svg.setAttribute('font-size', String(fontSize));
	const text = (x, y, t, anchor, fill, cls) => {
		const e = document.createElementNS(SVG_NS, 'text');
		e.setAttribute('x', x);
		e.setAttribute('y', y);
		e.setAttribute('text-anchor', anchor || 'middle');
		e.setAttribute('fill', fill || '#222');
		if (cls)
			e.setAttribute('class', cls);
		e.textContent = t;
		svg.appendChild(e);
		return e;
	};
	/* a column-major grid of d0 rows at y0, with its axis labels */
	const axes = (y0, caption, which) => {
		text(padX, y0 + 12, caption, 'start', '#444', 'caption ' + which);
		for (let c = 0; c < cols; c++)
			text(padX + c * cw + cw / 2, y0 + title + 8, String(c * d0), 'middle', '#888', 'axis col ' + which);
		for (let r = 0; r < d0; r++)
			text(padX - 6, y0 + title + 16 + r * ch + ch / 2 + 4, String(r), 'end', '#888', 'axis row ' + which);
		return y0 + title + 16;
	};
	const mk = (x, y, fill, label, cls, data) => {
		const g = document.createElementNS(SVG_NS, 'g');
		g.setAttribute('class', cls);
		for (const [a, v] of Object.entries(data))
			g.setAttribute('data-' + a, v);
		const rect = document.createElementNS(SVG_NS, 'rect');
		rect.setAttribute('x', x);
		rect.setAttribute('y', y);
		rect.setAttribute('width', cw - 2);
		rect.setAttribute('height', ch - 2);
		rect.setAttribute('rx', 3);
		rect.setAttribute('fill', fill);
		rect.setAttribute('stroke', '#555');
		rect.setAttribute('stroke-width', '0.5');
		g.appendChild(rect);
		const t = document.createElementNS(SVG_NS, 'text');
		t.setAttribute('x', x + (cw - 2) / 2);
		t.setAttribute('y', y + ch / 2 + 3);
		t.setAttribute('text-anchor', 'middle');
		t.setAttribute('fill', '#111');
		t.textContent = label;
		g.appendChild(t);
		svg.appendChild(g);
		return g;
	};
	const describe = (arch, acc) => {
		const p = accParts(acc, f, swap);
		return `v[vgprValuC+${arch}] ← acc${acc}: instruction #${p.mfma} (wgIdx0 ${p.wgIdx0}, wgIdx1 ${p.wgIdx1}, vw0 ${p.vw0}, vw1 ${p.vw1}), ` +
			`block (bIdx0 ${p.bIdx0}, bIdx1 ${p.bIdx1}), output ${p.tIdx} of ${f.OPM}`;
	};
	const cells = [];
	const stripCells = [];
	let y = axes(0, captionArch, 'arch');
	for (let a = 0; a < f.len; a++) {
		const acc = arch2acc[a];
		const p = accParts(acc, f, swap);
		const g = mk(padX + Math.floor(a / d0) * cw, y + (a % d0) * ch, cellColour(p, f, by), String(acc), 'cell',
			{ arch: a, acc, mfma: p.mfma, out: p.tIdx, lane: p.lane });
		const t = document.createElementNS(SVG_NS, 'title');
		t.textContent = describe(a, acc);
		g.appendChild(t);
		cells[a] = g;
	}
	y = axes(gridH + gap, captionAcc, 'acc');
	for (let s = 0; s < f.len; s++) {
		const p = accParts(s, f, swap);
		const g = mk(padX + Math.floor(s / d0) * cw, y + (s % d0) * ch, cellColour(p, f, by), String(acc2arch[s]), 'acc',
			{ acc: s, arch: acc2arch[s] });
		const t = document.createElementNS(SVG_NS, 'title');
		t.textContent = `acc${s} → v[vgprValuC+${acc2arch[s]}]`;
		g.appendChild(t);
		stripCells[s] = g;
	}
	const hover = (arch, acc, on) => {
		cells[arch].classList.toggle('hl', on);
		stripCells[acc].classList.toggle('hl', on);
		$('pic-info').textContent = on ? describe(arch, acc) : '';
	};
	cells.forEach((g, a) => {
		g.addEventListener('mouseenter', () => hover(a, arch2acc[a], true));
		g.addEventListener('mouseleave', () => hover(a, arch2acc[a], false));
	});
	stripCells.forEach((g, s) => {
		g.addEventListener('mouseenter', () => hover(acc2arch[s], s, true));
		g.addEventListener('mouseleave', () => hover(acc2arch[s], s, false));
	});
	const wrap = el('div', 'pic-svg-one');
	wrap.appendChild(svg);
	one.appendChild(wrap);
	one.appendChild(el('div', 'hint pic-legend-one', pictureLegend(k, f, swap, d0, by, isa)));
	if (gi > 0) {
		const dl = el('button', 'svg-dl', 'Download this SVG');
		dl.type = 'button';
		dl.addEventListener('click', () => downloadSvg(one));
		one.appendChild(dl);
	}
}

/* Save one drawing (the first when none is named) as a standalone SVG. */
function downloadSvg(one) {
	const svg = (one || document.querySelector('#pic-svg .pic-one')).querySelector('svg');
	if (!svg)
		return;
	const copy = svg.cloneNode(true);
	copy.querySelectorAll('.hl').forEach((g) => g.classList.remove('hl'));
	const blob = new Blob(['<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy)],
		{ type: 'image/svg+xml' });
	const a = document.createElement('a');
	a.href = URL.createObjectURL(blob);
	const swap = $('flip').checked ? 1 - state.last.picture.swap : state.last.picture.swap;
	const isas = (one || document.querySelector('#pic-svg .pic-one')).dataset.isas.replace(/,/g, '-');
	a.download = `acc2arch-${isas}-SourceSwap${swap}.svg`;
	document.body.appendChild(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/* ------------------------------------------------------------ start-up */

function buildIsas() {
	const box = $('isas');
	box.textContent = '';
	for (const i of state.isas) {
		const l = el('label', 'inline');
		const c = document.createElement('input');
		c.type = 'checkbox';
		c.value = i.name;
		c.id = 'isa-' + i.name;
		l.appendChild(c);
		l.appendChild(document.createTextNode(' ' + i.name + (i.wavefront ? ` (wave${i.wavefront.join('/')})` : '')));
		box.appendChild(l);
	}
}

function buildGenerators() {
	const box = $('generators');
	box.textContent = '';
	for (const g of state.generators) {
		const row = el('div', 'gen');
		const l = el('label', 'gen-name');
		const c = document.createElement('input');
		c.type = 'checkbox';
		c.dataset.gen = g.name;
		l.appendChild(c);
		l.appendChild(document.createTextNode(' ' + g.name));
		row.appendChild(l);
		if (g.needs && g.needs.length)
			row.appendChild(el('span', 'hint', ' needs ' + g.needs.join(', ')));
		const args = el('div', 'gen-args');
		for (const a of g.args) {
			const al = el('label', 'inline');
			al.appendChild(document.createTextNode(a.name + ' '));
			const inp = document.createElement('input');
			inp.dataset.genArg = `${g.name}.${a.name}`;
			if (a.type === 'boolean') {
				inp.type = 'checkbox';
				inp.checked = Boolean(a.default);
			} else {
				inp.type = 'text';
				inp.size = a.type === 'string' ? 10 : 6;
				inp.placeholder = a.required ? 'required' : a.default === null ? 'null' : JSON.stringify(a.default);
			}
			al.appendChild(inp);
			args.appendChild(al);
		}
		row.appendChild(args);
		box.appendChild(row);
	}
}

function showExampleSource() {
	const ex = state.examples[Number($('example').value)];
	$('example-source').textContent = $('example').value !== '' && ex ? 'From ' + ex.source : '';
}

function loadExample() {
	const idx = $('example').value;
	showExampleSource();
	if (idx === '')
		return;
	const ex = state.examples[Number(idx)];
	$('solution').value = JSON.stringify(ex.request, null, 1);
	for (const box of document.querySelectorAll('#isas input'))
		box.checked = box.value === ex.request.isa;
	onSolutionEdited();
}

/* Read the box as the user types: say what it is, tick its ISA if none is.
 * A solution goes to the daemon to be derived, once the typing pauses. */
let editTimer = null;
let edits = 0;

function onSolutionEdited() {
	clearTimeout(editTimer);
	const me = ++edits;
	const t = $('solution').value;
	if (!t.trim()) {
		$('parse-status').textContent = '';
		return Promise.resolve();
	}
	let quick = null;
	try {
		quick = kwgenRequest(t);
	} catch (e) {
		$('parse-status').textContent = e.message;
		$('parse-status').className = 'hint bad';
		return Promise.resolve();
	}
	const show = async () => {
		try {
			const sol = quick || await readSolution(t);
			if (me !== edits)
				return;
			$('parse-status').textContent = 'Read as ' + sol.note;
			$('parse-status').className = 'hint ok';
			const name = isaName(sol.isa);
			if (name && !chosenIsas().length)
				$('isa-' + name).checked = true;
		} catch (e) {
			if (me !== edits)
				return;
			$('parse-status').textContent = e.message;
			$('parse-status').className = 'hint bad';
		}
	};
	if (quick)
		return show();
	$('parse-status').textContent = 'Reading the solution …';
	$('parse-status').className = 'hint';
	return new Promise((resolve) => {
		editTimer = setTimeout(() => show().then(resolve), 250);
	});
}

async function start() {
	try {
		const [isas, gens, examples] = await Promise.all([
			api('/v1/isas'), api('/v1/generators'), fetch('/ui/examples.json').then((r) => r.json()),
		]);
		state.isas = isas.isas;
		state.generators = gens.generators;
		state.examples = examples.examples;
	} catch (e) {
		setStatus('error', 'Cannot read the daemon\'s ISAs and generators: ' + e.message);
		return;
	}
	$('auth').hidden = true;
	buildIsas();
	buildGenerators();
	const sel = $('example');
	sel.length = 1;
	state.examples.forEach((ex, i) => {
		const o = document.createElement('option');
		o.value = String(i);
		o.textContent = ex.name;
		sel.appendChild(o);
	});
	let restored = false;
	try {
		restored = restoreFragment();
	} catch (e) { /* the page still starts; say what went wrong */
		setStatus('error', 'The shared link could not be restored: ' + e.message);
	}
	if (restored) {
		await onSolutionEdited();
		run();
	} else {
		sel.value = '0';
		loadExample();
		run();
	}
	document.body.dataset.ready = '1';
}

document.addEventListener('DOMContentLoaded', () => {
	$('auth-form').addEventListener('submit', (ev) => {
		ev.preventDefault();
		sessionStorage.setItem('kwgen-token', $('token').value.trim());
		start();
	});
	$('example').addEventListener('change', () => {
		loadExample();
		if ($('example').value !== '')
			run();
	});
	$('solution').addEventListener('input', () => {
		$('example').value = '';
		showExampleSource();
		onSolutionEdited();
	});
	$('run').addEventListener('click', run);
	$('flip').addEventListener('change', () => {
		if (state.last) {
			renderPicture();
			history.replaceState(null, '', fragmentOf());
		}
	});
	$('colour-by').addEventListener('change', () => {
		if (state.last) {
			renderPicture();
			history.replaceState(null, '', fragmentOf());
		}
	});
	$('svg-download').addEventListener('click', () => downloadSvg(null));
	$('share').addEventListener('click', () => {
		try {
			history.replaceState(null, '', fragmentOf());
			copyText(location.href, 'Share link');
		} catch (e) {
			$('copy-status').textContent = e.message;
		}
	});
	$('curl').addEventListener('click', async () => {
		try {
			const c = await curlCommand();
			$('curl-text').textContent = c;
			$('curl-box').open = true;
			copyText(c, 'curl command');
		} catch (e) {
			$('copy-status').textContent = e.message;
		}
	});
	window.addEventListener('hashchange', async () => {
		if (restoreFragment()) {
			await onSolutionEdited();
			run();
		}
	});
	start();
});
