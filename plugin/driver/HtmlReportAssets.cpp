//===- HtmlReportAssets.cpp - The HTML report's styles and script --------===//
//
// The text the report embeds once per page: its styles, the filter and
// grouping controls, and the script that draws the findings from the
// page's JSON (the data layout is described at the top of HtmlReport.cpp).
//
//===----------------------------------------------------------------------===//

#include "HtmlReportAssets.h"

namespace shmem {

const char *const ReportStyle = R"css(
:root{--bad:#c0392b;--ok:#1e8449;--ink:#1d2433;--mute:#5b6474;--line:#d9dde5;--link:#2a5db0}
*{box-sizing:border-box}
td.lab{color:var(--mute);font-size:12px;max-width:18em;white-space:normal}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:14px 24px}
header h1{margin:0;font-size:20px}
header p{margin:4px 0 0;color:#c9cfdb}
header a{color:#9ec1ff}
main{padding:12px 24px 40px;max-width:1400px}
main>section>h2{font-size:17px;margin:14px 0 8px}
.mute{color:var(--mute);font-weight:normal}
.nojs{background:#fff8e1;border:1px solid #f0d98c;border-radius:6px;padding:8px 12px}
.tables{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
table.counts{border-collapse:collapse;background:#fff;border:1px solid var(--line);border-radius:6px;font-size:13px}
table.counts caption{text-align:left;font-weight:600;padding:0 0 4px}
table.counts th,table.counts td{padding:3px 8px;border-bottom:1px solid #eceff4;text-align:left;vertical-align:top}
table.counts th{font-size:12px;color:var(--mute);font-weight:600}
table.counts .n{text-align:right;font-variant-numeric:tabular-nums}
table.counts tfoot td{color:var(--mute)}
table.counts tr.pick{cursor:pointer}
table.counts tr.pick:hover td,table.counts tr.pick:focus td{background:#eef4ff;outline:none}
table.counts tr.on td{background:#dce8ff}
.path{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px;word-break:break-all}
#filters{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:flex-end;background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 12px;position:sticky;top:0;z-index:2}
#filters label{display:flex;flex-direction:column;font-size:12px;color:var(--mute)}
#filters select,#filters input[type=number],#filters input[type=search]{font:inherit;font-size:13px;padding:2px 4px;max-width:240px}
#filters input[type=number]{width:6em}
#filters fieldset{border:0;margin:0;padding:0;display:flex;gap:8px;align-items:center;font-size:13px}
#filters fieldset legend{font-size:12px;color:var(--mute);padding:0;float:left;margin-right:4px}
#filters fieldset label{flex-direction:row;gap:3px;align-items:center;color:var(--ink);font-size:13px}
#f-count{color:var(--mute);margin:0;flex:1 1 14em;align-self:center}
button{font:inherit;font-size:13px;cursor:pointer}
.group{margin:18px 0 8px;scroll-margin-top:120px}
.group>h2{font-size:16px;margin:0;padding:6px 10px;background:#e6eaf1;border-radius:6px}
.group>h2 .n{font-weight:normal;color:var(--mute);font-size:13px}
.group>.decl{margin:4px 0 0 10px}
.finding{background:#fff;border:1px solid var(--line);border-left:5px solid #e0a800;border-radius:6px;margin:14px 0;padding:10px 16px;scroll-margin-top:120px;content-visibility:auto;contain-intrinsic-size:auto 560px}
.finding.shmem-race,.finding.shmem-divergent-barrier,.finding.shmem-out-of-bounds,.finding.shmem-named-barrier,.finding.shmem-layout-mismatch{border-left-color:var(--bad)}
.finding h3{font-size:15px;margin:0 0 4px;font-weight:600}
.check{display:inline-block;font-size:12px;padding:1px 8px;border-radius:10px;background:#fdf2cc;color:#6b5200;margin-right:8px}
.shmem-race .check,.shmem-divergent-barrier .check,.shmem-out-of-bounds .check,.shmem-named-barrier .check,.shmem-layout-mismatch .check{background:#f9dcd8;color:#7b1d12}
.level-error{display:inline-block;font-size:12px;padding:1px 8px;border-radius:10px;background:#b3261e;color:#fff;margin-right:8px}
.loc{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px;color:var(--mute)}
.kernel{font-size:12px;color:var(--mute);margin-left:10px;font-weight:normal}
.message{margin:4px 0 8px;font-size:14.5px}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:12.5px}
code{background:#eef1f6;padding:0 3px;border-radius:3px}
pre.src{background:#fbfbfc;border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin:4px 0 8px;overflow-x:auto;line-height:1.35}
pre.src .ln{color:#9aa2b1}
pre.src .l{display:block;min-height:1.35em}
pre.src .hl{background:#fff3bf}
pre.src .caret{color:var(--bad);font-weight:bold}
b.thread{color:#7b1d12;background:#fbe7e4;padding:0 3px;border-radius:3px;font-weight:600}
.notes{list-style:none;padding:0;margin:6px 0}
.notes li{margin:6px 0}
.kind{font-weight:600;color:var(--mute)}
.pair{display:flex;flex-wrap:wrap;gap:12px}
.pair>div{flex:1 1 420px;min-width:0}
.pair h4{font-size:13px;margin:4px 0;color:var(--mute)}
.picture{margin:6px 0 4px}
.pic-head{margin:4px 0;color:var(--mute)}
.layouts{display:flex;flex-wrap:wrap;gap:10px}
figure.layout{flex:0 1 510px;min-width:0;margin:0;border:1px solid var(--line);border-radius:6px;padding:6px 8px;background:#fff}
figure.layout.original{border-top:4px solid #7d8799}
figure.layout.padded{border-top:4px solid var(--ok)}
figure.layout.swizzled{border-top:4px solid var(--link)}
figcaption{font-size:13px;margin-bottom:2px}
figcaption .what{font-weight:600}
.cost.bad{color:var(--bad);font-weight:600}
.cost.ok{color:var(--ok);font-weight:600}
.bytes{color:var(--mute)}
svg.lanebank{display:block;max-width:100%;height:auto}
svg .axis{font-size:10px;fill:var(--mute)}
svg .num{font-size:7.5px;fill:#7a8292;text-anchor:middle}
svg .legend{font-size:9px;fill:var(--mute)}
svg .words{font-size:9px;text-anchor:middle;fill:#1d2433}
svg .words.hot{fill:#fff;font-weight:bold}
svg .edge{stroke-width:1.1}
svg .edge.bad{stroke:var(--bad);stroke-opacity:.55}
svg .edge.ok{stroke:var(--ok);stroke-opacity:.6}
svg .edge.bcast{stroke-dasharray:3 2}
svg .lane{fill:#1d2433}
svg .lane.bcast{fill:var(--link)}
svg .lane.off{fill:#fff;stroke:#b8bec9}
svg .bank{stroke:#fff}
svg .phase{stroke:#9aa2b1;stroke-dasharray:2 2}
.aside{color:var(--mute);font-size:13px;margin:6px 0}
details.lanes{margin:6px 0}
details.lanes table{border-collapse:collapse;font-size:12px;margin-top:4px}
details.lanes th,details.lanes td{border:1px solid var(--line);padding:1px 6px;text-align:right}
details.lanes td.hot{color:var(--bad);font-weight:600}
details.lanes td.off{color:#b8bec9}
pre.detail{background:#fbfbfc;border:1px solid var(--line);padding:6px 8px}
.fix,.evidence{font-size:13px;margin:4px 0}
button.explore{margin-top:4px}
pre.explore-cmd{background:#1d2433;color:#e8ecf3;padding:6px 8px;border-radius:4px;white-space:pre-wrap}
#more,#first{margin:8px 0}
.empty{font-size:15px;color:var(--ok)}
.gaps{background:#fff;border:1px solid var(--line);border-left:5px solid #7d8799;border-radius:6px;margin:14px 0;padding:10px 16px}
.gaps h2{font-size:15px;margin:0 0 4px}
.gap h3{font-size:14px;margin:10px 0 2px;font-weight:600}
footer{color:var(--mute);font-size:12px;padding:0 24px 20px}
)css";

const char *const ReportControls = R"html(<section id="report" hidden>
<h2>Findings</h2>
<form id="filters" autocomplete="off">
<label>check <select id="f-check"></select></label>
<label>file <select id="f-file"></select></label>
<label>kernel <select id="f-kernel"></select></label>
<label>at least N-way <input id="f-degree" type="number" min="0" max="64" step="1" placeholder="any"></label>
<label>search <input id="f-text" type="search" placeholder="message, array, kernel, file"></label>
<fieldset id="f-group"><legend>group by</legend><label><input type="radio" name="group" value="none" checked>none</label><label><input type="radio" name="group" value="file">file</label><label><input type="radio" name="group" value="check">check</label><label><input type="radio" name="group" value="kernel">kernel</label><label><input type="radio" name="group" value="array">array</label></fieldset>
<button type="button" id="f-reset">reset</button>
<p id="f-count" role="status"></p>
</form>
<button type="button" id="first" hidden>show from the first finding</button>
<div id="findings"></div>
<button type="button" id="more" hidden></button>
</section>
)html";

/// Draws the findings from the data (see the top of this file).
const char *const ReportScript = R"js(
(function () {
'use strict';
var D = JSON.parse(document.getElementById('shmem-data').textContent);
var FS = D.findings;
// A finding's fields (HtmlReport.cpp says what each is).
var CHECK = 0, FILE = 1, LINE = 2, COL = 3, MSG = 4, KERNEL = 5, ARRAY = 6,
  DEGREE = 7, PIC = 8, FLAGS = 9, NOTES = 10, FIXES = 11, DETAIL = 12, PAIR = 13,
  EVIDENCE = 14;
var PAGE = 50;
var st = { check: -1, file: -1, kernel: -1, degree: 0, text: '', group: 'none' };
var $ = function (id) { return document.getElementById(id); };
var ENT = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function esc(s) { return String(s).replace(/[&<>"']/g, function (c) { return ENT[c]; }); }
function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }
function spaces(n) { return n > 0 ? ' '.repeat(n) : ''; }
function loc(file, line, col) {
  if (file < 0) return '(no location)';
  var s = D.files[file];
  if (line) { s += ':' + line; if (col) s += ':' + col; }
  return s;
}

// The message with 'quoted' source text as code and witness threads marked.
var TOKEN = /'[^'\s][^']*'|threads? \([0-9]+(?:, ?[0-9]+){0,2}\)|threads? [0-9]+(?![0-9])/g;
function rich(m) {
  var out = '', pos = 0, t;
  TOKEN.lastIndex = 0;
  while ((t = TOKEN.exec(m))) {
    out += esc(m.slice(pos, t.index));
    out += t[0][0] === "'" ? '<code>' + esc(t[0].slice(1, -1)) + '</code>'
      : '<b class="thread">' + esc(t[0]) + '</b>';
    pos = t.index + t[0].length;
  }
  return out + esc(m.slice(pos));
}

// Source excerpts: clang's columns count bytes; tabs go to multiples of 8.
function utf8Len(ch) { var c = ch.codePointAt(0); return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }
function expandTabs(s) {
  var o = '', n = 0;
  for (var ch of s) {
    if (ch === '\t') { o += spaces(8 - n % 8); n += 8 - n % 8; } else { o += ch; n++; }
  }
  return o;
}
function caretColumn(text, col) {
  var bytes = 0, n = 0;
  for (var ch of text) {
    if (bytes >= col - 1) break;
    bytes += utf8Len(ch);
    n = ch === '\t' ? n + 8 - n % 8 : n + 1;
  }
  return n;
}
function lineOf(file, line) {
  var l = D.lines[file];
  return l === undefined ? undefined : l[line];
}
function excerpt(file, line, col, around) {
  if (file < 0 || lineOf(file, line) === undefined) return '';
  var first = Math.max(1, line - around), last = line + around;
  while (last > line && lineOf(file, last) === undefined) last--;
  var w = String(last).length, o = '<pre class="src">';
  for (var n = first; n <= last; n++) {
    var t = lineOf(file, n);
    if (t === undefined) continue;
    var num = String(n);
    o += '<span class="' + (n === line ? 'l hl' : 'l') + '"><span class="ln">' +
      spaces(w - num.length) + num + '</span> ' + esc(expandTabs(t)) + '</span>';
    if (n === line)
      o += '<span class="l"><span class="ln">' + spaces(w) + '</span> ' +
        spaces(caretColumn(t, col)) + '<span class="caret">^</span></span>';
  }
  return o + '</pre>';
}

// Lane -> bank pictures, drawn once per layout and heading.
// A layout: [layout, cost, laneBank, laneWord, broadcast, wordsPerBank,
// degree, phaseLanes, sharedBytes].
function bankFill(w, max) {
  if (w === 0) return '#ececec';
  if (w === 1) return '#8fd17a';
  var t = max > 2 ? (w - 2) / (max - 2) : 1;
  return 'hsl(' + Math.trunc(32 - 32 * t) + ',85%,' + Math.trunc(60 - 18 * t) + '%)';
}
var drawn = {};
function laneBankSvg(li, title) {
  var key = li + '\n' + title;
  if (drawn[key]) return drawn[key];
  var L = D.layouts[li], bank = L[2], word = L[3], bc = L[4], wpb = L[5], phase = L[7];
  var lanes = bank.length, banks = wpb.length, cell = 14, left = 36;
  var width = left + Math.max(lanes, banks) * cell + 6, height = 146;
  var laneY = 30, bankY = 100, bankH = 18, max = 0, i, b;
  for (i = 0; i < banks; i++) max = Math.max(max, wpb[i]);
  var lx = function (k) { return left + k * cell + cell / 2; };
  var o = '<svg class="lanebank" role="img" viewBox="0 0 ' + width + ' ' + height +
    '" width="' + width + '" height="' + height + '"><title>' + esc(title) + '</title>' +
    '<text class="axis" x="2" y="' + (laneY + 4) + '">lane</text>' +
    '<text class="axis" x="2" y="' + (bankY + 13) + '">bank</text>';
  if (phase && phase < lanes)
    for (var p = phase; p < lanes; p += phase)
      o += '<line class="phase" x1="' + (left + p * cell) + '" y1="6" x2="' +
        (left + p * cell) + '" y2="' + (laneY + 12) + '"/>';
  for (i = 0; i < lanes; i++) {
    b = bank[i];
    if (b < 0 || b >= banks) continue;
    o += '<line class="edge ' + (wpb[b] > 1 ? 'bad' : 'ok') + (bc[i] === '1' ? ' bcast' : '') +
      '" x1="' + lx(i) + '" y1="' + (laneY + 6) + '" x2="' + lx(b) + '" y2="' + bankY + '"/>';
  }
  for (i = 0; i < lanes; i++) {
    b = bank[i];
    var cast = b >= 0 && bc[i] === '1';
    o += '<text class="num" x="' + lx(i) + '" y="' + (laneY - 10) + '">' + i + '</text>' +
      '<circle class="' + (b < 0 ? 'lane off' : cast ? 'lane bcast' : 'lane') + '" cx="' +
      lx(i) + '" cy="' + laneY + '" r="5.5"><title>lane ' + i +
      (b < 0 ? ': inactive' : ': bank ' + b + ', word ' + word[i] +
        (cast ? ' (shared with another lane: broadcast)' : '')) + '</title></circle>';
  }
  for (b = 0; b < banks; b++) {
    var w = wpb[b], x = left + b * cell + 1, mid = x + (cell - 2) / 2;
    o += '<rect class="bank" x="' + x + '" y="' + bankY + '" width="' + (cell - 2) +
      '" height="' + bankH + '" fill="' + bankFill(w, max) + '"><title>bank ' + b + ': ' + w +
      (w === 1 ? ' distinct word' : ' distinct words') + '</title></rect>';
    if (w)
      o += '<text class="words' + (w > 1 ? ' hot' : '') + '" x="' + mid + '" y="' +
        (bankY + 13) + '">' + w + '</text>';
    o += '<text class="num" x="' + mid + '" y="' + (bankY + bankH + 11) + '">' + b + '</text>';
  }
  o += '<text class="legend" x="' + left + '" y="' + (height - 3) +
    '">number in a bank: distinct words it serves; dashed: broadcast lane</text></svg>';
  drawn[key] = o;
  return o;
}
function bytesText(bytes, base) {
  if (bytes < 0) return '';
  var s = bytes + ' bytes';
  if (base >= 0) {
    var d = bytes - base;
    s += ' (' + (d >= 0 ? '+' : '') + d + ')';
  }
  return s;
}
function figure(li, base, kind, heading) {
  var L = D.layouts[li];
  var o = '<figure class="layout ' + kind + '"><figcaption><span class="what">' +
    esc(heading) + '</span>';
  if (L[0]) o += ' <code>' + esc(L[0]) + '</code>';
  o += '<br><span class="cost ' + (L[6] > 1 ? 'bad' : 'ok') + '">' + esc(L[1]) + '</span>';
  var b = bytesText(L[8], base >= 0 ? D.layouts[base][8] : -1);
  if (b) o += '<br><span class="bytes">shared memory: ' + esc(b) + '</span>';
  return o + '</figcaption>' + laneBankSvg(li, heading + ': ' + L[1]) + '</figure>';
}
// A picture: [array, warp, widthBytes, store, original, padded, swizzled,
// paddingSuggested, whatIfNote].
function picture(pi) {
  var P = D.pictures[pi], O = D.layouts[P[4]], active = 0;
  O[2].forEach(function (b) { if (b >= 0) active++; });
  var o = '<div class="picture"><p class="pic-head">Warp ' + P[1] + ', ' + P[2] + '-byte ' +
    (P[3] ? 'store' : 'load') + ' of <code>' + esc(P[0]) + '</code>: ' + active + ' active lanes';
  if (P[2] > 4)
    o += '; each lane touches ' + Math.floor((P[2] + 3) / 4) +
      ' banks (the first is drawn); served in phases of ' + O[7] + ' lanes';
  o += '.</p><div class="layouts">' + figure(P[4], -1, 'original', 'As written');
  if (P[5] >= 0)
    o += figure(P[5], P[4], 'padded', P[7] ? 'After the suggested padding'
      : 'Padded (what-if, not suggested)');
  if (P[6] >= 0) o += figure(P[6], P[4], 'swizzled', 'XOR swizzle (what-if)');
  o += '</div>';
  var aside = [];
  if (P[6] >= 0)
    aside.push('A swizzle must index every access to <code>' + esc(P[0]) +
      '</code> the same way, where it is written and where it is read.');
  if (P[5] >= 0 && !P[7])
    aside.push('The padding shown is not suggested: it does not make every access ' +
      'to the array conflict-free or no worse.');
  if (aside.length) o += '<p class="aside">' + aside.join(' ') + '</p>';
  if (P[8]) o += '<p class="aside">' + esc(P[8].charAt(0).toUpperCase() + P[8].slice(1)) + '.</p>';
  return o + '<details class="lanes" data-picture="' + pi + '"><summary>lane &rarr; bank table (warp ' +
    P[1] + ')</summary></details></div>';
}
function laneTable(pi) {
  var P = D.pictures[pi], cols = [[P[4], 'as written']];
  if (P[5] >= 0) cols.push([P[5], 'padded']);
  if (P[6] >= 0) cols.push([P[6], 'XOR swizzle']);
  var o = '<table><thead><tr><th>lane</th>';
  cols.forEach(function (c) { o += '<th>' + c[1] + ' bank</th><th>word</th>'; });
  o += '</tr></thead><tbody>';
  var lanes = D.layouts[P[4]][2].length;
  for (var i = 0; i < lanes; i++) {
    o += '<tr><td>' + i + '</td>';
    cols.forEach(function (c) {
      var L = D.layouts[c[0]], b = L[2][i];
      if (b === undefined || b < 0) {
        o += '<td class="off">&ndash;</td><td class="off">&ndash;</td>';
        return;
      }
      o += '<td' + (L[5][b] > 1 ? ' class="hot"' : '') + '>' + b + '</td><td>' + L[3][i] +
        (L[4][i] === '1' ? ' (broadcast)' : '') + '</td>';
    });
    o += '</tr>';
  }
  return o + '</tbody></table>';
}

// The layout explorer's hook: what the page knows of the access.
function accessAt(text, col) {
  var chars = Array.from(text), k = 0, bytes = 0;
  while (k < chars.length && bytes < col - 1) bytes += utf8Len(chars[k++]);
  var s = chars.slice(k).join(''), m = /^[A-Za-z_]\w*/.exec(s);
  if (!m) return '';
  var end = m[0].length, j = end;
  for (;;) {
    while (s[j] === ' ') j++;
    if (s[j] !== '[') break;
    var depth = 0, q = j;
    for (; q < s.length; q++) {
      if (s[q] === '[') depth++;
      else if (s[q] === ']' && --depth === 0) break;
    }
    if (q >= s.length) break;
    end = j = q + 1;
  }
  return end > m[0].length ? s.slice(0, end) : '';
}
function explorerData(i) {
  var f = FS[i], P = D.pictures[f[PIC]], L = D.layouts[P[4]];
  var d = { finding: i + 1, array: P[0] };
  var m = /^(.*\S)\s+([A-Za-z_]\w*)\s*((?:\[\d+\])+)$/.exec(L[0]);
  if (m && m[2] === P[0]) {
    d.type = m[1];
    d.shape = m[3].slice(1, -1).split('][').join('x');
  }
  var text = lineOf(f[FILE], f[LINE]);
  if (text !== undefined) {
    var a = accessAt(text, f[COL]);
    if (a && a.slice(0, P[0].length) === P[0]) d.index = a;
  }
  f[NOTES].forEach(function (n) {
    var b = /^analysed for a block of ([0-9]+(?:x[0-9]+){0,2}) threads/.exec(D.strings[n[3]]);
    if (b) d.block = b[1];
  });
  d.store = !!P[3];
  d.warp = P[1];
  d.width = P[2];
  return d;
}
function shellQuote(s) {
  return /^[\w.,:+=\/-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
}
function explore(btn) {
  var d = JSON.parse(btn.getAttribute('data-explorer'));
  var ev = new CustomEvent('shmem-lint:explore', { detail: d, cancelable: true });
  if (!document.dispatchEvent(ev)) return;
  // explain names the array 'tile'; what the page cannot tell is left to
  // fill in.
  var index = d.index ? 'tile' + d.index.slice(d.array.length) : '';
  var cmd = 'shmem-lint explain --shape ' + (d.shape || 'RxC') +
    (d.type ? ' --type ' + shellQuote(d.type) : '') +
    ' --index ' + (index ? shellQuote(index) : 'EXPR') +
    (d.block ? ' --block ' + d.block : '') + (d.store ? ' --store' : '') +
    ' --format=html > explorer.html';
  var missing = [d.shape ? '' : '--shape', index ? '' : '--index'].filter(Boolean);
  if (missing.length)
    cmd += '\n# fill in ' + missing.join(' and ') + ': the report cannot tell ' +
      (missing.length > 1 ? 'them' : 'it') + ' for this access';
  var pre = btn.nextElementSibling;
  if (!pre || pre.className !== 'explore-cmd') {
    pre = document.createElement('pre');
    pre.className = 'explore-cmd';
    btn.after(pre);
  }
  pre.textContent = cmd;
  // The explorer itself, in the card, when the page carries its data for
  // this picture (ExplorerPage.h; its script is on the page then).
  var data = (D.explorers || [])[FS[d.finding - 1][PIC]];
  var id = 'explorer-' + d.finding;
  if (data && window.ShmemExplorerStart && !document.getElementById(id)) {
    var div = document.createElement('div');
    div.className = 'shmem-explorer';
    div.id = id;
    div.setAttribute('data-shmem-explorer', JSON.stringify(data));
    pre.after(div);
    window.ShmemExplorerStart();
  }
}

function card(i) {
  var f = FS[i], check = D.checks[f[CHECK]], err = f[FLAGS] & 1, pair = f[PAIR];
  var notes = f[NOTES], here = loc(f[FILE], f[LINE], f[COL]);
  var o = '<section class="finding ' + esc(check) + (err ? ' error' : '') + '" id="finding-' +
    (i + 1) + '" data-index="' + i + '"><h3>' +
    (err ? '<span class="level-error">error</span>' : '') +
    '<span class="check">' + esc(check) + '</span><span class="loc">' + esc(here) + '</span>';
  if (f[KERNEL] >= 0)
    o += '<span class="kernel">kernel <code>' + esc(D.kernels[f[KERNEL]][0]) + '</code></span>';
  o += '</h3><p class="message">' + rich(f[MSG]) + '</p>';
  if (pair >= 0) {
    var w = notes[pair];
    o += '<div class="pair"><div><h4>' + (check === 'shmem-race' ? 'this access' : 'the barrier') +
      ' <span class="loc">' + esc(here) + '</span></h4>' + excerpt(f[FILE], f[LINE], f[COL], 1) +
      '</div><div><h4>' + rich(D.strings[w[3]]) + ' <span class="loc">' + esc(loc(w[0], w[1], w[2])) +
      '</span></h4>' + excerpt(w[0], w[1], w[2], 1) + '</div></div>';
  } else {
    o += excerpt(f[FILE], f[LINE], f[COL], 2);
  }
  if (f[PIC] >= 0) o += picture(f[PIC]);
  else if (f[DETAIL]) o += '<pre class="detail">' + esc(f[DETAIL]) + '</pre>';
  var ns = '';
  notes.forEach(function (n, k) {
    if (k === pair) return;
    ns += '<li><span class="kind">note</span> <span class="loc">' + esc(loc(n[0], n[1], n[2])) +
      '</span> ' + rich(D.strings[n[3]]) + excerpt(n[0], n[1], n[2], 0) + '</li>';
  });
  if (ns) o += '<ul class="notes">' + ns + '</ul>';
  // What nvcc emitted (--sass) and ncu measured (--ncu-report) at this line.
  (f[EVIDENCE] || []).forEach(function (e) {
    o += '<p class="evidence"><span class="kind">' + (e[0] ? 'measured' : 'compiled') +
      '</span> ' + rich(D.strings[e[1]]) + '</p>';
  });
  f[FIXES].forEach(function (x) {
    o += '<p class="fix"><span class="kind">fix-it</span> <span class="loc">' +
      esc(x[0] >= 0 ? D.files[x[0]] : '') + ':' + x[1] + ':' + x[2] + '</span>: replace ' +
      plural(x[3], 'byte', 'bytes') + ' with <code>' + esc(x[4]) + '</code></p>';
  });
  if (f[PIC] >= 0)
    o += '<button type="button" class="explore" data-explorer="' +
      esc(JSON.stringify(explorerData(i))) + '">explore this layout</button>';
  return o + '</section>';
}

// Filters and groups.
var hay = [];
function haystack(i) {
  if (hay[i] === undefined) {
    var f = FS[i], s = [f[MSG], D.checks[f[CHECK]], loc(f[FILE], f[LINE], f[COL])];
    if (f[KERNEL] >= 0) s.push(D.kernels[f[KERNEL]][0]);
    if (f[ARRAY] >= 0) s.push(D.arrays[f[ARRAY]][0]);
    f[NOTES].forEach(function (n) { s.push(D.strings[n[3]]); });
    (f[EVIDENCE] || []).forEach(function (e) { s.push(D.strings[e[1]]); });
    hay[i] = s.join('\n').toLowerCase();
  }
  return hay[i];
}
function matches(i, terms) {
  var f = FS[i];
  if (st.check >= 0 && f[CHECK] !== st.check) return false;
  if (st.file >= 0 && f[FILE] !== st.file) return false;
  if (st.kernel >= 0 && f[KERNEL] !== st.kernel) return false;
  if (st.degree > 1 && f[DEGREE] < st.degree) return false;
  for (var t = 0; t < terms.length; t++)
    if (haystack(i).indexOf(terms[t]) < 0) return false;
  return true;
}
var GROUPS = {
  file: function (f) { return f[FILE]; },
  check: function (f) { return f[CHECK]; },
  kernel: function (f) { return f[KERNEL]; },
  array: function (f) { return f[ARRAY]; },
};
function groupHead(kind, g, n) {
  var o = '<div class="group" data-group="' + kind + ':' + g + '"><h2>', count =
    ' <span class="n">' + plural(n, 'finding', 'findings') + '</span>';
  if (g < 0) {
    return o + (kind === 'array' ? 'no shared array named' : 'kernel not known') + count + '</h2>';
  }
  if (kind === 'file') return o + '<span class="path">' + esc(D.files[g]) + '</span>' + count + '</h2>';
  if (kind === 'check') return o + '<span class="check">' + esc(D.checks[g]) + '</span>' + count + '</h2>';
  if (kind === 'kernel') {
    var k = D.kernels[g];
    return o + '<code>' + esc(k[0]) + '</code> <span class="loc">' + esc(loc(k[1], k[2], 0)) +
      '</span>' + count + '</h2>';
  }
  var a = D.arrays[g];
  o += '<code>' + esc(a[0]) + '</code> ';
  o += a[2] ? '<span class="loc">declared at ' + esc(loc(a[1], a[2], a[3])) + '</span>'
    : '<span class="loc">declaration not found in ' + esc(loc(a[1], 0, 0)) + '</span>';
  if (a[4] >= 0) o += '<span class="kernel">kernel <code>' + esc(D.kernels[a[4]][0]) + '</code></span>';
  o += count + '</h2>';
  if (a[2]) o += '<div class="decl">' + excerpt(a[1], a[2], a[3], 0) + '</div>';
  return o;
}

var view = { order: [], groups: null, start: 0, shown: 0, last: null };
function compute() {
  var terms = st.text.toLowerCase().split(/\s+/).filter(Boolean), vis = [];
  for (var i = 0; i < FS.length; i++) if (matches(i, terms)) vis.push(i);
  view.count = vis.length;
  view.groups = null;
  view.order = vis;
  if (st.group !== 'none') {
    var key = GROUPS[st.group], map = new Map();
    vis.forEach(function (i) {
      var g = key(FS[i]), e = map.get(g);
      if (!e) { e = { g: g, first: i, items: [] }; map.set(g, e); }
      e.items.push(i);
    });
    var gs = Array.from(map.values());
    gs.sort(function (a, b) {
      return ((a.g < 0) - (b.g < 0)) ||
        (st.group === 'check' ? a.g - b.g : a.first - b.first);
    });
    view.groups = gs;
    view.size = new Map();
    view.order = [];
    gs.forEach(function (e) {
      view.size.set(e.g, e.items.length);
      e.items.forEach(function (i) { view.order.push(i); });
    });
  }
}
function appendUpTo(limit) {
  var box = $('findings'), end = Math.min(limit, view.order.length);
  var key = view.groups ? GROUPS[st.group] : null, html = '', into = view.into || box;
  var flush = function () {
    if (html) into.insertAdjacentHTML('beforeend', html);
    html = '';
  };
  for (var k = view.shown; k < end; k++) {
    var i = view.order[k];
    if (key) {
      var g = key(FS[i]);
      if (g !== view.last) {
        flush();
        box.insertAdjacentHTML('beforeend', groupHead(st.group, g, view.size.get(g)) + '</div>');
        into = box.lastElementChild;
        view.last = g;
      }
    }
    html += card(i);
  }
  flush();
  view.into = key ? into : box;
  view.shown = end;
  var rest = view.order.length - end, more = $('more');
  more.hidden = rest === 0;
  more.textContent = 'show ' + Math.min(PAGE, rest) + ' more (' + rest + ' not shown)';
  $('first').hidden = view.start === 0;
  $('f-count').textContent = (view.count === 0 ? 'No finding matches.'
    : 'Showing ' + (view.start ? (view.start + 1) + '\u2013' + end : end) + ' of ' +
      plural(view.count, 'matching finding', 'matching findings')) +
    (view.count !== FS.length ? ' (' + FS.length + ' in all)' : '') +
    (view.groups ? ' in ' + plural(view.groups.length, 'group', 'groups') : '') + '.';
}
// Draws a page of the findings that match, from the START-th (0: the first).
function render(start) {
  compute();
  $('findings').textContent = '';
  view.start = view.shown = start || 0;
  view.last = null;
  view.into = null;
  appendUpTo(view.start + PAGE);
  markRows();
}

// Controls.
function countBy(field) {
  var c = new Map();
  FS.forEach(function (f) { c.set(f[field], (c.get(f[field]) || 0) + 1); });
  return c;
}
function fillSelect(id, field, name, all) {
  var counts = countBy(field), keys = Array.from(counts.keys()).filter(function (k) { return k >= 0; });
  var names = {};
  keys.forEach(function (k) { var n = name(k); names[n] = (names[n] || 0) + 1; });
  keys.sort(function (a, b) { return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : a - b; });
  var o = '<option value="-1">' + esc(all) + ' (' + FS.length + ')</option>';
  keys.forEach(function (k) {
    var n = name(k);
    if (names[n] > 1 && field === KERNEL) n += ' \u2014 ' + loc(D.kernels[k][1], D.kernels[k][2], 0);
    o += '<option value="' + k + '">' + esc(n) + ' (' + counts.get(k) + ')</option>';
  });
  $(id).innerHTML = o;
}
function setFilter(kind, v) {
  if (kind === 'degree') {
    st.degree = st.degree === v ? 0 : v;
    $('f-degree').value = st.degree > 1 ? String(st.degree) : '';
  } else {
    st[kind] = st[kind] === v ? -1 : v;
    $('f-' + kind).value = String(st[kind]);
  }
  render();
}
function markRows() {
  document.querySelectorAll('table.counts[data-filter] tbody tr').forEach(function (tr) {
    var kind = tr.parentNode.parentNode.getAttribute('data-filter');
    var v = Number(tr.getAttribute('data-value'));
    tr.classList.toggle('on', kind === 'degree' ? st.degree === v : st[kind] === v);
  });
}
function makePickable(tr) {
  tr.classList.add('pick');
  tr.tabIndex = 0;
  tr.title = 'show only these findings (again: all)';
}
function showAll(kind) {
  var field = kind === 'file' ? FILE : KERNEL, rows = new Map();
  FS.forEach(function (f, i) {
    var k = f[field];
    if (k < 0) return;
    var r = rows.get(k);
    if (!r) { r = { k: k, first: i, total: 0, per: D.checks.map(function () { return 0; }) }; rows.set(k, r); }
    r.total++;
    r.per[f[CHECK]]++;
  });
  var list = Array.from(rows.values());
  list.sort(function (a, b) { return b.total - a.total || a.first - b.first; });
  var o = '';
  list.forEach(function (r) {
    o += '<tr data-value="' + r.k + '">';
    if (kind === 'file') o += '<td><span class="path">' + esc(D.files[r.k]) + '</span></td>';
    else {
      var K = D.kernels[r.k];
      o += '<td><code>' + esc(K[0]) + '</code></td><td><span class="path">' +
        (K[1] >= 0 ? esc(D.files[K[1]] + ':' + K[2]) : '') + '</span></td>';
    }
    o += '<td class="n">' + r.total + '</td>';
    if (D.checks.length > 1)
      r.per.forEach(function (n) { o += '<td class="n">' + (n || '') + '</td>'; });
    o += '</tr>';
  });
  var table = $('sum-' + kind);
  table.tBodies[0].innerHTML = o;
  if (table.tFoot) table.deleteTFoot();
  table.querySelectorAll('tbody tr').forEach(makePickable);
  markRows();
}
// #finding-N: the page of the findings that holds it (all of them shown
// when it is filtered out).
function reveal(n) {
  if (!(n >= 1 && n <= FS.length)) return;
  var el = $('finding-' + n);
  if (!el) {
    compute();
    if (view.order.indexOf(n - 1) < 0) {
      st.check = st.file = st.kernel = -1;
      st.degree = 0;
      st.text = '';
      syncControls();
      compute();
    }
    var at = view.order.indexOf(n - 1);
    render(at - at % PAGE);
    el = $('finding-' + n);
  }
  if (el) el.scrollIntoView();
}
function syncControls() {
  $('f-check').value = String(st.check);
  $('f-file').value = String(st.file);
  $('f-kernel').value = String(st.kernel);
  $('f-degree').value = st.degree > 1 ? String(st.degree) : '';
  $('f-text').value = st.text;
  document.querySelectorAll('#f-group input').forEach(function (r) { r.checked = r.value === st.group; });
}

fillSelect('f-check', CHECK, function (k) { return D.checks[k]; }, 'all checks');
fillSelect('f-file', FILE, function (k) { return D.files[k]; }, 'all files');
fillSelect('f-kernel', KERNEL, function (k) { return D.kernels[k][0]; }, 'all kernels');
['check', 'file', 'kernel'].forEach(function (kind) {
  $('f-' + kind).addEventListener('change', function (e) {
    st[kind] = Number(e.target.value);
    render();
  });
});
$('f-degree').addEventListener('input', function (e) {
  st.degree = parseInt(e.target.value, 10) || 0;
  render();
});
// Typing renders once it pauses.
var typing = 0;
$('f-text').addEventListener('input', function (e) {
  clearTimeout(typing);
  typing = setTimeout(function () {
    st.text = e.target.value;
    render();
  }, 150);
});
$('f-group').addEventListener('change', function (e) {
  st.group = e.target.value;
  render();
});
$('f-reset').addEventListener('click', function () {
  st.check = st.file = st.kernel = -1;
  st.degree = 0;
  st.text = '';
  st.group = 'none';
  syncControls();
  render();
});
$('filters').addEventListener('submit', function (e) { e.preventDefault(); });
$('more').addEventListener('click', function () { appendUpTo(view.shown + PAGE); });
$('first').addEventListener('click', function () { render(0); });
var box = $('findings');
box.addEventListener('toggle', function (e) {
  var d = e.target;
  if (d.open && d.matches && d.matches('details.lanes') && !d.querySelector('table'))
    d.insertAdjacentHTML('beforeend', laneTable(Number(d.getAttribute('data-picture'))));
}, true);
box.addEventListener('click', function (e) {
  var b = e.target.closest && e.target.closest('button.explore');
  if (b) explore(b);
});
document.querySelectorAll('table.counts[data-filter] tbody tr').forEach(makePickable);
document.querySelector('#summary').addEventListener('click', function (e) {
  var btn = e.target.closest('button.show-all');
  if (btn) { showAll(btn.getAttribute('data-table')); return; }
  var tr = e.target.closest('tr.pick');
  if (!tr) return;
  setFilter(tr.parentNode.parentNode.getAttribute('data-filter'), Number(tr.getAttribute('data-value')));
  $('report').scrollIntoView();
});
document.querySelector('#summary').addEventListener('keydown', function (e) {
  if ((e.key === 'Enter' || e.key === ' ') && e.target.matches('tr.pick')) {
    e.preventDefault();
    e.target.click();
  }
});
document.querySelectorAll('button.show-all').forEach(function (b) { b.hidden = false; });
$('report').hidden = false;
syncControls();
render();
var hashed = function () {
  var m = /^#finding-([0-9]+)$/.exec(location.hash);
  if (m) reveal(Number(m[1]));
};
window.addEventListener('hashchange', hashed);
hashed();
})();
)js";

} // namespace shmem
