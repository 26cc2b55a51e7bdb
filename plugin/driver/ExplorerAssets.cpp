//===- ExplorerAssets.cpp - The layout explorer's script and styles ------===//
//
// The text the explorer page embeds: the model script (lib/Model's bank
// rules in JavaScript, between marker comments that
// test/browser/explorer-model.test.js extracts and replays against the H200
// calibration tables), the UI script, and the styles.
//
//===----------------------------------------------------------------------===//

#include "ExplorerAssets.h"

namespace shmem {

//===----------------------------------------------------------------------===//
// The model: bank rules, the index evaluator, layouts. No DOM.
//===----------------------------------------------------------------------===//

const char *const ExplorerModelJs = R"js(/* shmem-lint explorer model: begin */
var ShmemExplorerModel = (function () {
  'use strict';
  // lib/Model/BankModel.h, rules 1 to 4: 32 banks of 4-byte words; lanes
  // served in phases of 32 (1-4 bytes), 16 (8 bytes) or 8 (16 bytes) lanes;
  // a phase costs the most distinct words one bank serves in it; 8- and
  // 16-byte loads whose lane pairs (2k, 2k+1) never disagree are served in
  // phases twice as wide; stores never fold; ideal = phases with a lane.
  var BANKS = 32, BANK_BYTES = 4, WARP = 32;

  function floorDiv(a, b) { return Math.floor(a / b); }
  function mod(a, b) { var r = a % b; return r < 0 ? r + b : r; }

  function phaseLanes(width) {
    var words = Math.ceil(Math.max(1, width) / BANK_BYTES);
    return Math.max(1, Math.floor(BANKS / words));
  }

  function foldsPairs(addr, width, store) {
    if (store || Math.max(1, width) <= BANK_BYTES) return false;
    for (var l = 0; l + 1 < addr.length; l += 2) {
      var a = addr[l], b = addr[l + 1];
      if (a !== null && b !== null && a !== b) return false;
    }
    return true;
  }

  function sortedNumbers(set) {
    return Array.from(set).sort(function (x, y) { return x - y; });
  }

  // addr: per lane the byte offset from the array's start, or null for an
  // inactive lane. Returns BankResult's and LayoutPicture's numbers.
  function analyze(addr, width, store) {
    width = Math.max(1, width | 0);
    var n = addr.length, pl = phaseLanes(width), l, b, w;
    var folded = foldsPairs(addr, width, store);
    if (folded) pl *= 2;
    var r = {
      activeLanes: 0, wavefronts: 0, phases: 0, phaseLanes: pl,
      pairsFolded: folded, phaseCosts: [], worst: null,
      laneBank: [], laneWord: [], broadcast: [], wordsPerBank: []
    };
    var warpWords = [];
    for (b = 0; b < BANKS; ++b) warpWords.push(new Set());
    for (l = 0; l < n; ++l) {
      r.laneBank.push(-1); r.laneWord.push(0); r.broadcast.push(false);
    }
    var worstCost = 0;
    for (var begin = 0; begin < n; begin += pl) {
      var end = Math.min(n, begin + pl), words = [], active = false;
      for (b = 0; b < BANKS; ++b) words.push(new Set());
      for (l = begin; l < end; ++l) {
        if (addr[l] === null) continue;
        ++r.activeLanes;
        active = true;
        var first = floorDiv(addr[l], BANK_BYTES);
        var last = floorDiv(addr[l] + width - 1, BANK_BYTES);
        r.laneBank[l] = mod(first, BANKS);
        r.laneWord[l] = first;
        for (w = first; w <= last; ++w) {
          b = mod(w, BANKS);
          words[b].add(w);
          warpWords[b].add(w);
        }
      }
      if (!active) continue;
      var cost = 0, worstBank = 0;
      for (b = 0; b < BANKS; ++b)
        if (words[b].size > cost) { cost = words[b].size; worstBank = b; }
      // The worst bank: the lowest reaching the maximum in the first phase
      // that reaches it (BankModel::compute).
      if (cost > worstCost) {
        worstCost = cost;
        var lanes = [];
        for (l = begin; l < end; ++l) {
          if (addr[l] === null) continue;
          var f = floorDiv(addr[l], BANK_BYTES);
          var t = floorDiv(addr[l] + width - 1, BANK_BYTES);
          for (w = f; w <= t; ++w)
            if (mod(w, BANKS) === worstBank) { lanes.push(l); break; }
        }
        r.worst = { bank: worstBank, words: sortedNumbers(words[worstBank]),
                    lanes: lanes, phaseBegin: begin, phaseEnd: end };
      }
      r.phaseCosts.push({ begin: begin, end: end, cost: cost });
      r.wavefronts += cost;
      ++r.phases;
    }
    for (b = 0; b < BANKS; ++b) r.wordsPerBank.push(warpWords[b].size);
    // makeLayoutPicture: a lane broadcasts when another active lane of its
    // phase has the same first word.
    var sharing = new Map();
    for (l = 0; l < n; ++l)
      if (addr[l] !== null) {
        var key = Math.floor(l / pl) + ':' + r.laneWord[l];
        sharing.set(key, (sharing.get(key) || 0) + 1);
      }
    for (l = 0; l < n; ++l)
      if (addr[l] !== null)
        r.broadcast[l] = sharing.get(Math.floor(l / pl) + ':' + r.laneWord[l]) > 1;
    r.bankConflicts = r.wavefronts - r.phases;
    r.ideal = Math.max(1, r.phases);
    r.degree = Math.max(1, Math.ceil(r.wavefronts / r.ideal));
    return r;
  }

  // Per bank, the most distinct words it serves in one phase, from a
  // picture's lanes (their first words; aligned accesses of `width` bytes):
  // what costs wavefronts, where wordsPerBank counts over the whole warp.
  function phaseWordsPerBank(p, width) {
    var out = [], b, l, pl = p.phaseLanes || WARP;
    var n = Math.ceil(Math.max(1, width) / BANK_BYTES);
    for (b = 0; b < BANKS; ++b) out.push(0);
    for (var begin = 0; begin < p.laneBank.length; begin += pl) {
      var words = [];
      for (b = 0; b < BANKS; ++b) words.push(new Set());
      for (l = begin; l < Math.min(p.laneBank.length, begin + pl); ++l) {
        if (p.laneBank[l] < 0) continue;
        for (var w = p.laneWord[l]; w < p.laneWord[l] + n; ++w) words[mod(w, BANKS)].add(w);
      }
      for (b = 0; b < BANKS; ++b) out[b] = Math.max(out[b], words[b].size);
    }
    return out;
  }

  // "32 wavefronts instead of 1: 32-way conflict" (describeLayoutCost).
  function describeCost(r) {
    var s = r.wavefronts + (r.wavefronts === 1 ? ' wavefront' : ' wavefronts');
    if (r.degree > 1)
      return s + ' instead of ' + r.ideal + ': ' + r.degree + '-way conflict';
    return s + ': conflict-free';
  }

  // "0-7, 16, 18" for a sorted list of lanes.
  function laneList(lanes) {
    var out = [], i = 0;
    while (i < lanes.length) {
      var j = i;
      while (j + 1 < lanes.length && lanes[j + 1] === lanes[j] + 1) ++j;
      out.push(j > i ? lanes[i] + '-' + lanes[j] : String(lanes[i]));
      i = j + 1;
    }
    return out.join(', ');
  }

  //===------------------------------------------------------------------===//
  // The index, read again: a small C evaluator for the subset explain's
  // kernel offers (lane, warp, tid, threadIdx, blockDim, warpSize,
  // integer constants, + - * / % << >> & | ^ ~ ! comparisons && || ?:),
  // 32-bit int and unsigned arithmetic as in C. Anything else (casts,
  // member access, calls) is not evaluated: the page then keeps the lanes
  // of the analysed warp at the coordinates the analysis gave them.
  //===------------------------------------------------------------------===//

  function Unsupported(why) { this.why = why; }

  function tokenize(text) {
    var re = /\s*(?:(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)|([A-Za-z_][A-Za-z_0-9]*)|(<<|>>|<=|>=|==|!=|&&|\|\||[-+*\/%&|^~!<>?:()\[\].]))/y;
    var toks = [], m;
    re.lastIndex = 0;
    while (re.lastIndex < text.length) {
      var at = re.lastIndex;
      if (/^\s*$/.test(text.slice(at))) break;
      m = re.exec(text);
      if (!m) throw new Unsupported("'" + text.slice(at).trim().charAt(0) + "'");
      if (m[1] !== undefined) {
        var digits = m[1], suffix = m[2], v;
        if (/[lL]/.test(suffix)) throw new Unsupported('a long constant');
        var based = /^0[xX]/.test(digits) || (digits.length > 1 && digits[0] === '0');
        if (/^0[xX]/.test(digits)) v = parseInt(digits.slice(2), 16);
        else if (digits.length > 1 && digits[0] === '0') {
          if (/[89]/.test(digits)) throw new Unsupported("'" + digits + "'");
          v = parseInt(digits, 8);
        } else v = parseInt(digits, 10);
        var u = /[uU]/.test(suffix);
        if (!u && v > 2147483647) {
          if (based && v <= 4294967295) u = true;
          else throw new Unsupported('a long constant');
        }
        if (v > 4294967295) throw new Unsupported('a long constant');
        toks.push({ k: 'num', v: v, u: u });
      } else if (m[3] !== undefined) toks.push({ k: 'id', v: m[3] });
      else toks.push({ k: 'op', v: m[4] });
    }
    return toks;
  }

  var LEVELS = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='],
                ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'],
                ['*', '/', '%']];

  var NAMES = ['lane', 'warp', 'tid', 'warpSize', 'threadIdx', 'blockDim'];

  // The expression tree of `text`; `array` is the one other name allowed.
  function parse(text, array) {
    var toks = tokenize(text), p = 0;
    function isOp(v) { var t = toks[p]; return !!t && t.k === 'op' && t.v === v; }
    function expect(v) {
      if (!isOp(v)) throw new Unsupported("expected '" + v + "'");
      ++p;
    }
    function conditional() {
      var c = binary(0);
      if (!isOp('?')) return c;
      ++p;
      var a = conditional();
      expect(':');
      return { t: 'cond', c: c, a: a, b: conditional() };
    }
    function binary(level) {
      if (level === LEVELS.length) return unary();
      var a = binary(level + 1);
      for (;;) {
        var t = toks[p];
        if (!t || t.k !== 'op' || LEVELS[level].indexOf(t.v) < 0) return a;
        ++p;
        a = { t: 'bin', op: t.v, a: a, b: binary(level + 1) };
      }
    }
    function unary() {
      var t = toks[p];
      if (t && t.k === 'op' && (t.v === '-' || t.v === '+' || t.v === '~' || t.v === '!')) {
        ++p;
        return { t: 'un', op: t.v, a: unary() };
      }
      return postfix();
    }
    function postfix() {
      var e = primary();
      for (;;) {
        if (isOp('[')) {
          ++p;
          var i = conditional();
          expect(']');
          e = { t: 'idx', base: e, index: i };
        } else if (isOp('.')) {
          ++p;
          var f = toks[p];
          if (!f || f.k !== 'id') throw new Unsupported("'.'");
          ++p;
          e = { t: 'mem', obj: e, field: f.v };
        } else return e;
      }
    }
    function primary() {
      var t = toks[p];
      if (!t) throw new Unsupported('an incomplete expression');
      if (t.k === 'num') { ++p; return { t: 'num', v: t.v, u: t.u }; }
      if (t.k === 'id') {
        if (NAMES.indexOf(t.v) < 0 && t.v !== array) throw new Unsupported("'" + t.v + "'");
        ++p;
        return { t: 'id', name: t.v };
      }
      if (isOp('(')) {
        ++p;
        var e = conditional();
        expect(')');
        return e;
      }
      throw new Unsupported("'" + t.v + "'");
    }
    var e = conditional();
    if (p !== toks.length) throw new Unsupported("'" + toks[p].v + "'");
    return e;
  }

  function val(v, u) { return { v: u ? (v >>> 0) : (v | 0), u: u }; }
  function asU(x) { return x.u ? x.v : (x.v >>> 0); }

  function arith(op, a, b) {
    var u = a.u || b.u, x = u ? asU(a) : a.v, y = u ? asU(b) : b.v, q;
    switch (op) {
    case '+': return val(x + y, u);
    case '-': return val(x - y, u);
    case '*': return val(Math.imul(x, y), u);
    case '/': case '%':
      if (y === 0) throw new Unsupported('a division by zero');
      if (!u && x === -2147483648 && y === -1) throw new Unsupported('an overflow');
      q = u ? Math.floor(x / y) : Math.trunc(x / y);
      return val(op === '/' ? q : x - q * y, u);
    case '&': return val(x & y, u);
    case '|': return val(x | y, u);
    case '^': return val(x ^ y, u);
    case '<': return val(x < y ? 1 : 0, false);
    case '>': return val(x > y ? 1 : 0, false);
    case '<=': return val(x <= y ? 1 : 0, false);
    case '>=': return val(x >= y ? 1 : 0, false);
    case '==': return val(x === y ? 1 : 0, false);
    case '!=': return val(x !== y ? 1 : 0, false);
    }
    throw new Unsupported("'" + op + "'");
  }

  function threadId(env) { return env.tx + env.bx * (env.ty + env.by * env.tz); }

  function evaluate(e, env) {
    var a, b, s;
    switch (e.t) {
    case 'num': return { v: e.v, u: e.u };
    case 'id':
      if (e.name === 'lane') return val(threadId(env) % WARP, true);
      if (e.name === 'warp') return val(Math.floor(threadId(env) / WARP), true);
      if (e.name === 'tid') return val(threadId(env), true);
      if (e.name === 'warpSize') return val(WARP, false);
      throw new Unsupported("'" + e.name + "'");
    case 'mem':
      if (e.obj.t === 'id' && /^[xyz]$/.test(e.field)) {
        if (e.obj.name === 'threadIdx')
          return val(env['t' + e.field], true);
        if (e.obj.name === 'blockDim')
          return val(env['b' + e.field], true);
      }
      throw new Unsupported("'." + e.field + "'");
    case 'un':
      a = evaluate(e.a, env);
      if (e.op === '-') return val(-a.v, a.u);
      if (e.op === '~') return val(~a.v, a.u);
      if (e.op === '!') return val(a.v === 0 ? 1 : 0, false);
      return a;
    case 'bin':
      if (e.op === '&&')
        return val(evaluate(e.a, env).v !== 0 && evaluate(e.b, env).v !== 0 ? 1 : 0, false);
      if (e.op === '||')
        return val(evaluate(e.a, env).v !== 0 || evaluate(e.b, env).v !== 0 ? 1 : 0, false);
      a = evaluate(e.a, env);
      b = evaluate(e.b, env);
      if (e.op === '<<' || e.op === '>>') {
        s = b.v;
        if (s < 0 || s >= 32) throw new Unsupported('a shift by ' + s);
        if (e.op === '<<') return val(a.v << s, a.u);
        return a.u ? val(a.v >>> s, true) : val(a.v >> s, false);
      }
      return arith(e.op, a, b);
    case 'cond':
      var c = evaluate(e.c, env);
      a = evaluate(e.a, env);
      b = evaluate(e.b, env);
      var pick = c.v !== 0 ? a : b;
      return (a.u || b.u) ? val(asU(pick), true) : pick;
    case 'idx':
      throw new Unsupported('an index that reads shared memory');
    }
    throw new Unsupported('this expression');
  }

  // The subscripts of `name[i][j]`, or {error}.
  function parseAccess(text, name, rank) {
    var e;
    try {
      e = parse(text, name);
    } catch (x) {
      if (x instanceof Unsupported) return { error: x.why };
      throw x;
    }
    var subs = [];
    while (e.t === 'idx') { subs.unshift(e.index); e = e.base; }
    if (e.t !== 'id' || e.name !== name || subs.length !== rank)
      return { error: 'not of the form ' + name + (rank === 2 ? '[i][j]' : '[i]') };
    return { subs: subs };
  }

  //===------------------------------------------------------------------===//
  // Lanes and layouts.
  //===------------------------------------------------------------------===//

  function threads(block) { return block[0] * block[1] * block[2]; }
  function warpsOf(block) { return Math.ceil(threads(block) / WARP); }

  // Per lane of warp `warp`: {idx: element subscripts, sub: byte within the
  // element} or null (inactive), from the parsed index.
  function evalWarp(parsed, block, warp) {
    var out = [], n = threads(block);
    for (var l = 0; l < WARP; ++l) {
      var t = warp * WARP + l;
      if (t >= n) { out.push(null); continue; }
      var env = { bx: block[0], by: block[1], bz: block[2],
                  tx: t % block[0], ty: Math.floor(t / block[0]) % block[1],
                  tz: Math.floor(t / (block[0] * block[1])) };
      try {
        out.push({ idx: parsed.subs.map(function (s) { return evaluate(s, env).v; }),
                   sub: 0 });
      } catch (x) {
        // On another block than the analysed one: e.g. a division by zero.
        if (!(x instanceof Unsupported)) throw x;
        out.push({ error: x.why });
      }
    }
    return out;
  }

  // The same, from the analysis' picture: each lane's word, at the shape
  // as written.
  function coordsFromPicture(data, pic) {
    var E = data.elemBytes, C = data.dims[data.dims.length - 1];
    return pic.laneBank.map(function (bank, l) {
      if (bank < 0) return null;
      var byte = pic.laneWord[l] * BANK_BYTES, elem = floorDiv(byte, E);
      var sub = byte - elem * E;
      if (data.dims.length === 2)
        return { idx: [floorDiv(elem, C), elem - floorDiv(elem, C) * C], sub: sub };
      return { idx: [elem], sub: sub };
    });
  }

  var TYPES = [['char', 1], ['short', 2], ['float', 4], ['int', 4],
               ['float2', 8], ['double', 8], ['float4', 16]];

  // The element types offered: the array's own first.
  function typeChoices(data) {
    var out = [{ name: data.type, bytes: data.elemBytes }];
    TYPES.forEach(function (t) {
      if (t[0] !== data.type) out.push({ name: t[0], bytes: t[1] });
    });
    return out;
  }

  var SWIZZLES = {
    none: { label: 'none', text: '' },
    row: { label: 'col ^ row' },
    mod: { label: 'col ^ (row % n)' },
    mask: { label: 'col ^ ((row >> s) & m)' },
    tma32: { label: 'TMA 32B swizzle', bits: 1 },
    tma64: { label: 'TMA 64B swizzle', bits: 2 },
    tma128: { label: 'TMA 128B swizzle', bits: 3 }
  };
  var SWIZZLE_ORDER = ['none', 'row', 'mod', 'mask', 'tma32', 'tma64', 'tma128'];

  function isPow2(x) { return x > 0 && (x & (x - 1)) === 0; }
  function smallInt(x) { return x >= 0 && x < 2147483648; }

  // The settings of the analysis for access `a`: the layout as written, in
  // the rows its what-ifs used (a flattened array's row stride).
  function analysedState(data, a) {
    var dims = data.dims, acc = data.accesses[a];
    return {
      access: a, rowLen: (acc && acc.rowElems) || dims[dims.length - 1],
      pad: 0, type: 0,
      swizzle: 'none', swzN: 0, swzMask: 0, swzShift: 0,
      block: data.block.slice(), warp: 'worst'
    };
  }

  // The lanes of access `a`: its index read again when the evaluator gives
  // exactly the analysis' words on the analysed block, else the picture.
  function laneSource(data, a) {
    var acc = data.accesses[a], pic = acc.original, why = '';
    if (acc.text && data.blockKnown) {
      var parsed = parseAccess(acc.text, acc.array, data.dims.length);
      if (parsed.subs) {
        try {
          var coords = evalWarp(parsed, data.block, acc.warp);
          var st = analysedState(data, a);
          var L = layoutOf(data, acc, st);
          var bad = -1;
          for (var l = 0; l < WARP && bad < 0; ++l) {
            var active = pic.laneBank[l] >= 0;
            if (coords[l] && coords[l].error) throw new Unsupported(coords[l].error);
            if (!!coords[l] !== active) bad = l;
            else if (active && floorDiv(address(coords[l], L).o, BANK_BYTES) !== pic.laneWord[l]) bad = l;
          }
          if (bad < 0) return { kind: 'index', parsed: parsed };
          why = 'reading the index again in the page does not give the analysis\u2019 address for lane ' + bad;
        } catch (x) {
          if (!(x instanceof Unsupported)) throw x;
          why = 'the page cannot evaluate ' + x.why + ' in the index';
        }
      } else why = 'the page reads again only indices of lane, warp, tid, threadIdx, ' +
                   'blockDim and integer arithmetic, here: ' + parsed.error;
    } else if (!data.blockKnown) why = 'the block shape is not known';
    else why = 'the access\u2019 text is not known';
    return { kind: 'lanes', why: why, coords: coordsFromPicture(data, pic) };
  }

  // Row length, padding, element size, access width, swizzle of a state.
  function layoutOf(data, acc, st) {
    var t = typeChoices(data)[st.type] || typeChoices(data)[0];
    var E0 = data.elemBytes, W0 = acc.width, E = t.bytes, W = W0, whole = false;
    if (E !== E0) {
      // A wider access of k elements stays one of k elements when it can.
      var k = (W0 >= E0 && W0 % E0 === 0) ? W0 / E0 : 1;
      W = k * E <= 16 ? k * E : E;
      whole = true;
    }
    var C = Math.max(1, st.rowLen | 0), pad = Math.max(0, st.pad | 0);
    var rows = data.dims.length === 2 ? data.dims[0]
                                      : Math.ceil(data.dims[0] / C);
    return {
      rank: data.dims.length, typeName: t.name, E: E, W: W, whole: whole,
      C: C, pad: pad, rows: rows, stride: (C + pad) * E,
      unit: Math.max(E, W), swizzle: st.swizzle, swzN: st.swzN | 0,
      swzMask: st.swzMask | 0, swzShift: st.swzShift | 0,
      bytes: rows * (C + pad) * E
    };
  }

  // The byte offset of a lane at `c` under layout L, and what went wrong.
  function address(c, L) {
    var r, col;
    if (L.rank === 2) { r = c.idx[0]; col = c.idx[1]; }
    else { r = floorDiv(c.idx[0], L.C); col = c.idx[0] - r * L.C; }
    var sub = L.whole ? 0 : c.sub;
    var o = r * L.stride + col * L.E + sub, info = { row: r, col: col };
    var sw = L.swizzle;
    if (sw === 'row' || sw === 'mod' || sw === 'mask') {
      // Element (r, c) moves to (r, f(c, r)) in units of max(element,
      // access) bytes: the swizzle of the storage the padded layout gives
      // (BankPicture's swizzledOffset, with the rows of this layout).
      var row = floorDiv(o, L.stride), within = o - row * L.stride;
      var cu = floorDiv(within, L.unit), rem = within - cu * L.unit, key;
      if (sw === 'row') key = row;
      else if (sw === 'mod') key = L.swzN > 0 ? mod(row, L.swzN) : 0;
      else key = smallInt(row) ? (row >> Math.min(31, L.swzShift)) & L.swzMask : 0;
      if (!smallInt(cu) || !smallInt(key)) {
        info.unswizzled = true;
        return { o: o, info: info };
      }
      var cu2 = (cu ^ key) >>> 0;
      info.swizzledUnit = cu2;
      o = row * L.stride + cu2 * L.unit + rem;
    } else if (SWIZZLES[sw] && SWIZZLES[sw].bits) {
      // TMA's CU_TENSOR_MAP_SWIZZLE_32B/64B/128B: the 16-byte chunk (bits
      // 4-6 of the byte offset) XOR the bits above 128 bytes (7-9), as
      // CuTe's Swizzle<B, 4, 3>; the array 1024-byte aligned.
      if (!smallInt(o)) { info.unswizzled = true; return { o: o, info: info }; }
      var m = (1 << SWIZZLES[sw].bits) - 1;
      o = (o ^ (((o >> 7) & m) << 4)) >>> 0;
    }
    return { o: o, info: info };
  }

  function layoutText(data, acc, L) {
    var decl = L.typeName + ' ' + acc.array + (L.rank === 2 || L.C !== data.dims[0] || L.pad
      ? '[' + L.rows + '][' + (L.C + L.pad) + ']' : '[' + L.C + ']');
    var sw = '';
    if (L.swizzle === 'row') sw = acc.array + '[r][c ^ r]';
    else if (L.swizzle === 'mod') sw = acc.array + '[r][c ^ (r % ' + L.swzN + ')]';
    else if (L.swizzle === 'mask')
      sw = acc.array + '[r][c ^ ((r >> ' + L.swzShift + ') & ' + L.swzMask + ')]';
    else if (SWIZZLES[L.swizzle] && SWIZZLES[L.swizzle].bits)
      sw = 'byte offset o ^ (((o >> 7) & ' + ((1 << SWIZZLES[L.swizzle].bits) - 1) + ') << 4)';
    if (sw && L.unit > L.E && L.swizzle !== 'none' && !SWIZZLES[L.swizzle].bits)
      sw += ' on ' + L.unit + '-byte groups of columns';
    return { decl: decl, swizzle: sw };
  }

  function sameArrays(x, y) {
    if (x.length !== y.length) return false;
    for (var i = 0; i < x.length; ++i) if (x[i] !== y[i]) return false;
    return true;
  }

  // The rows of the array in rows of `C` elements.
  function rowsOf(data, C) {
    return data.dims.length === 2 ? data.dims[0]
                                  : Math.ceil(data.dims[0] / Math.max(1, C));
  }

  // Which of the analysis' pictures has the settings of `st`, if any.
  function matchingPicture(data, acc, st) {
    var base = analysedState(data, st.access);
    var same = st.rowLen === base.rowLen && st.type === 0 &&
               sameArrays(st.block, base.block);
    if (!same) return null;
    if (st.pad === 0 && st.swizzle === 'none')
      return { name: 'as written', pic: acc.original };
    if (acc.padded && st.pad === acc.paddedBy && st.swizzle === 'none')
      return { name: 'padded', pic: acc.padded };
    if (acc.swizzled && st.pad === 0 &&
        ((st.swizzle === 'mod' && st.swzN === acc.swizzleN) ||
         (st.swizzle === 'row' && rowsOf(data, base.rowLen) <= acc.swizzleN)))
      return { name: 'XOR swizzle', pic: acc.swizzled };
    return null;
  }

  // Differences between the page's result and one of the analysis'
  // pictures, by field (empty: they agree).
  function compare(r, pic, bytes) {
    var d = [];
    if (r.wavefronts !== pic.wavefronts) d.push('wavefronts');
    if (r.ideal !== pic.ideal) d.push('ideal');
    if (r.degree !== pic.degree) d.push('degree');
    if (r.phases !== pic.phases) d.push('phases');
    if (r.phaseLanes !== pic.phaseLanes) d.push('lanes per phase');
    if (!sameArrays(r.laneBank, pic.laneBank)) d.push('banks');
    if (!sameArrays(r.wordsPerBank, pic.wordsPerBank)) d.push('words per bank');
    if (!sameArrays(r.broadcast.map(Boolean), pic.broadcast.map(Boolean))) d.push('broadcasts');
    var words = r.laneWord.map(function (w, l) { return r.laneBank[l] < 0 ? 0 : w; });
    var pw = pic.laneWord.map(function (w, l) { return pic.laneBank[l] < 0 ? 0 : w; });
    if (!sameArrays(words, pw)) d.push('words');
    if (pic.sharedBytes >= 0 && bytes !== pic.sharedBytes) d.push('shared memory');
    return d;
  }

  // Everything the page shows for state `st`.
  function compute(data, st, source) {
    var acc = data.accesses[st.access];
    source = source || laneSource(data, st.access);
    var L = layoutOf(data, acc, st), notes = [], l;
    var blockOk = source.kind === 'index';
    var block = blockOk ? st.block : data.block;
    var warpList = blockOk ? [] : [acc.warp];
    if (blockOk) for (var w = 0; w < warpsOf(block); ++w) warpList.push(w);
    var results = [], worst = -1, error = '';
    var outside = null, leaves = null, unswizzled = false, failed = null;
    warpList.forEach(function (w, i) {
      var coords = blockOk ? evalWarp(source.parsed, block, w) : source.coords;
      var addr = [];
      for (l = 0; l < WARP; ++l) {
        if (coords[l] && coords[l].error && !failed) failed = { lane: l, warp: w, why: coords[l].error };
        if (!coords[l] || coords[l].error) { addr.push(null); continue; }
        var a = address(coords[l], L);
        addr.push(a.o);
        var rowCount = L.rows;
        if (!outside && (a.info.col < 0 || a.info.col >= L.C))
          outside = { lane: l, warp: w, col: a.info.col, what: 'column' };
        else if (!outside && (a.info.row < 0 || a.info.row >= rowCount))
          outside = { lane: l, warp: w, row: a.info.row, what: 'row' };
        if (a.info.unswizzled) unswizzled = true;
        if (!leaves && a.info.swizzledUnit !== undefined &&
            a.info.swizzledUnit * L.unit >= L.C * L.E)
          leaves = { lane: l, warp: w };
      }
      var r = analyze(addr, L.W, data.store);
      r.addresses = addr;
      r.coords = coords;
      results.push(r);
      if (worst < 0 || r.wavefronts > results[worst].wavefronts) worst = i;
    });
    var shownIndex = worst;
    if (st.warp !== 'worst') {
      var k = warpList.indexOf(st.warp | 0);
      if (k >= 0) shownIndex = k;
    }
    var r = results[shownIndex];
    var text = layoutText(data, acc, L);
    // Notes: what the numbers assume.
    if (!blockOk)
      notes.push('The page models the ' + WARP + ' lanes of warp ' + acc.warp +
                 ' at the element each reads in the analysis (' + source.why +
                 '); the block shape cannot be changed.');
    if (!blockOk && data.elemBytes < BANK_BYTES)
      notes.push('The analysis gives each lane\u2019s 4-byte word, not its byte: with ' +
                 data.elemBytes + '-byte elements the page places each lane on the first element of its word.');
    if (L.rank === 1 && (L.C !== data.dims[0] || L.pad))
      notes.push('A 1-D array: the page splits index i into row i / ' + L.C +
                 ' and column i % ' + L.C + ', rows padded by ' + L.pad + '.');
    if (outside) {
      var orig = L.C === data.dims[data.dims.length - 1] && L.rank === 2;
      notes.push(outside.what === 'column'
        ? 'Lane ' + outside.lane + ' (warp ' + outside.warp + ') indexes column ' + outside.col +
          ', outside a row of ' + L.C + ' elements: ' +
          (orig ? 'the access runs past the end of its row as written.'
                : 'the access pattern was written for rows of ' + data.dims[data.dims.length - 1] +
                  ' elements and only makes sense for that shape; the page keeps each lane\u2019s (row, column) and lays it out again.')
        : 'Lane ' + outside.lane + ' (warp ' + outside.warp + ') indexes row ' + outside.row +
          ', outside the ' + L.rows + ' rows of the array.');
    }
    if (L.whole)
      notes.push('As ' + L.typeName + ': each lane reads ' + L.W + ' bytes at its element (the element coordinates are kept' +
                 (acc.width !== data.elemBytes ? '; the analysed access was ' + acc.width + ' bytes of ' + data.elemBytes + '-byte elements' : '') + ').');
    var sw = L.swizzle;
    if (sw === 'row' || sw === 'mod' || sw === 'mask') {
      var units = L.C * L.E / L.unit;
      if (L.C * L.E % L.unit !== 0 || !isPow2(units))
        notes.push('A row holds ' + (L.C * L.E / L.unit) + ' units of ' + L.unit +
                   ' bytes, not a power of two: the XOR does not permute a row\u2019s columns.');
      else if (leaves)
        notes.push('For lane ' + leaves.lane + ' (warp ' + leaves.warp + ') the swizzled column leaves the row of ' +
                   units + ' units: ' + (sw === 'row' ? 'use col ^ (row % ' + units + ')' : 'keep the XOR below ' + units) + '.');
      if (sw === 'mod' && (!isPow2(L.swzN)))
        notes.push('n = ' + L.swzN + ' is not a power of two.');
      if (L.pad)
        notes.push('Padding and a swizzle together: the XOR acts on the units of the padded row.');
    } else if (SWIZZLES[sw] && SWIZZLES[sw].bits) {
      var span = 16 << SWIZZLES[sw].bits;
      if (L.stride !== span)
        notes.push('TMA\u2019s ' + span + 'B swizzle expects rows of ' + span + ' bytes (the box\u2019s inner dimension); these rows are ' +
                   L.stride + ' bytes, so the page applies the pattern to the byte offsets as they are.');
      notes.push('The TMA swizzles are modelled in the page only: shmem-lint\u2019s analysis does not compute them yet.');
    }
    if (failed)
      notes.push('With this block the index has ' + failed.why + ' for lane ' + failed.lane +
                 ' of warp ' + failed.warp + ': such lanes are left out.');
    if (unswizzled) notes.push('Some lanes\u2019 offsets are out of the swizzle\u2019s range and were left as they are.');
    var match = matchingPicture(data, acc, st), agree = null;
    if (match) {
      // Compare the warp the analysis drew.
      var ai = warpList.indexOf(acc.warp);
      var ar = ai >= 0 ? results[ai] : r;
      agree = { name: match.name, pic: match.pic, diffs: compare(ar, match.pic, L.bytes) };
    }
    return {
      result: r, warp: warpList[shownIndex], worstWarp: warpList[worst],
      warps: warpList, perWarp: results.map(function (x) { return x.wavefronts; }),
      layout: L, text: text, notes: notes, agree: agree, source: source,
      blockChangeable: blockOk, bytes: L.bytes,
      baseBytes: acc.original.sharedBytes
    };
  }

  return {
    BANKS: BANKS, WARP: WARP, analyze: analyze, phaseLanes: phaseLanes,
    foldsPairs: foldsPairs, describeCost: describeCost, laneList: laneList,
    phaseWordsPerBank: phaseWordsPerBank,
    parse: parse, parseAccess: parseAccess, evaluate: evaluate,
    Unsupported: Unsupported, typeChoices: typeChoices, SWIZZLES: SWIZZLES,
    SWIZZLE_ORDER: SWIZZLE_ORDER, analysedState: analysedState,
    laneSource: laneSource, layoutOf: layoutOf, address: address,
    compute: compute, compare: compare, matchingPicture: matchingPicture,
    warpsOf: warpsOf
  };
})();
/* shmem-lint explorer model: end */
)js";

//===----------------------------------------------------------------------===//
// The page's controls and pictures.
//===----------------------------------------------------------------------===//

const char *const ExplorerUiJs = R"js(
(function () {
  'use strict';
  var M = ShmemExplorerModel, SVG = 'http://www.w3.org/2000/svg';

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    setAttrs(e, attrs);
    (kids || []).forEach(function (k) {
      e.appendChild(typeof k === 'string' ? document.createTextNode(k) : k);
    });
    return e;
  }
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    setAttrs(e, attrs);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function setAttrs(e, attrs) {
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] === true) e.setAttribute(k, '');
      else if (attrs[k] !== false && attrs[k] !== null && attrs[k] !== undefined)
        e.setAttribute(k, String(attrs[k]));
    });
  }

  // Fill of a bank serving `words` distinct words (of at most `max`), as
  // the HTML report's pictures.
  function bankFill(words, max) {
    if (words === 0) return '#ececec';
    if (words === 1) return '#8fd17a';
    var t = max > 2 ? (words - 2) / (max - 2) : 1;
    return 'hsl(' + Math.trunc(32 - 32 * t) + ',85%,' + Math.trunc(60 - 18 * t) + '%)';
  }

  // The lane -> bank picture of one warp: lanes on top, banks below, a
  // line from each lane to the bank of its first word.
  // The colours say what costs: the most words a bank serves in one phase
  // (for 8- and 16-byte accesses the warp's count adds the phases up).
  function laneBankSvg(p, width, title) {
    var lanes = p.laneBank.length, banks = p.wordsPerBank.length;
    var cell = 14, left = 36, cols = Math.max(lanes, banks);
    var svgWidth = left + cols * cell + 6, height = 146, laneY = 30, bankY = 100, bankH = 18;
    var hot = M.phaseWordsPerBank(p, width);
    var max = Math.max.apply(null, hot.concat([0]));
    function laneX(i) { return left + i * cell + cell / 2; }
    var s = sv('svg', { 'class': 'lanebank', role: 'img', viewBox: '0 0 ' + svgWidth + ' ' + height,
                        width: svgWidth, height: height });
    s.appendChild(sv('title', {}, title));
    s.appendChild(sv('text', { 'class': 'axis', x: 2, y: laneY + 4 }, 'lane'));
    s.appendChild(sv('text', { 'class': 'axis', x: 2, y: bankY + 13 }, 'bank'));
    var i, b;
    if (p.phaseLanes && p.phaseLanes < lanes)
      for (var ph = p.phaseLanes; ph < lanes; ph += p.phaseLanes)
        s.appendChild(sv('line', { 'class': 'phase', x1: left + ph * cell, y1: 6,
                                   x2: left + ph * cell, y2: laneY + 12 }));
    for (i = 0; i < lanes; ++i) {
      b = p.laneBank[i];
      if (b < 0 || b >= banks) continue;
      s.appendChild(sv('line', {
        'class': (hot[b] > 1 ? 'edge bad' : 'edge ok') + (p.broadcast[i] ? ' bcast' : ''),
        x1: laneX(i), y1: laneY + 6, x2: laneX(b), y2: bankY }));
    }
    for (i = 0; i < lanes; ++i) {
      b = p.laneBank[i];
      var bc = b >= 0 && p.broadcast[i];
      s.appendChild(sv('text', { 'class': 'num', x: laneX(i), y: laneY - 10 }, String(i)));
      var c = sv('circle', { 'class': b < 0 ? 'lane off' : bc ? 'lane bcast' : 'lane',
                             cx: laneX(i), cy: laneY, r: 5.5 });
      c.appendChild(sv('title', {}, 'lane ' + i + (b < 0 ? ': inactive'
        : ': bank ' + b + ', word ' + p.laneWord[i] + (bc ? ' (shared with another lane: broadcast)' : ''))));
      s.appendChild(c);
    }
    for (b = 0; b < banks; ++b) {
      var w = p.wordsPerBank[b], x = left + b * cell + 1;
      var r = sv('rect', { 'class': 'bank', x: x, y: bankY, width: cell - 2, height: bankH,
                           fill: bankFill(hot[b], max) });
      r.appendChild(sv('title', {}, 'bank ' + b + ': ' + w + (w === 1 ? ' distinct word' : ' distinct words') +
                                    (hot[b] !== w && w ? ', at most ' + hot[b] + ' in one phase' : '')));
      s.appendChild(r);
      if (w) s.appendChild(sv('text', { 'class': 'words' + (hot[b] > 1 ? ' hot' : ''),
                                        x: x + (cell - 2) / 2, y: bankY + 13 }, String(w)));
      s.appendChild(sv('text', { 'class': 'num', x: x + (cell - 2) / 2, y: bankY + bankH + 11 }, String(b)));
    }
    s.appendChild(sv('text', { 'class': 'legend', x: left, y: height - 3 },
                     p.phaseLanes < lanes
                       ? 'number: distinct words, all phases; red: 2+ in one phase; dashed: broadcast'
                       : 'number in a bank: distinct words it serves; dashed: broadcast lane'));
    return s;
  }

  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  function bytesText(bytes, base) {
    var s = bytes + ' bytes';
    if (base >= 0) {
      var d = bytes - base;
      s += ' (' + (d >= 0 ? '+' : '') + d + ' vs as written)';
    }
    return s;
  }

  function phasesText(r, width) {
    var s = plural(r.phases, 'phase', 'phases') + ' of ' + r.phaseLanes + ' lanes';
    if (width > 4) {
      s += ' (' + width + '-byte ' + 'access: each lane touches ' + Math.ceil(width / 4) + ' banks';
      if (r.pairsFolded) s += '; lane pairs share their addresses, so the phases are twice as wide';
      s += ')';
    }
    if (r.phases > 1)
      s += '; wavefronts per phase: ' + r.phaseCosts.map(function (p) {
        return 'lanes ' + p.begin + '-' + (p.end - 1) + ': ' + p.cost;
      }).join(', ');
    return s;
  }

  function Explorer(root) {
    this.root = root;
    this.id = root.id || 'explorer';
    this.data = JSON.parse(root.getAttribute('data-shmem-explorer'));
    this.sources = {};
    this.build();
    this.reset();
  }

  Explorer.prototype.$ = function (name) {
    return document.getElementById(this.id + '-' + name);
  };

  Explorer.prototype.build = function () {
    var self = this, d = this.data, id = this.id;
    function field(name, label, input, hint) {
      input.id = id + '-' + name;
      return el('div', { 'class': 'sx-field', id: id + '-field-' + name }, [
        el('label', { 'for': id + '-' + name }, [label]), input].concat(
          hint ? [el('span', { 'class': 'sx-hint' }, [hint])] : []));
    }
    function number(min, max) {
      return el('input', { type: 'number', min: min, max: max, step: 1, inputmode: 'numeric' });
    }
    var access = el('select', {}, d.accesses.map(function (a, i) {
      return el('option', { value: i }, [(i + 1) + ': ' + (a.text || 'access ' + (i + 1))]);
    }));
    var type = el('select', {}, M.typeChoices(d).map(function (t, i) {
      return el('option', { value: i }, [t.name + ' (' + t.bytes + (t.bytes === 1 ? ' byte' : ' bytes') + ')' +
                                          (i === 0 ? ', as analysed' : '')]);
    }));
    var swizzle = el('select', {}, M.SWIZZLE_ORDER.map(function (k) {
      return el('option', { value: k }, [M.SWIZZLES[k].label]);
    }));
    var warp = el('select', {}, []);
    var form = el('form', { 'class': 'sx-controls', 'aria-label': 'layout' }, [
      el('fieldset', {}, [el('legend', {}, [d.accesses.length > 1 ? 'Access' : 'Warp']),
        field('access', 'Access', access),
        field('warp', 'Warp shown', warp)]),
      el('fieldset', {}, [el('legend', {}, ['Layout']),
        field('rowlen', 'Row length (elements)', number(1, 65536)),
        field('pad', 'Padding (elements per row)', number(0, 256)),
        field('type', 'Element type', type)]),
      el('fieldset', {}, [el('legend', {}, ['Swizzle']),
        field('swizzle', 'Swizzle', swizzle),
        field('swz-n', 'n', number(1, 65536)),
        field('swz-mask', 'mask m', number(0, 65535)),
        field('swz-shift', 'shift s', number(0, 16))]),
      el('fieldset', {}, [el('legend', {}, ['Block']),
        field('bx', 'x', number(1, 1024)),
        field('by', 'y', number(1, 1024)),
        el('span', { 'class': 'sx-hint', id: id + '-bz' }, [])]),
      el('div', { 'class': 'sx-buttons' }, [
        el('button', { type: 'button', id: id + '-reset' }, ['Reset to the layout as analysed'])])
    ]);
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    function fact(name, label) {
      return [el('dt', {}, [label]), el('dd', { id: id + '-' + name }, [])];
    }
    var facts = el('dl', { 'class': 'sx-facts' }, [].concat(
      fact('wavefronts', 'Wavefronts'), fact('ideal', 'Ideal'),
      fact('degree', 'Conflict degree'), fact('conflicts', 'Bank conflicts (ncu)'),
      fact('broadcasts', 'Broadcast lanes'), fact('phases', 'Phases'),
      fact('bytes', 'Shared memory'), fact('layout', 'Layout'),
      fact('shown-warp', 'Warp'), fact('worst', 'Worst bank')));
    // Screen readers hear the cost and the agreement after each change.
    var result = el('div', { 'class': 'sx-result' }, [
      el('p', { 'class': 'sx-cost', id: id + '-cost', role: 'status', 'aria-live': 'polite' }, []),
      facts,
      el('p', { 'class': 'sx-agree', id: id + '-agree', 'aria-live': 'polite' }, []),
      el('ul', { 'class': 'sx-notes', id: id + '-notes' }, [])]);
    var figs = el('div', { 'class': 'sx-figs' }, [
      el('figure', { 'class': 'sx-analysis' }, [
        el('figcaption', {}, [el('b', {}, ['From the analysis']), ' (shmem-bank-conflict), as written: ',
                              el('span', { id: id + '-analysis-cost' }, [])]),
        el('div', { id: id + '-analysis-svg' }, [])]),
      el('figure', { 'class': 'sx-page' }, [
        el('figcaption', {}, [el('b', {}, ['Computed in this page']), ' for the layout above: ',
                              el('span', { id: id + '-page-cost' }, [])]),
        el('div', { id: id + '-svg' }, [])])]);
    var prov = el('p', { 'class': 'sx-prov' }, [
      'From the analysis: the left picture and every number of the analysed layouts. ' +
      'Computed in this page, in JavaScript, by the same bank rules as shmem-lint\u2019s model ' +
      '(calibrated on an H200; the page\u2019s model is tested against those measurements): ' +
      'the right picture and the numbers above. The page keeps each lane\u2019s element (row, column) ' +
      'and lays it out again; it does not run the analysis again.']);
    this.root.textContent = '';
    this.root.appendChild(el('div', { 'class': 'sx-top' }, [form, result]));
    this.root.appendChild(figs);
    this.root.appendChild(prov);
    if (d.accesses.length < 2) this.$('field-access').hidden = true;
    ['access', 'warp', 'rowlen', 'pad', 'type', 'swizzle', 'swz-n', 'swz-mask', 'swz-shift',
     'bx', 'by'].forEach(function (n) {
      var c = self.$(n);
      c.addEventListener('input', function () { self.changed(n); });
      c.addEventListener('change', function () { self.changed(n); });
    });
    this.$('reset').addEventListener('click', function () { self.reset(); });
  };

  Explorer.prototype.source = function (a) {
    if (!this.sources[a]) this.sources[a] = M.laneSource(this.data, a);
    return this.sources[a];
  };

  Explorer.prototype.reset = function (access) {
    var a = access === undefined ? (this.state ? this.state.access : 0) : access;
    var st = M.analysedState(this.data, a), acc = this.data.accesses[a];
    st.swzN = acc.swizzleN || Math.max(1, Math.min(32, st.rowLen));
    st.swzMask = 7;
    this.state = st;
    this.show();
  };

  // Reads the control `name` into the state; invalid input is marked and
  // leaves the state as it was.
  Explorer.prototype.changed = function (name) {
    var c = this.$(name), st = this.state;
    if (name === 'access') {
      // The layout stays: the same layout for another access of the array.
      st.access = c.value | 0;
      st.warp = 'worst';
      this.show();
      return;
    }
    if (name === 'type' || name === 'swizzle' || name === 'warp') {
      if (name === 'type') st.type = c.value | 0;
      else if (name === 'swizzle') st.swizzle = c.value;
      else st.warp = c.value === 'worst' ? 'worst' : (c.value | 0);
      this.show();
      return;
    }
    var v = Number(c.value), ok = c.value !== '' && Number.isInteger(v) &&
      v >= Number(c.min) && v <= Number(c.max);
    if (ok && (name === 'bx' || name === 'by')) {
      var b = st.block.slice();
      b[name === 'bx' ? 0 : 1] = v;
      ok = b[0] * b[1] * b[2] <= 1024;
      if (ok) { st.block = b; if (st.warp !== 'worst' && st.warp >= M.warpsOf(b)) st.warp = 'worst'; }
    }
    c.setAttribute('aria-invalid', ok ? 'false' : 'true');
    if (!ok) return;
    if (name === 'rowlen') st.rowLen = v;
    else if (name === 'pad') st.pad = v;
    else if (name === 'swz-n') st.swzN = v;
    else if (name === 'swz-mask') st.swzMask = v;
    else if (name === 'swz-shift') st.swzShift = v;
    this.show();
  };

  function setValue(c, v) {
    if (document.activeElement !== c && String(c.value) !== String(v)) c.value = v;
  }

  Explorer.prototype.show = function () {
    var d = this.data, st = this.state, acc = d.accesses[st.access];
    var src = this.source(st.access);
    var out = M.compute(d, st, src), r = out.result, L = out.layout;
    // Controls.
    setValue(this.$('access'), st.access);
    setValue(this.$('rowlen'), st.rowLen);
    setValue(this.$('pad'), st.pad);
    setValue(this.$('type'), st.type);
    setValue(this.$('swizzle'), st.swizzle);
    setValue(this.$('swz-n'), st.swzN);
    setValue(this.$('swz-mask'), st.swzMask);
    setValue(this.$('swz-shift'), st.swzShift);
    setValue(this.$('bx'), out.blockChangeable ? st.block[0] : d.block[0]);
    setValue(this.$('by'), out.blockChangeable ? st.block[1] : d.block[1]);
    this.$('field-swz-n').hidden = st.swizzle !== 'mod';
    this.$('field-swz-mask').hidden = st.swizzle !== 'mask';
    this.$('field-swz-shift').hidden = st.swizzle !== 'mask';
    this.$('bx').disabled = this.$('by').disabled = !out.blockChangeable;
    this.$('bx').title = this.$('by').title = out.blockChangeable ? ''
      : 'The page knows only the lanes of the analysed warp for this access.';
    this.$('bz').textContent = d.block[2] > 1 ? 'z = ' + d.block[2] : '';
    var warpSel = this.$('warp'), want = ['worst'].concat(out.warps);
    if (warpSel.options.length !== want.length) {
      warpSel.textContent = '';
      want.forEach(function (w) {
        warpSel.appendChild(el('option', { value: w }, [w === 'worst' ? 'the worst' : 'warp ' + w]));
      });
    }
    setValue(warpSel, st.warp);
    // Numbers.
    var cost = M.describeCost(r);
    var costEl = this.$('cost');
    costEl.textContent = cost;
    costEl.className = 'sx-cost ' + (r.degree > 1 ? 'bad' : 'ok');
    this.$('page-cost').textContent = cost;
    this.$('wavefronts').textContent = String(r.wavefronts);
    this.$('ideal').textContent = String(r.ideal);
    this.$('degree').textContent = r.degree > 1 ? r.degree + '-way' : 'none (1)';
    this.$('conflicts').textContent = String(r.bankConflicts);
    var bcast = r.broadcast.filter(Boolean).length;
    this.$('broadcasts').textContent = bcast ? bcast + ' (lanes ' + M.laneList(
      r.broadcast.map(function (b, i) { return b ? i : -1; }).filter(function (i) { return i >= 0; })) +
      ' share a word with another lane of their phase)' : 'none';
    this.$('phases').textContent = phasesText(r, L.W);
    this.$('bytes').textContent = bytesText(out.bytes, out.baseBytes);
    this.$('layout').textContent = out.text.decl + (out.text.swizzle ? ', ' + out.text.swizzle : '') +
      '; ' + L.W + '-byte ' + (d.store ? 'store' : 'load');
    this.$('shown-warp').textContent = !out.blockChangeable
      ? 'warp ' + out.warp + ', as analysed'
      : 'warp ' + out.warp + ' of ' + M.warpsOf(st.block) +
        (out.warp === out.worstWarp ? (out.warps.length > 1 ? ' (the worst)' : '')
                                    : ' (the worst is warp ' + out.worstWarp + ')');
    this.$('worst').textContent = r.worst && r.wavefronts > r.ideal
      ? 'bank ' + r.worst.bank + ': ' + r.worst.words.length + ' distinct words for lanes ' + M.laneList(r.worst.lanes)
      : '\u2013';
    var agree = this.$('agree');
    if (out.agree) {
      var ok = out.agree.diffs.length === 0;
      agree.className = 'sx-agree ' + (ok ? 'ok' : 'bad');
      agree.textContent = ok
        ? 'This is the analysis\u2019 \u201c' + out.agree.name + '\u201d layout, and the page agrees with it: ' +
          M.describeCost(out.agree.pic) + ', and each lane\u2019s bank and word match.'
        : 'This is the analysis\u2019 \u201c' + out.agree.name + '\u201d layout, but the page differs in: ' +
          out.agree.diffs.join(', ') + ' (analysis: ' + M.describeCost(out.agree.pic) + ').';
    } else {
      agree.className = 'sx-agree';
      agree.textContent = 'A layout the analysis did not compute: these numbers are the page\u2019s own.';
    }
    var notes = this.$('notes');
    notes.textContent = '';
    out.notes.forEach(function (n) { notes.appendChild(el('li', {}, [n])); });
    // Pictures.
    var ap = this.$('analysis-svg');
    ap.textContent = '';
    ap.appendChild(laneBankSvg(acc.original, acc.width, 'as analysed: ' + M.describeCost(acc.original)));
    this.$('analysis-cost').textContent = M.describeCost(acc.original) + ', ' + acc.original.sharedBytes + ' bytes';
    var pp = this.$('svg');
    pp.textContent = '';
    pp.appendChild(laneBankSvg(r, L.W, 'computed in the page: ' + cost));
    // For tests and for whoever reads the DOM.
    var a = this.root;
    a.setAttribute('data-wavefronts', r.wavefronts);
    a.setAttribute('data-ideal', r.ideal);
    a.setAttribute('data-degree', r.degree);
    a.setAttribute('data-conflicts', r.bankConflicts);
    a.setAttribute('data-bytes', out.bytes);
    a.setAttribute('data-phases', r.phases);
    a.setAttribute('data-phase-lanes', r.phaseLanes);
    a.setAttribute('data-broadcasts', bcast);
    a.setAttribute('data-lane-banks', r.laneBank.join(','));
    a.setAttribute('data-words-per-bank', r.wordsPerBank.join(','));
    a.setAttribute('data-warp', out.warp);
    a.setAttribute('data-agrees', out.agree ? (out.agree.diffs.length ? 'no' : 'yes') : '');
    a.setAttribute('data-source', out.source.kind);
  };

  function start() {
    var roots = document.querySelectorAll('.shmem-explorer[data-shmem-explorer]');
    for (var i = 0; i < roots.length; ++i) {
      if (roots[i].getAttribute('data-started')) continue;
      roots[i].setAttribute('data-started', '1');
      try {
        roots[i].explorer = new Explorer(roots[i]);
      } catch (e) {
        roots[i].textContent = 'The layout explorer could not start: ' + e.message;
        throw e;
      }
    }
  }
  // A page that adds explorers later (the HTML report) starts them with this.
  window.ShmemExplorerStart = start;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
)js";

const char *const ExplorerCss = R"css(
.shmem-explorer{--sx-bad:#c0392b;--sx-ok:#1e8449;--sx-ink:#1d2433;--sx-mute:#5b6474;--sx-line:#d9dde5;color:var(--sx-ink);background:#fff;border:1px solid var(--sx-line);border-radius:6px;padding:12px 16px;margin:10px 0}
.shmem-explorer .sx-top{display:flex;flex-wrap:wrap;gap:12px 24px;align-items:flex-start}
.shmem-explorer form.sx-controls{display:flex;flex-wrap:wrap;gap:8px;flex:1 1 420px;max-width:560px}
.shmem-explorer fieldset{border:1px solid var(--sx-line);border-radius:5px;padding:4px 10px 8px;margin:0;display:flex;flex-wrap:wrap;gap:6px 12px;align-items:flex-end}
.shmem-explorer legend{font-size:12px;color:var(--sx-mute);padding:0 4px}
.shmem-explorer .sx-field{display:flex;flex-direction:column;font-size:12.5px}
.shmem-explorer .sx-field[hidden]{display:none}
.shmem-explorer label{color:var(--sx-mute);margin-bottom:2px}
.shmem-explorer input[type=number]{width:84px;font:inherit;padding:2px 4px}
.shmem-explorer select{font:inherit;padding:2px}
.shmem-explorer input[aria-invalid=true]{outline:2px solid var(--sx-bad)}
.shmem-explorer .sx-hint{font-size:12px;color:var(--sx-mute)}
.shmem-explorer .sx-buttons{display:flex;align-items:flex-end}
.shmem-explorer button{font:inherit;font-size:12.5px;padding:3px 10px}
.shmem-explorer .sx-result{flex:1 1 420px;font-size:13px}
.shmem-explorer .sx-cost{font-size:16px;font-weight:600;margin:2px 0 6px}
.shmem-explorer .sx-cost.bad,.shmem-explorer .sx-agree.bad{color:var(--sx-bad)}
.shmem-explorer .sx-cost.ok,.shmem-explorer .sx-agree.ok{color:var(--sx-ok)}
.shmem-explorer dl.sx-facts{display:grid;grid-template-columns:max-content 1fr;gap:1px 12px;margin:0}
.shmem-explorer dt{color:var(--sx-mute)}
.shmem-explorer dd{margin:0}
.shmem-explorer .sx-agree{margin:6px 0 2px}
.shmem-explorer ul.sx-notes{margin:4px 0;padding-left:18px;color:var(--sx-mute)}
.shmem-explorer .sx-figs{display:flex;flex-wrap:wrap;gap:8px 24px;margin-top:8px}
.shmem-explorer figure{margin:0;flex:0 1 500px;min-width:0}
.shmem-explorer figcaption{font-size:12.5px;margin-bottom:2px}
.shmem-explorer .sx-prov{font-size:12px;color:var(--sx-mute);margin:6px 0 0;max-width:1000px}
.shmem-explorer svg.lanebank{display:block;max-width:100%;height:auto}
.shmem-explorer svg .axis{font-size:10px;fill:var(--sx-mute)}
.shmem-explorer svg .num{font-size:7.5px;fill:#7a8292;text-anchor:middle}
.shmem-explorer svg .legend{font-size:9px;fill:var(--sx-mute)}
.shmem-explorer svg .words{font-size:9px;text-anchor:middle;fill:#1d2433}
.shmem-explorer svg .words.hot{fill:#fff;font-weight:bold}
.shmem-explorer svg .edge{stroke-width:1.1}
.shmem-explorer svg .edge.bad{stroke:var(--sx-bad);stroke-opacity:.55}
.shmem-explorer svg .edge.ok{stroke:var(--sx-ok);stroke-opacity:.6}
.shmem-explorer svg .edge.bcast{stroke-dasharray:3 2}
.shmem-explorer svg .lane{fill:#1d2433}
.shmem-explorer svg .lane.bcast{fill:#2a5db0}
.shmem-explorer svg .lane.off{fill:#fff;stroke:#b8bec9}
.shmem-explorer svg .bank{stroke:#fff}
.shmem-explorer svg .phase{stroke:#9aa2b1;stroke-dasharray:2 2}
)css";

const char *const PageCss = R"css(
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:12px 24px}
header h1{margin:0;font-size:19px}
header p{margin:3px 0 0;color:#c9cfdb}
header code{color:#fff}
main{padding:8px 24px 32px;max-width:1400px}
h2{font-size:16px;margin:14px 0 4px}
h3{font-size:14px;margin:10px 0 4px}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:12.5px}
.src{color:#5b6474;font-size:13px;margin:0 0 6px}
section.access{background:#fff;border:1px solid #d9dde5;border-left:4px solid #1e8449;border-radius:6px;padding:8px 14px;margin:8px 0}
section.access.reported{border-left-color:#e0a800}
.message{margin:2px 0 6px}
table.summary{border-collapse:collapse;font-size:13px}
table.summary th,table.summary td{text-align:left;padding:1px 14px 1px 0}
table.summary th{color:#5b6474;font-weight:600}
details pre{background:#f6f7f9;border:1px solid #d9dde5;border-radius:4px;padding:6px 10px;overflow-x:auto;margin:4px 0}
footer{color:#5b6474;font-size:12px;padding:0 24px 20px;max-width:1000px}
noscript p{color:#c0392b}
)css";

//===----------------------------------------------------------------------===//
// Writers
//===----------------------------------------------------------------------===//

} // namespace shmem
