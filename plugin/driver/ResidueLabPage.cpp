//===- ResidueLabPage.cpp - The residue lab as a page ---------------------===//
//
// One self-contained HTML file: inline CSS, inline SVG drawn by an inline
// script, nothing fetched, no date; the same modulus and step give the same
// bytes. The walk is computed in the page (the user changes the modulus and
// the step there) by the same rule as residueOrbit(): reduce the step into
// [0, M), then x -> (x + step) mod M from 0 until back at 0.
//
// Predicting before seeing is the point: Step (and "Walk to the end") first
// asks for a predicted period and does not move until one is entered; the
// first step locks the prediction in until Reset, or until the modulus or
// step changes, which starts the walk again. Once the walk is back at 0 the
// page says whether the prediction was the period M / gcd(M, S), and why.
//
// Stable hooks for tests: #lab carries data-state (ready, walking,
// returned, invalid), data-modulus, data-step (reduced), data-steps,
// data-visits (the walk so far, space-separated, 0 first; the return to 0
// included), data-prediction, data-period and data-verdict (right, wrong)
// once returned; ring positions are [data-residue] with data-visited.
//
//===----------------------------------------------------------------------===//

#include "ResidueLabPage.h"

#include "ResidueLab.h"

#include <string>

namespace shmem {
namespace {

const char *const PageHead = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="shmem-lint explain --modulus @M@ --step @S@ --format=html">
<title>Residue lab - shmem-lint</title>
<style>
:root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --paper: #ffffff;
  --soft: #f6f8fa; --visit: #0a58ca; --visit-soft: #cfe2ff; --now: #d9480f;
  --never: #eaeef2; --right: #1a7f37; --wrong: #b42318; --warn-bg: #fff8e1;
  --warn-line: #d4a72c; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: var(--paper);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 74rem; margin: 0 auto; padding: 0.9rem 1.2rem 2rem; }
h1 { font-size: 1.45rem; margin: 0 0 0.2rem; }
h2 { font-size: 1.08rem; margin: 0 0 0.4rem; }
p { margin: 0.3rem 0; }
code { font: 0.9em/1.3 ui-monospace, "DejaVu Sans Mono", monospace; background: var(--soft);
  padding: 0.05em 0.3em; border-radius: 3px; }
a { color: var(--visit); }
.lead { margin: 0 0 0.6rem; }
.analogy { border: 1px solid var(--warn-line); background: var(--warn-bg);
  border-radius: 6px; padding: 0.5rem 0.8rem; margin: 0 0 0.8rem; }
.analogy h2 { font-size: 1rem; margin: 0 0 0.15rem; }
.analogy p { margin: 0.15rem 0; font-size: 0.93rem; }
.cols { display: grid; grid-template-columns: minmax(20rem, 1fr) minmax(22rem, 1.05fr);
  gap: 1.2rem; align-items: start; }
@media (max-width: 52rem) { .cols { grid-template-columns: 1fr; } }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 0.7rem;
  padding: 0.5rem 0.8rem 0.6rem; }
legend { font-weight: 600; padding: 0 0.3rem; }
.field { display: grid; grid-template-columns: 10.5rem 1fr; gap: 0.1rem 0.6rem;
  align-items: center; margin: 0.3rem 0; }
.field label { font-weight: 500; }
.field .help, .field .error { grid-column: 2; font-size: 0.85rem; }
.help { color: var(--muted); }
.error { color: var(--wrong); font-weight: 500; }
.error:empty { display: none; }
input[type=number] { width: 9rem; font: inherit; padding: 0.2rem 0.35rem;
  border: 1px solid #8c959f; border-radius: 4px; }
input[aria-invalid=true] { border-color: var(--wrong); outline: 1px solid var(--wrong); }
input[readonly] { background: var(--soft); color: var(--muted); }
.buttons { display: flex; gap: 0.5rem; flex-wrap: wrap; margin-top: 0.45rem; }
button { font: inherit; padding: 0.3rem 0.9rem; border-radius: 5px; cursor: pointer;
  border: 1px solid #8c959f; background: var(--soft); color: var(--ink); }
button.primary { background: var(--visit); border-color: var(--visit); color: #fff; font-weight: 600; }
:focus-visible { outline: 3px solid #fd7e14; outline-offset: 2px; }
#status { font-weight: 600; min-height: 1.4em; }
#status.ask { color: var(--wrong); }
.visited { margin: 0.3rem 0 0.5rem; }
#visited { font: 0.95rem/1.4 ui-monospace, "DejaVu Sans Mono", monospace; word-break: break-word; }
#log { margin: 0.2rem 0 0; padding-left: 0; list-style: none; max-height: 15rem;
  overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; }
#log li { padding: 0.12rem 0.6rem; border-bottom: 1px solid var(--soft);
  font: 0.9rem/1.35 ui-monospace, "DejaVu Sans Mono", monospace; }
#log li.home { color: var(--visit); font-weight: 700; }
#log:empty::before { content: "No steps yet."; display: block; padding: 0.2rem 0.6rem; color: var(--muted); }
.ring-box { border: 1px solid var(--line); border-radius: 6px; padding: 0.4rem; }
#ring { display: block; width: 100%; max-width: 21rem; height: auto; margin: 0 auto; }
#ring .track { fill: none; stroke: var(--line); stroke-width: 1.5; }
#ring .node circle { fill: #fff; stroke: #8c959f; stroke-width: 1.5; }
#ring .node text { fill: var(--muted); text-anchor: middle; dominant-baseline: central;
  font: 600 12px system-ui, sans-serif; }
#ring .node.visited circle { fill: var(--visit-soft); stroke: var(--visit); stroke-width: 2; }
#ring .node.visited text { fill: var(--visit); }
#ring .node.never circle { fill: var(--never); stroke: #afb8c1; stroke-dasharray: 2 2; }
#ring .node.never text { fill: #8c959f; }
#ring .dot { fill: var(--visit); }
#ring .chord { fill: none; stroke: var(--visit); stroke-width: 1.6; opacity: 0.55; }
#ring .chord.latest { stroke: var(--now); stroke-width: 2.4; opacity: 1; }
#ring .chord-label { font: 600 10px system-ui, sans-serif; fill: var(--visit);
  text-anchor: middle; dominant-baseline: central; paint-order: stroke;
  stroke: #fff; stroke-width: 3px; }
#ring .chord-label.latest { fill: var(--now); }
#ring #here { fill: none; stroke: var(--now); stroke-width: 3; }
#ring .centre { font: 600 13px system-ui, sans-serif; fill: var(--muted); text-anchor: middle; }
#ring .rule { font: 600 14px system-ui, sans-serif; fill: var(--muted); }
.legend { font-size: 0.82rem; color: var(--muted); text-align: center; margin: 0.2rem 0 0; }
.legend span { white-space: nowrap; margin: 0 0.4rem; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 50%;
  vertical-align: -0.05em; margin-right: 0.25em; border: 1.5px solid; }
#result { border-radius: 6px; padding: 0.6rem 0.8rem; margin-top: 0.7rem;
  border: 2px solid var(--line); }
#result.right { border-color: var(--right); background: #eafbee; }
#result.wrong { border-color: var(--wrong); background: #fdeceb; }
#verdict { font-weight: 700; font-size: 1.05rem; }
#result.right #verdict { color: var(--right); }
#result.wrong #verdict { color: var(--wrong); }
noscript p { color: var(--wrong); font-weight: 600; }
</style>
</head>
)HTML";

const char *const PageBody = R"HTML(<body>
<main id="lab" data-state="ready" data-modulus="@M@" data-step="@S@" data-steps="0" data-visits="0">
<h1>Residue lab</h1>
<p class="lead">Start at 0 and add the step, modulo the modulus, again and
again until the walk is back at 0. How many steps will that take?
<strong>Predict the period first, then Step and see.</strong></p>

<section class="analogy" id="analogy" aria-labelledby="analogy-title">
<h2 id="analogy-title">This is an analogy, not the bank model</h2>
<p>Read the modulus as the number of banks and the step as the distance in
4-byte words between successive lanes: lane <var>k</var> lands on residue
<var>k</var> &times; step mod modulus, so the lanes reach only the residues of
the walk. But the lab is a toy: a handful of residues (8 in the examples)
where a warp has 32 banks, and it has <strong>no addresses, no
broadcasts</strong> (lanes on one word share it), <strong>no access
widths</strong> (8- and 16-byte accesses are served in phases) and
<strong>no synchronisation</strong>.</p>
<p id="real-view">For the real 32-bank view of an access, run
<code>shmem-lint explain --shape 32x32 --type float --index 'tile[lane][0]' --format=html</code>
(the layout explorer), and see
<a id="docs-link" href="https://github.com/shmem-lint/shmem-lint/blob/main/docs/explain.md">docs/explain.md</a>.</p>
</section>

<noscript><p>The lab runs in this page's script, which is off. The same walk
as text: <code>shmem-lint explain --modulus @M@ --step @S@</code></p></noscript>

<div class="cols">
<div>
<form id="setup" novalidate>
<fieldset>
<legend>The walk</legend>
<div class="field">
<label for="modulus">Modulus</label>
<input id="modulus" name="modulus" type="number" inputmode="numeric" min="1" max="@MAX@" step="1" value="@M@" required aria-describedby="modulus-help modulus-error">
<span class="help" id="modulus-help">residues on the ring: a whole number from 1 to @MAX@</span>
<span class="error" id="modulus-error" aria-live="polite"></span>
</div>
<div class="field">
<label for="step">Step</label>
<input id="step" name="step" type="number" inputmode="numeric" step="1" value="@S@" required aria-describedby="step-help step-error">
<span class="help" id="step-help">added each time: a whole number; 0 and negative steps are fine<span id="step-reduced"></span></span>
<span class="error" id="step-error" aria-live="polite"></span>
</div>
<div class="buttons">
<button type="button" id="reset">Reset</button>
</div>
<p class="help">Reset goes back to 0 and clears the prediction; changing the
modulus or the step starts the walk again too.</p>
</fieldset>
</form>

<form id="predict" novalidate>
<fieldset>
<legend>Predict, then step</legend>
<div class="field">
<label for="prediction">Your predicted period</label>
<input id="prediction" name="prediction" type="number" inputmode="numeric" min="1" step="1" aria-describedby="prediction-help prediction-error">
<span class="help" id="prediction-help">how many steps until the walk is back at 0? Step asks for it first; it is locked in at the first step.</span>
<span class="error" id="prediction-error" aria-live="polite"></span>
</div>
<div class="buttons">
<button type="submit" id="step-button" class="primary">Step</button>
<button type="button" id="finish">Walk to the end</button>
</div>
</fieldset>
</form>

<p id="status" role="status" aria-live="polite"></p>
<p class="visited">Visited so far: <span id="visited">0</span>
(<span id="visited-count">1</span>)</p>
<h2 id="log-title">Steps</h2>
<ol id="log" aria-labelledby="log-title"></ol>
</div>

<div>
<div class="ring-box">
<svg id="ring" viewBox="-190 -190 380 380" role="img" aria-labelledby="ring-label">
<title id="ring-label">The ring of residues</title>
<defs>
<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#0a58ca"/></marker>
<marker id="arrow-latest" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#d9480f"/></marker>
</defs>
<g id="ring-track"></g><g id="ring-chords"></g><g id="ring-nodes"></g><g id="ring-here"></g>
</svg>
<p class="legend"><span><span class="swatch" style="background:#cfe2ff;border-color:#0a58ca"></span>visited</span>
<span><span class="swatch" style="background:#fff;border-color:#d9480f"></span>where the walk is</span>
<span><span class="swatch" style="background:#eaeef2;border-color:#afb8c1"></span>never reached</span>
<span><span class="swatch" style="background:#fff;border-color:#8c959f"></span>not yet</span></p>
</div>
<section id="result" aria-live="polite" aria-labelledby="result-title" hidden>
<h2 id="result-title">Back at 0</h2>
<p id="verdict"></p>
<p id="why"></p>
<p id="banks"></p>
</section>
</div>
</div>
</main>
)HTML";

const char *const PageScript = R"HTML(<script>
(function () {
  'use strict';
  var MAX_MODULUS = @MAX@;
  var INT64_MIN = BigInt('-9223372036854775808');
  var INT64_MAX = BigInt('9223372036854775807');
  // Beyond these the page keeps walking but stops drawing and listing.
  var MAX_NODES = 1024, MAX_CHORDS = 256, MAX_LOG = 256, MAX_DATA = 1024;
  var SVGNS = 'http://www.w3.org/2000/svg';
  var R = 150;

  function $(id) { return document.getElementById(id); }
  var lab = $('lab'), modulusIn = $('modulus'), stepIn = $('step'),
      predictionIn = $('prediction'), status = $('status'),
      visitedOut = $('visited'), visitedCount = $('visited-count'),
      log = $('log'), result = $('result');

  var st = null; // the walk

  function gcd(a, b) { while (b) { var t = a % b; a = b; b = t; } return a; }
  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }
  function minus(s) { return s.replace(/^-/, '\u2212'); }

  function setError(input, id, msg) {
    $(id).textContent = msg;
    if (msg) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  function readModulus() {
    var v = modulusIn.value.trim();
    if (v === '')
      return { msg: 'Enter a modulus: a whole number from 1 to ' + MAX_MODULUS + '.' };
    if (!/^\+?\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_MODULUS)
      return { msg: 'The modulus must be a whole number from 1 to ' + MAX_MODULUS +
                    ' (not ' + minus(v) + ').' };
    return { value: Number(v) };
  }

  function readStep() {
    var v = stepIn.value.trim();
    if (v === '')
      return { msg: 'Enter a step: a whole number (0 and negative steps are fine).' };
    if (!/^[+-]?\d+$/.test(v))
      return { msg: 'The step must be a whole number (not ' + minus(v) + ').' };
    var b = BigInt(v);
    if (b < INT64_MIN || b > INT64_MAX)
      return { msg: 'The step must be from \u22129223372036854775808 to 9223372036854775807.' };
    return { big: b, text: b.toString() };
  }

  function readPrediction() {
    var v = predictionIn.value.trim();
    if (v === '')
      return { msg: 'Predict first: how many steps until the walk is back at 0? ' +
                    'Enter your predicted period, then Step.' };
    if (!/^\+?\d+$/.test(v) || Number(v) < 1 || Number(v) > st.m)
      return { msg: 'The predicted period must be a whole number from 1 to ' + st.m +
                    ' (a walk on ' + plural(st.m, 'residue', 'residues') +
                    ' cannot take more steps than that).' };
    return { value: Number(v) };
  }

  function svg(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function at(r, radius) {
    var a = 2 * Math.PI * r / st.m;
    return [radius * Math.sin(a), -radius * Math.cos(a)];
  }
  function f(x) { return (Math.round(x * 10) / 10).toString(); }

  // ---- the walk ----------------------------------------------------------

  function newWalk(clearPrediction) {
    var m = readModulus(), s = readStep();
    setError(modulusIn, 'modulus-error', m.msg || '');
    setError(stepIn, 'step-error', s.msg || '');
    var wasLocked = st && st.locked;
    st = { valid: !m.msg && !s.msg, m: 0, s: 0, text: '', g: 0, pos: 0, walk: [0],
           returned: false, locked: false, prediction: null, nodes: [], dots: 0 };
    if (st.valid) {
      st.m = m.value;
      var big = BigInt(st.m);
      st.s = Number(((s.big % big) + big) % big);
      st.text = s.text;
      st.g = gcd(st.m, st.s); // gcd(m, 0) = m
    }
    predictionIn.readOnly = false;
    predictionIn.max = st.valid ? String(st.m) : '';
    if (clearPrediction || wasLocked) predictionIn.value = '';
    setError(predictionIn, 'prediction-error', '');
    $('prediction-help').textContent = 'how many steps until the walk is back at 0? ' +
        'Step asks for it first; it is locked in at the first step.';
    $('step-reduced').textContent = st.valid && st.text !== String(st.s)
        ? '; ' + minus(st.text) + ' is ' + st.s + ' modulo ' + st.m +
          (s.big < 0 ? ' (it walks backwards)' : '')
        : '';
    clear(log);
    result.hidden = true;
    result.className = '';
    lab.removeAttribute('data-prediction');
    lab.removeAttribute('data-period');
    lab.removeAttribute('data-verdict');
    lab.setAttribute('data-modulus', st.valid ? st.m : '');
    lab.setAttribute('data-step', st.valid ? st.s : '');
    drawRing();
    if (st.valid)
      say('At 0 on a ring of ' + plural(st.m, 'residue', 'residues') + ', adding ' +
          st.s + ' each time. Predict the period, then Step.');
    else
      say('Fix the ' + (m.msg ? 'modulus' : 'step') + ' to start a walk.', true);
    update();
  }

  function say(text, ask) {
    status.textContent = text;
    status.className = ask ? 'ask' : '';
  }

  function step(count) {
    if (!st.valid) {
      say('Fix the ' + ($('modulus-error').textContent ? 'modulus' : 'step') +
          ' first: there is no walk to step.', true);
      ($('modulus-error').textContent ? modulusIn : stepIn).focus();
      return;
    }
    if (st.returned) {
      say('The walk is back at 0 and done. Reset (or change the modulus or the step) to walk again.', true);
      return;
    }
    if (!st.locked) {
      var p = readPrediction();
      setError(predictionIn, 'prediction-error', p.msg || '');
      if (p.msg) {
        say('Predict the period before stepping: predicting before seeing is the point.', true);
        predictionIn.focus();
        return;
      }
      st.locked = true;
      st.prediction = p.value;
      predictionIn.readOnly = true;
      $('prediction-help').textContent = 'locked in: ' + p.value +
          '. Reset to predict again.';
      lab.setAttribute('data-prediction', p.value);
    }
    var n = st.walk.length - 1, from = st.pos;
    for (var i = 0; i < count && !st.returned; ++i) {
      from = st.pos;
      var to = (from + st.s) % st.m;
      st.walk.push(to);
      st.pos = to;
      st.returned = to === 0;
      n = st.walk.length - 1;
      // Drawing and listing stop at their caps; the walk goes on.
      if (n <= MAX_LOG) addLog(n, from, to, stepText(n, from, to));
      if (n <= MAX_CHORDS) addChord(n, from, to);
      markVisit(to);
    }
    if (n > MAX_LOG) addMore(n);
    moveHere(st.pos);
    say(stepText(n, from, st.pos));
    update();
    if (st.returned) finish();
  }

  function stepText(n, from, to) {
    return 'Step ' + n + ': ' + sum(from, to) + (to === 0 ? ', back at 0.' : '.');
  }

  function sum(from, to) {
    // A small negative step reads better as a subtraction.
    var big = BigInt(st.text);
    var op = big < 0 && -big < BigInt(st.m)
        ? from + ' \u2212 ' + (-big).toString() : from + ' + ' + st.s;
    return op + ' \u2261 ' + to + ' (mod ' + st.m + ')';
  }

  function addMore(n) {
    var more = log.lastChild;
    if (!more || !more.classList.contains('more')) {
      more = document.createElement('li');
      more.className = 'more';
      log.appendChild(more);
    }
    more.textContent = '\u2026 steps ' + (MAX_LOG + 1) + ' to ' + n +
        ' are not listed' + (st.returned ? '; step ' + n + ' is back at 0.' : '.');
  }

  function addLog(n, from, to, text) {
    var li = document.createElement('li');
    li.setAttribute('data-step', n);
    li.setAttribute('data-from', from);
    li.setAttribute('data-to', to);
    if (to === 0) li.className = 'home';
    li.textContent = text;
    log.appendChild(li);
    log.scrollTop = log.scrollHeight;
  }

  // ---- the ring ----------------------------------------------------------

  function nodeRadius() {
    return st.m <= 12 ? 16 : st.m <= 24 ? 12 : st.m <= 40 ? 9 : st.m <= 64 ? 6 : 2.5;
  }

  function drawRing() {
    clear($('ring-track')); clear($('ring-chords')); clear($('ring-nodes')); clear($('ring-here'));
    svg('circle', { class: 'track', cx: 0, cy: 0, r: R }, $('ring-track'));
    if (!st.valid) {
      var t = svg('text', { class: 'centre', x: 0, y: 5 }, $('ring-track'));
      t.textContent = 'no walk: fix the input';
      return;
    }
    var c = svg('text', { class: 'rule', x: -186, y: -172, id: 'ring-rule' }, $('ring-track'));
    c.textContent = '+' + st.s + ' mod ' + st.m;
    if (st.m <= MAX_NODES) {
      var nr = nodeRadius(), labels = st.m <= 64;
      var every = st.m <= 40 ? 1 : 4;
      for (var r = 0; r < st.m; ++r) {
        var p = at(r, R);
        var g = svg('g', { class: 'node', 'data-residue': r, 'data-visited': 'false',
                           transform: 'translate(' + f(p[0]) + ' ' + f(p[1]) + ')' },
                    $('ring-nodes'));
        svg('circle', { r: nr }, g);
        if (labels && r % every === 0) {
          var tx = svg('text', { x: 0, y: 0 }, g);
          if (st.m > 24) tx.setAttribute('style', 'font-size:' + (st.m > 40 ? 8 : 10) + 'px');
          tx.textContent = r;
        }
        st.nodes.push(g);
      }
    }
    if (st.m > 64) {
      var z = at(0, R + 16);
      var zt = svg('text', { class: 'centre', x: f(z[0]), y: f(z[1] + 4) }, $('ring-track'));
      zt.textContent = '0';
    }
    markVisit(0);
    moveHere(0);
  }

  function markVisit(r) {
    if (st.nodes.length) {
      st.nodes[r].classList.add('visited');
      st.nodes[r].setAttribute('data-visited', 'true');
    } else if (st.dots < MAX_NODES && !st.returned) { // 0 has its dot
      var p = at(r, R);
      svg('circle', { class: 'dot', cx: f(p[0]), cy: f(p[1]), r: 2, 'data-residue': r },
          $('ring-nodes'));
      ++st.dots;
    }
  }

  function moveHere(r) {
    var here = $('ring-here');
    clear(here);
    var q = at(r, R);
    svg('circle', { id: 'here', cx: f(q[0]), cy: f(q[1]), r: (st.m <= 64 ? nodeRadius() : 4) + 4 },
        here);
  }

  function addChord(n, from, to) {
    var chords = $('ring-chords');
    var prev = chords.querySelectorAll('.latest');
    for (var i = 0; i < prev.length; ++i) {
      prev[i].classList.remove('latest');
      if (prev[i].tagName === 'path') prev[i].setAttribute('marker-end', 'url(#arrow)');
    }
    var nr = st.m <= 64 ? nodeRadius() : 2;
    var d, mid;
    if (from === to) {
      // A step that goes nowhere: a loop outside the node.
      var o = at(from, R + nr + 12);
      d = 'M' + f(o[0] - 1) + ' ' + f(o[1] + 10) + ' a 11 11 0 1 1 2 0';
      mid = at(from, R + nr + 30);
    } else {
      var a = at(from, R - nr - 3), b = at(to, R - nr - 3);
      var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy);
      // Bend to the right of the direction of travel, so that a step back
      // along the same chord is drawn apart from the step out.
      var k = 0.16 * len;
      var cx = (a[0] + b[0]) / 2 - dy / len * k, cy = (a[1] + b[1]) / 2 + dx / len * k;
      d = 'M' + f(a[0]) + ' ' + f(a[1]) + ' Q' + f(cx) + ' ' + f(cy) + ' ' + f(b[0]) + ' ' + f(b[1]);
      mid = [0.25 * a[0] + 0.5 * cx + 0.25 * b[0], 0.25 * a[1] + 0.5 * cy + 0.25 * b[1]];
    }
    svg('path', { class: 'chord latest', d: d, 'data-step': n, 'data-from': from, 'data-to': to,
                  'marker-end': 'url(#arrow-latest)' }, chords);
    if (st.m <= 64 && n <= 64) {
      var t = svg('text', { class: 'chord-label latest', x: f(mid[0]), y: f(mid[1]) }, chords);
      t.textContent = n;
    }
  }

  // ---- what is shown -----------------------------------------------------

  function listed(xs, sep) {
    if (xs.length <= 34) return xs.join(sep);
    return xs.slice(0, 30).join(sep) + sep + '\u2026' + sep + xs.slice(-2).join(sep);
  }

  function update() {
    var steps = st.walk.length - 1;
    lab.setAttribute('data-state', !st.valid ? 'invalid' : st.returned ? 'returned'
                     : steps ? 'walking' : 'ready');
    lab.setAttribute('data-steps', steps);
    lab.setAttribute('data-visits', st.walk.slice(0, MAX_DATA + 1).join(' '));
    if (!st.valid) {
      visitedOut.textContent = '\u2014';
      visitedCount.textContent = 'no walk';
      $('ring-label').textContent = 'No ring: the input is invalid.';
      return;
    }
    visitedOut.textContent = listed(st.walk, ' \u2192 ');
    var distinct = st.returned ? steps : st.walk.length;
    visitedCount.textContent = plural(distinct, 'residue', 'residues') + ' of ' + st.m +
        ', ' + plural(steps, 'step', 'steps');
    $('ring-label').textContent = 'Ring of ' + plural(st.m, 'residue', 'residues') +
        ', 0 at the top, clockwise. Visited: ' + listed(st.walk, ', ') + '. Now at ' +
        st.pos + (st.returned ? ', back where it started.' : '.');
  }

  function finish() {
    var period = st.walk.length - 1, m = st.m, g = st.g;
    var right = st.prediction === period;
    lab.setAttribute('data-period', period);
    lab.setAttribute('data-verdict', right ? 'right' : 'wrong');
    result.className = right ? 'right' : 'wrong';
    $('result-title').textContent = 'Back at 0 after ' + plural(period, 'step', 'steps');
    $('verdict').textContent = right
        ? 'Your prediction was right: you predicted ' + st.prediction +
          ' and the period is ' + period + '.'
        : 'Your prediction was wrong: you predicted ' + st.prediction +
          ', but the walk took ' + plural(period, 'step', 'steps') +
          ' to come back to 0: the period is ' + period + '.';
    var why = 'Why: the period is ' + m + ' / gcd(' + m + ', ' + st.s + ') = ' +
        m + ' / ' + g + ' = ' + period + '. ';
    var orbit = st.walk.slice(0, period).slice().sort(function (x, y) { return x - y; });
    if (period === m)
      why += 'gcd(' + m + ', ' + st.s + ') = 1: the step is coprime to the modulus, ' +
             'so the walk visits every residue before it comes back.';
    else if (period === 1)
      why += 'The step is a multiple of the modulus, so the walk never leaves 0.';
    else
      why += 'Every step adds a multiple of ' + g + ', and ' + m + ' is one too, so ' +
             'the walk visits only the multiples of ' + g + ' {' + listed(orbit, ', ') +
             '}; the other ' + plural(m - period, 'residue is', 'residues are') +
             ' never reached.';
    $('why').textContent = why;
    for (var i = 0; i < st.nodes.length; ++i)
      if (!st.nodes[i].classList.contains('visited')) {
        st.nodes[i].classList.add('never');
        st.nodes[i].setAttribute('data-visited', 'never');
      }
    $('banks').textContent = m === 32
        ? 'As banks (the analogy): lanes ' + st.s + (st.s === 1 ? ' word' : ' words') +
          ' apart reach ' + plural(period, 'bank', 'banks') + ' of 32, ' +
          plural(32 / period, 'lane', 'lanes') + ' in each, before addresses, ' +
          'broadcasts and widths are counted.'
        : 'As banks (the analogy): set the modulus to 32 and read the step as a ' +
          'stride in words between lanes; lanes reach 32 / gcd(32, stride) banks.';
    result.hidden = false;
  }

  // ---- events ------------------------------------------------------------

  $('reset').addEventListener('click', function () { newWalk(true); });
  modulusIn.addEventListener('input', function () { newWalk(false); });
  stepIn.addEventListener('input', function () { newWalk(false); });
  $('setup').addEventListener('submit', function (e) { e.preventDefault(); });
  $('predict').addEventListener('submit', function (e) { e.preventDefault(); step(1); });
  $('finish').addEventListener('click', function () { step(Infinity); });
  predictionIn.addEventListener('input', function () {
    if ($('prediction-error').textContent) setError(predictionIn, 'prediction-error', '');
  });
  newWalk(true);
})();
</script>
</body>
</html>
)HTML";

void replaceAll(std::string &S, const std::string &From,
                const std::string &To) {
  for (size_t P = S.find(From); P != std::string::npos;
       P = S.find(From, P + To.size()))
    S.replace(P, From.size(), To);
}

} // namespace

void writeResidueLabPage(llvm::raw_ostream &Out, uint64_t Modulus,
                         int64_t Step) {
  std::string Page = std::string(PageHead) + PageBody + PageScript;
  replaceAll(Page, "@M@", std::to_string(Modulus));
  replaceAll(Page, "@S@", std::to_string(Step));
  replaceAll(Page, "@MAX@", std::to_string(MaxResidueModulus));
  Out << Page;
}

} // namespace shmem
