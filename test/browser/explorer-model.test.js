'use strict';
// The layout explorer's bank model (the JavaScript in the page that
// `shmem-lint explain --format=html` writes, between its "explorer model"
// marker comments), run in node, outside the browser:
//  - every row of the H200 calibration tables (test/calibration/
//    h200-shared-wavefronts.tsv and ldmatrix-h200.tsv, which the C++ model
//    reproduces exactly: BankModelCalibrationTest, LdmatrixCalibrationTest)
//    must give the measured wavefronts and bank conflicts;
//  - over a grid of `explain` cases, the page's numbers at the analysed
//    layouts (as written, padded, XOR swizzle) must be the C++ model's,
//    lane by lane: against the pictures the page carries and against the
//    text `explain` prints.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { run, root } = require('./browser.js');

const calibration = process.env.SHMEM_LINT_CALIBRATION_DIR ||
    path.join(root, 'test', 'calibration');

function unescapeHtml(s) {
  return s.replace(/&(quot|amp|lt|gt|#39);/g, (m, e) =>
    ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'" })[e]);
}

/// The page's model (a fresh instance) and the explorer's data.
function loadPage(html) {
  const begin = '/* shmem-lint explorer model: begin */';
  const end = '/* shmem-lint explorer model: end */';
  const a = html.indexOf(begin), b = html.indexOf(end);
  assert.ok(a >= 0 && b > a, 'the page has the model between its markers');
  const ctx = {};
  vm.runInNewContext(html.slice(a, b + end.length) +
      '\nthis.Model = ShmemExplorerModel;', ctx);
  const m = /data-shmem-explorer="([^"]*)"/.exec(html);
  assert.ok(m, 'the page has the explorer data');
  return { M: ctx.Model, data: JSON.parse(unescapeHtml(m[1])) };
}

/// Values made in the model's context, as this one's (deepEqual compares
/// prototypes, and each context has its own Array).
function plain(x) { return JSON.parse(JSON.stringify(x)); }

/// The calibration rows of a TSV: '#' lines, then a header.
function readTsv(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
      .map((l) => l.replace(/\r$/, '')).filter((l) => l && !l.startsWith('#'));
  const head = lines[0].split('\t');
  return lines.slice(1).map((l, i) => {
    const cells = l.split('\t'), row = { line: i };
    head.forEach((h, k) => { row[h] = cells[k] === undefined ? '' : cells[k]; });
    return row;
  });
}

const page = run(['explain', '--shape', '32x32', '--index', 'tile[lane][5]',
  '--format=html']);
const { M } = loadPage(page);

test('the page model reproduces every measured row of h200-shared-wavefronts.tsv', () => {
  const rows = readTsv(path.join(calibration, 'h200-shared-wavefronts.tsv'));
  assert.ok(rows.length >= 400, `${rows.length} rows`);
  let checked = 0;
  const bad = [];
  for (const r of rows) {
    const offsets = r.offsets.split(',').map((o) => (o === '-' ? null : Number(o)));
    assert.equal(offsets.length, 32, r.name);
    const res = M.analyze(offsets, Number(r.width_bytes), r.op === 'st');
    ++checked;
    if (res.wavefronts !== Number(r.wavefronts))
      bad.push(`${r.name}: page ${res.wavefronts} wavefronts, measured ${r.wavefronts}`);
    // The pictures' colours: the most words a bank serves in one phase,
    // from the lanes' first words, is the worst phase's cost.
    const hot = M.phaseWordsPerBank(res, Number(r.width_bytes));
    const worstPhase = Math.max(0, ...res.phaseCosts.map((p) => p.cost));
    if (Math.max(...hot) !== worstPhase)
      bad.push(`${r.name}: picture colours ${Math.max(...hot)}, worst phase ${worstPhase}`);
    if (r.bank_conflicts !== 'NA' && r.bank_conflicts !== '' &&
        res.bankConflicts !== Number(r.bank_conflicts))
      bad.push(`${r.name}: page ${res.bankConflicts} bank conflicts, ncu ${r.bank_conflicts}`);
  }
  console.log(`h200-shared-wavefronts.tsv: ${checked} rows, ${bad.length} mismatched`);
  assert.deepEqual(bad, []);
});

test('the page model reproduces every row of ldmatrix-h200.tsv', () => {
  const rows = readTsv(path.join(calibration, 'ldmatrix-h200.tsv'));
  assert.equal(rows.length, 144);
  const bad = [];
  for (const r of rows) {
    // As LdmatrixCalibrationTest feeds the C++ model: a 16-byte access by
    // lanes 0 .. 8x-1, each the address of one row.
    const x = Number(r.x), stride = Number(r.stride), swz = Number(r.swz) !== 0;
    const lanes = [];
    for (let i = 0; i < 32; ++i) {
      if (i >= 8 * x) { lanes.push(null); continue; }
      const row = x === 1 ? i % 8 : i % 16;
      let chunk = x === 4 ? Math.floor(i / 16) : 0;
      if (swz) chunk ^= row % 8;
      lanes.push(row * stride + chunk * 16);
    }
    const res = M.analyze(lanes, 16, r.op === 'stmatrix');
    if (res.wavefronts !== Number(r.wavefronts) || res.ideal !== x)
      bad.push(`${r.op}.x${x} stride ${stride}${swz ? ' swizzled' : ''}: page ${res.wavefronts}, measured ${r.wavefronts}`);
  }
  console.log(`ldmatrix-h200.tsv: ${rows.length} rows, ${bad.length} mismatched`);
  assert.deepEqual(bad, []);
});

test('the page model: broadcasts, phases, folding and the worst bank as the C++ model', () => {
  const lanes = (f) => Array.from({ length: 32 }, (_, l) => f(l));
  // Four lanes per word: broadcast, 1 wavefront.
  let r = M.analyze(lanes((l) => Math.floor(l / 4) * 4), 4, false);
  assert.equal(r.wavefronts, 1);
  assert.ok(r.broadcast.every(Boolean));
  // A 32-way column.
  r = M.analyze(lanes((l) => l * 128 + 20), 4, false);
  assert.deepEqual([r.wavefronts, r.ideal, r.degree, r.bankConflicts], [32, 1, 32, 31]);
  assert.equal(r.worst.bank, 5);
  assert.equal(M.laneList(r.worst.lanes), '0-31');
  // float4 column: 8 lanes per phase, 8 words of 4 banks each.
  r = M.analyze(lanes((l) => l * 512), 16, false);
  assert.deepEqual([r.wavefronts, r.ideal, r.phases, r.phaseLanes], [32, 4, 4, 8]);
  // Pairs fold for loads, not for stores.
  r = M.analyze(lanes((l) => Math.floor(l / 2) * 16), 16, false);
  assert.deepEqual([r.wavefronts, r.phaseLanes, r.pairsFolded], [2, 16, true]);
  r = M.analyze(lanes((l) => Math.floor(l / 2) * 16), 16, true);
  assert.deepEqual([r.wavefronts, r.phaseLanes, r.pairsFolded], [4, 8, false]);
  // Inactive lanes, an empty warp.
  r = M.analyze(lanes((l) => (l < 16 ? l * 4 : null)), 4, false);
  assert.equal(r.activeLanes, 16);
  assert.equal(r.laneBank[20], -1);
  r = M.analyze(lanes(() => null), 4, false);
  assert.deepEqual([r.wavefronts, r.ideal, r.degree, r.phases], [0, 1, 1, 0]);
});

test('the page reads indices as C does (32-bit int and unsigned)', () => {
  const sub = (text, env) => {
    const p = M.parseAccess(text, 'tile', 1);
    assert.ok(p.subs, `${text}: ${p.error}`);
    return M.evaluate(p.subs[0], Object.assign({ tx: 0, ty: 0, tz: 0, bx: 32, by: 1, bz: 1 }, env)).v;
  };
  assert.equal(sub('tile[lane * 33 % 32]', { tx: 5 }), 5);
  assert.equal(sub('tile[(lane ^ 1) + (lane >> 2 & 3)]', { tx: 14 }), 15 + 3);
  assert.equal(sub('tile[lane - 1]', { tx: 0 }), 4294967295); // unsigned wraps
  assert.equal(sub('tile[-7 / 2]'), -3); // int division truncates
  assert.equal(sub('tile[-7 % 2]'), -1);
  assert.equal(sub('tile[0x10 + 010 + 1u]'), 16 + 8 + 1);
  assert.equal(sub('tile[lane < 16 ? lane : 31 - lane]', { tx: 20 }), 11);
  assert.equal(sub('tile[threadIdx.y * blockDim.x + threadIdx.x]', { tx: 3, ty: 2, bx: 16, by: 4 }), 35);
  assert.equal(sub('tile[tid / 32 + warp + warpSize]', { tx: 7, ty: 3, bx: 32, by: 4 }), 3 + 3 + 32);
  for (const bad of ['tile[(int)lane]', 'tile[lane][0]', 'tile[f(lane)]', 'tile[lane].x', 'tile[1L]',
    'reinterpret_cast<float4 *>(&tile[lane][0])[0]', 'tile[lane / 0]'])
    assert.ok(M.parseAccess(bad, 'tile', 1).error ||
              (() => { try { sub(bad); return false; } catch (e) { return e instanceof M.Unsupported; } })(), bad);
});

/// The text `explain` prints, per access: for each layout drawn, its
/// wavefronts and the lanes' banks with broadcast marks.
function textPictures(text) {
  const parts = text.split(/^access \d+ of \d+.*$/m);
  const accesses = parts.length > 1 ? parts.slice(1) : parts;
  return accesses.map((part) => {
    const layouts = {};
    let cur = null;
    for (const line of part.split('\n')) {
      const h = /^(as written|padded|XOR swizzle)[^(]*\((.*)\): (\d+) wavefronts?/.exec(line);
      if (h) {
        cur = { wavefronts: Number(h[3]), banks: [], marks: [] };
        layouts[{ 'as written': 'original', padded: 'padded', 'XOR swizzle': 'swizzled' }[h[1]]] = cur;
        continue;
      }
      const l = /^ {2}lanes +\d+-\d+:(.*)$/.exec(line);
      if (l && cur) {
        for (const m of l[1].matchAll(/(\d+)(\*?)|\./g)) {
          cur.banks.push(m[1] === undefined ? -1 : Number(m[1]));
          cur.marks.push(m[2] === '*');
        }
      } else if (!/^ {2}distinct/.test(line)) cur = null;
    }
    return layouts;
  });
}

// Shapes, types, indices and blocks; each access is checked at the three
// layouts the analysis computes.
const grid = [
  ['32x32', 'float', 'tile[lane][5]'],
  ['32x32', 'float', 'tile[lane][lane]'],
  ['32x32', 'float', 'tile[0][lane]'],
  ['32x32', 'float', 'tile[warp][lane]', '32x8'],
  ['32x32', 'float', 'tile[threadIdx.y][threadIdx.x]', '32x8'],
  ['32x32', 'float', 'tile[threadIdx.x][threadIdx.y]', '32x8'],
  ['32x32', 'float', 'tile[threadIdx.x][threadIdx.y]', '16x16'],
  ['32x32', 'float', 'tile[tid % 32][tid / 32]', '256'],
  ['32x32', 'float', 'tile[lane / 2][lane % 2]'],
  ['32x32', 'float', 'tile[0][lane / 4]'],
  ['32x32', 'float', 'tile[lane % 8][lane / 8]'],
  ['32x32', 'float', 'tile[lane >> 2][(lane & 3) * 8]'],
  ['32x32', 'float', 'tile[31 - lane][lane ^ 1]'],
  ['32x64', 'float', 'tile[0][lane * 2]'],
  ['32x48', 'float', 'tile[lane][0]'],
  ['33x33', 'float', 'tile[lane][5]'],
  ['8x128', 'float', 'tile[lane % 8][lane]'],
  ['32x32', 'int', 'tile[lane][5]', null, true],
  ['32x32', 'double', 'tile[lane][0]'],
  ['32x64', 'double', 'tile[lane][0]', null, true],
  ['32x32', 'double', 'tile[lane / 2][lane % 2]'],
  ['32x32', 'float2', 'tile[lane][1]'],
  ['32x32', 'float4', 'tile[lane][0]'],
  ['32x32', 'float4', 'tile[0][lane]'],
  ['32x32', 'float4', 'tile[lane / 2][0]'],
  ['32x32', 'float4', 'tile[lane][0]', null, true],
  ['32x32', 'char', 'tile[lane][5]'],
  ['32x32', 'char', 'tile[0][lane]'],
  ['64x64', 'char', 'tile[lane * 2][lane]'],
  ['32x32', 'short', 'tile[lane][3]'],
  ['32x32', 'short', 'tile[lane][lane]'],
  ['1024', 'float', 'tile[lane * 32]'],
  ['64', 'float', 'tile[lane * 2]'],
  ['16', 'float', 'tile[lane]'],
  ['32x32', 'float', 'tile[lane][lane] + tile[lane][0]'],
  // The page cannot read these again: it keeps the analysed lanes.
  ['32x32', 'float', 'reinterpret_cast<float4 *>(&tile[lane][0])[0]'],
  ['32x32', 'float', 'lane < 16 ? tile[lane][0] : 0.f'],
];

test('the page agrees with the C++ pictures and the text output over a grid of explain cases', () => {
  const report = [];
  let layoutsChecked = 0;
  for (const [shape, type, index, block, store] of grid) {
    const args = ['explain', '--shape', shape, '--type', type, '--index', index];
    if (block) args.push('--block', block);
    if (store) args.push('--store');
    const name = args.slice(1).join(' ');
    const { M: model, data } = loadPage(run(args.concat(['--format=html'])));
    const text = textPictures(run(args));
    assert.equal(text.length, data.accesses.length, `${name}: accesses`);
    data.accesses.forEach((acc, a) => {
      const source = model.laneSource(data, a);
      const settings = { original: model.analysedState(data, a) };
      if (acc.padded) settings.padded = Object.assign(model.analysedState(data, a), { pad: acc.paddedBy });
      if (acc.swizzled)
        settings.swizzled = Object.assign(model.analysedState(data, a), { swizzle: 'mod', swzN: acc.swizzleN });
      for (const [which, st] of Object.entries(settings)) {
        const out = model.compute(data, st, source);
        const what = `${name} [access ${a + 1}, ${which}, lanes from ${source.kind}]`;
        // The page knows which analysed picture this is.
        assert.ok(out.agree, `${what}: the page sees the analysed layout`);
        assert.equal(out.agree.pic, acc[which], `${what}: matched picture`);
        // The same warp as the analysis drew, lane by lane.
        assert.deepEqual(plain(out.agree.diffs), [], `${what}: differs from the C++ picture`);
        if (source.kind === 'index')
          assert.equal(out.warp, acc.warp, `${what}: the worst warp`);
        // And the text output's numbers.
        const t = text[a][which];
        assert.ok(t, `${what}: in the text output`);
        const shown = out.warp === acc.warp ? out.result
          : model.analyze(out.result.addresses, out.layout.W, data.store);
        assert.equal(shown.wavefronts, t.wavefronts, `${what}: text wavefronts`);
        assert.deepEqual(plain(shown.laneBank), t.banks, `${what}: text banks`);
        assert.deepEqual(plain(shown.broadcast), t.marks, `${what}: text broadcasts`);
        ++layoutsChecked;
      }
      report.push(`${name} [${a + 1}]: ${source.kind}${source.why ? ' (' + source.why + ')' : ''}`);
    });
  }
  console.log(report.join('\n'));
  console.log(`${grid.length} explain cases, ${layoutsChecked} layouts checked`);
  // The evaluator must cover every plain index of the grid.
  const fallbacks = report.filter((r) => !/: index$/.test(r));
  assert.equal(fallbacks.length, 2, fallbacks.join('\n'));
});

test('without the access text and the block (a finding of the report), the page keeps the analysed lanes', () => {
  // What explorerInputForFinding gives the page: the picture alone.
  let checked = 0;
  for (const [shape, type, index, block, store] of grid.slice(0, 12)) {
    const args = ['explain', '--shape', shape, '--type', type, '--index', index, '--format=html'];
    if (block) args.push('--block', block);
    if (store) args.push('--store');
    const { M: model, data: full } = loadPage(run(args));
    const data = Object.assign({}, full, {
      blockKnown: false, block: [32, 1, 1],
      accesses: full.accesses.map((a) => Object.assign({}, a, { text: '' })),
    });
    data.accesses.forEach((acc, a) => {
      const source = model.laneSource(data, a);
      assert.equal(source.kind, 'lanes');
      const st = model.analysedState(data, a);
      const out = model.compute(data, st, source);
      assert.equal(out.blockChangeable, false);
      assert.match(out.notes.join(' '), /the block shape cannot be changed/);
      assert.deepEqual(plain(out.agree.diffs), [], `${index}: as written`);
      if (acc.padded) {
        const p = model.compute(data, Object.assign(model.analysedState(data, a), { pad: acc.paddedBy }), source);
        assert.deepEqual(plain(p.agree.diffs), [], `${index}: padded`);
      }
      ++checked;
    });
  }
  assert.ok(checked >= 12);
});

test('layouts only the page computes, against numbers worked out by hand', () => {
  const at = (args, change) => {
    const { M: model, data } = loadPage(run(['explain', ...args, '--format=html']));
    const st = Object.assign(model.analysedState(data, 0), { swzN: 32 }, change);
    if (change.type) st.type = model.typeChoices(data).findIndex((t) => t.name === change.type);
    const out = model.compute(data, st);
    return [out.result.wavefronts, out.result.ideal, out.bytes];
  };
  const column = ['--shape', '32x32', '--index', 'tile[lane][5]'];
  // 1-D, split into rows of 32 and padded: the 32-way stride is gone.
  const flat = ['--shape', '1024', '--index', 'tile[lane * 32]'];
  assert.deepEqual(at(flat, {}), [32, 1, 4096]);
  assert.deepEqual(at(flat, { rowLen: 32 }), [32, 1, 4096]);
  assert.deepEqual(at(flat, { rowLen: 32, pad: 1 }), [1, 1, 4224]);
  // TMA 128B: the 16-byte chunk XOR row % 8 spreads a column over 8
  // chunks, 4 lanes on each (lanes l, l+8, l+16, l+24): 4-way.
  assert.deepEqual(at(column, { swizzle: 'tma128' }), [4, 1, 4096]);
  assert.deepEqual(at(column, { swizzle: 'tma64' }), [8, 1, 4096]);
  assert.deepEqual(at(column, { swizzle: 'tma32' }), [16, 1, 4096]);
  // c ^ (r & 7): 8 banks, 4-way; c ^ ((r >> 3) & 3): 4 banks, 8-way.
  assert.deepEqual(at(column, { swizzle: 'mask', swzMask: 7, swzShift: 0 }), [4, 1, 4096]);
  assert.deepEqual(at(column, { swizzle: 'mask', swzMask: 3, swzShift: 3 }), [8, 1, 4096]);
  // col ^ (row % 4) on float: 4 banks, 8-way.
  assert.deepEqual(at(column, { swizzle: 'mod', swzN: 4 }), [8, 1, 4096]);
  // double: rows of 256 bytes, every lane on banks 10-11; two phases of 16
  // lanes, 16 words each: 32 wavefronts instead of 2.
  assert.deepEqual(at(column, { type: 'double' }), [32, 2, 8192]);
  // double rows padded by one: 66 words apart, conflict-free.
  assert.deepEqual(at(column, { type: 'double', pad: 1 }), [2, 2, 8448]);
  // char: rows of 32 bytes, lanes 4 apart share a bank: 8-way; padding 4.
  assert.deepEqual(at(column, { type: 'char' }), [8, 1, 1024]);
  assert.deepEqual(at(column, { type: 'char', pad: 4 }), [1, 1, 1152]);
  // Rows of 33 floats: conflict-free, as padding by one.
  assert.deepEqual(at(column, { rowLen: 33 }), [1, 1, 4224]);
});

test('the page never fails, whatever the controls say', () => {
  // A small deterministic generator, so that a failure can be replayed.
  let seed = 12345;
  const rand = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
  const cases = [
    ['32x32', 'float', 'tile[lane][5]'],
    ['32x32', 'char', 'tile[threadIdx.y][threadIdx.x]', '32x8'],
    ['32x32', 'float', 'tile[lane / (blockDim.y - 1)][0]', '32x2'],
    ['1024', 'float', 'tile[lane * 32]'],
    ['32x32', 'float', 'reinterpret_cast<float4 *>(&tile[lane][0])[0]'],
    ['32x32', 'double', 'tile[lane - 1][lane]'],
  ];
  let states = 0;
  for (const [shape, type, index, block] of cases) {
    const args = ['explain', '--shape', shape, '--type', type, '--index', index, '--format=html'];
    if (block) args.push('--block', block);
    const { M: model, data } = loadPage(run(args));
    const source = model.laneSource(data, 0);
    const types = model.typeChoices(data);
    for (let i = 0; i < 300; ++i) {
      const st = model.analysedState(data, 0);
      st.rowLen = 1 + rand(80);
      st.pad = rand(9);
      st.type = rand(types.length);
      st.swizzle = model.SWIZZLE_ORDER[rand(model.SWIZZLE_ORDER.length)];
      st.swzN = 1 + rand(40);
      st.swzMask = rand(64);
      st.swzShift = rand(6);
      const bx = 1 + rand(64), by = 1 + rand(Math.floor(1024 / bx));
      st.block = [bx, by, 1];
      if (rand(3) === 0) st.warp = rand(4);
      const what = `${index} ${JSON.stringify(st)}`;
      const out = model.compute(data, st, source);
      const r = out.result, L = out.layout;
      assert.equal(out.bytes, L.rows * (L.C + L.pad) * L.E, what);
      assert.ok(r.laneBank.every((b) => b >= -1 && b < 32), what);
      assert.ok(r.degree >= 1 && (r.activeLanes === 0 || r.wavefronts >= r.ideal), what);
      assert.equal(r.wordsPerBank.length, 32, what);
      ++states;
    }
  }
  // The division by zero a block of one row gives that index is said.
  const { M: model, data } = loadPage(run(['explain', '--shape', '32x32', '--index',
    'tile[lane / (blockDim.y - 1)][0]', '--block', '32x2', '--format=html']));
  const st = model.analysedState(data, 0);
  st.block = [32, 1, 1];
  const out = model.compute(data, st);
  assert.equal(out.source.kind, 'index');
  assert.match(out.notes.join(' '), /a division by zero for lane 0 of warp 0: such lanes are left out/);
  assert.equal(out.result.activeLanes, 0);
  console.log(`${states} random layouts computed`);
});

test('the page is deterministic and self-contained', () => {
  const args = ['explain', '--shape', '32x32', '--index', 'tile[lane][5]', '--format=html'];
  assert.equal(run(args), page);
  assert.doesNotMatch(page, /<(link|img|iframe)\b|\bsrc=|@import|url\(|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
});
